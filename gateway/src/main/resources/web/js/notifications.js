// The bell in the header: your notifications (docs/api.md "Notifications"), with the unread count. The list is read
// once, then kept live by the notification stream (an EventSource: a reconnect sends Last-Event-ID by itself, so
// nothing is missed or doubled; items are also kept by id). Opening the bell shows the list; each item links to its
// session; "Mark all read" marks everything up to the newest one read. Without the gateway's database (503) the
// bell is not shown.
import { api } from './api.js';
import { clear, h } from './dom.js';

const KIND_LABELS = { turn_ended: 'turn ended', wait_fired: 'wait fired', approval_pending: 'needs approval',
  message: 'message' };

/** A bell drawn as SVG: an emoji depends on the fonts a system has (a headless browser often has none). */
function bellIcon() {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  for (const [name, value] of Object.entries({ viewBox: '0 0 24 24', width: '18', height: '18', fill: 'none',
    stroke: 'currentColor', 'stroke-width': '2', 'stroke-linecap': 'round', 'stroke-linejoin': 'round',
    'aria-hidden': 'true', focusable: 'false' })) {
    svg.setAttribute(name, value);
  }
  for (const d of ['M4.5 17.5h15l-2-2.5V10a5.5 5.5 0 0 0-11 0v5z', 'M10 20.5a2 2 0 0 0 4 0', 'M12 3v1.5']) {
    const path = document.createElementNS(ns, 'path');
    path.setAttribute('d', d);
    svg.append(path);
  }
  return svg;
}

export class Bell {
  constructor() {
    this.items = new Map();
    this.unread = 0;
    this.count = h('span', { class: 'badge', 'data-testid': 'notifications-unread', hidden: true });
    this.button = h('button', { type: 'button', class: 'bell', 'data-testid': 'notifications-bell',
      'aria-haspopup': 'true', 'aria-expanded': 'false', 'aria-controls': 'notifications-panel',
      onclick: () => this.toggle() }, bellIcon(),
    h('span', { class: 'visually-hidden' }, 'Notifications'), this.count);
    this.list = h('ul', { class: 'notification-list', 'data-testid': 'notifications-list' });
    this.error = h('p', { class: 'error', role: 'alert' });
    this.panel = h('div', { class: 'notifications-panel', id: 'notifications-panel', role: 'region',
      'aria-label': 'Notifications', hidden: true, onkeydown: (e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          this.toggle(false);
          this.button.focus();
        }
      } },
    h('div', { class: 'notifications-head' }, h('strong', {}, 'Notifications'),
      h('span', {}, h('button', { type: 'button', 'data-testid': 'notifications-read-all',
        onclick: () => this.markRead() }, 'Mark all read'), ' ',
      h('button', { type: 'button', 'data-testid': 'notifications-close', 'aria-label': 'Close the notifications',
        onclick: () => { this.toggle(false); this.button.focus(); } }, '×'))),
    this.error, this.list);
    this.root = h('div', { class: 'bell-wrap', hidden: true }, this.button, this.panel);
    // A live region apart from the button, so a screen reader hears of a new notification once.
    this.announce = h('span', { class: 'visually-hidden', 'aria-live': 'polite' });
    this.root.append(this.announce);
    // A click anywhere else closes the list, as a menu does.
    this.outside = (e) => {
      if (!this.panel.hidden && !this.root.contains(e.target)) {
        this.toggle(false);
      }
    };
    document.addEventListener('click', this.outside);
  }

  async start() {
    try {
      const list = await api('GET', '/api/v1/me/notifications?limit=50');
      for (const item of list.items) {
        this.items.set(item.id, item);
      }
      this.root.hidden = false;
      this.draw();
    } catch (e) {
      return; // no database: no notifications
    }
    this.stream = new EventSource('/api/v1/me/notifications/stream');
    this.stream.addEventListener('notification', (e) => {
      const item = JSON.parse(e.data);
      const known = this.items.has(item.id);
      this.items.set(item.id, known ? { ...item, read: this.items.get(item.id).read } : item);
      if (!known) {
        this.announce.textContent = `Notification: ${item.title}`;
      }
      this.draw();
    });
  }

  stop() {
    document.removeEventListener('click', this.outside);
    this.stream?.close();
    this.stream = null;
  }

  toggle(open = this.panel.hidden) {
    this.panel.hidden = !open;
    this.button.setAttribute('aria-expanded', String(open));
    if (open) {
      this.panel.querySelector('a, button')?.focus();
    }
  }

  draw() {
    const all = [...this.items.values()].sort((a, b) => b.id - a.id).slice(0, 100);
    const unread = all.filter((n) => !n.read).length;
    this.count.hidden = unread === 0;
    this.count.textContent = String(unread);
    this.button.title = unread ? `${unread} unread notification${unread === 1 ? '' : 's'}` : 'Notifications';
    this.button.setAttribute('aria-label', this.button.title);
    clear(this.list).append(...(all.length ? all.map((n) => h('li', { class: `notification${n.read ? '' : ' unread'}`,
      'data-testid': 'notification', 'data-id': n.id, 'data-kind': n.kind, 'data-read': String(!!n.read) },
    h('a', { href: `#/s/${n.sessionId}`, onclick: () => this.toggle(false) },
      h('span', { class: 'title' }, n.title), n.body ? h('span', { class: 'body' }, n.body) : null,
      h('span', { class: 'hint' }, `${KIND_LABELS[n.kind] || n.kind} · ${new Date(n.createdAt).toLocaleString()}`))))
      : [h('li', { class: 'hint' }, 'Nothing yet.')]));
  }

  async markRead() {
    const newest = Math.max(0, ...this.items.keys());
    if (!newest) {
      return;
    }
    try {
      await api('POST', '/api/v1/me/notifications/read', { upTo: newest });
      for (const item of this.items.values()) {
        item.read = true;
      }
      this.error.textContent = '';
      this.draw();
    } catch (e) {
      this.error.textContent = e.message;
    }
  }
}
