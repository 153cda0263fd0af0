// The sessions sidebar: yours and those shared with your groups, newest first, and a new session.
import { api } from './api.js';
import { clear, h } from './dom.js';

export class Sidebar {
  constructor(root, onOpen) {
    this.root = root;
    this.onOpen = onOpen;
    this.list = h('ul', { class: 'sessions', 'aria-label': 'Sessions' });
    this.error = h('p', { class: 'error', role: 'alert' });
    clear(root).append(
      h('button', { type: 'button', 'data-testid': 'new-session', class: 'new-session',
        title: 'New session (Alt+N)', onclick: () => this.create() }, '+ New session'),
      this.error, this.list);
  }

  async refresh(selected) {
    this.selected = selected ?? this.selected;
    try {
      const sessions = await api('GET', '/api/v1/sessions');
      clear(this.list).append(...sessions.map((s) => h('li', {},
        h('button', { type: 'button', class: `session ${s.status.toLowerCase()}`, 'data-session-id': s.id,
          'aria-current': s.id === this.selected ? 'page' : undefined, onclick: () => this.onOpen(s.id) },
        h('span', { class: 'title' }, s.title || 'Untitled'),
        h('span', { class: 'status' }, s.status.toLowerCase())))));
    } catch (e) {
      this.error.textContent = e.message;
    }
  }

  async create() {
    try {
      const created = await api('POST', '/api/v1/sessions', { title: '' });
      await this.refresh(created.id);
      this.onOpen(created.id);
    } catch (e) {
      this.error.textContent = e.message;
    }
  }
}
