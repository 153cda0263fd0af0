// The sessions sidebar: yours and those shared with your groups, newest first, and a new session. Pinned sessions
// come first, then your folders, then the rest; pins and folders are yours alone (the gateway keeps them per person).
// The search box filters titles as you type; Enter searches every message and answer with the gateway's search,
// in the mode chosen beside the box: by words (full-text), by meaning (embeddings), both, or the gateway's choice
// (hybrid when it has an embedding model, else words). A mode the gateway cannot serve shows its message.
import { api } from './api.js';
import { clear, h } from './dom.js';
import { presetSelect } from './context.js';

export class Sidebar {
  constructor(root, onOpen, { userId, onDeleted } = {}) {
    this.root = root;
    this.onOpen = onOpen;
    this.userId = userId;
    this.onDeleted = onDeleted || (() => {});
    this.sessions = [];
    this.labels = new Map();
    this.list = h('ul', { class: 'sessions', 'aria-label': 'Sessions' });
    this.results = h('ul', { class: 'search-results', 'aria-label': 'Search results', 'aria-live': 'polite' });
    this.error = h('p', { class: 'error', role: 'alert' });
    this.search = h('input', { type: 'search', 'data-testid': 'session-search', 'aria-label': 'Search sessions',
      placeholder: 'Search (Enter: in messages too)', oninput: () => { clear(this.results); this.draw(); },
      onkeydown: (e) => { if (e.key === 'Enter') { e.preventDefault(); this.fullText(); } } });
    this.searchMode = h('select', { 'data-testid': 'search-mode', 'aria-label': 'Search mode',
      title: 'How Enter searches your messages', onchange: () => this.fullText() },
    h('option', { value: '' }, 'Auto'), h('option', { value: 'text' }, 'Words'),
    h('option', { value: 'semantic' }, 'Meaning'), h('option', { value: 'hybrid' }, 'Both'));
    // How the next new session starts: plan-first, a preset, a system prompt of its own (reset once it is made).
    this.planFirst = h('input', { type: 'checkbox', id: 'new-plan-first', 'data-testid': 'new-plan-first' });
    this.preset = presetSelect({ id: 'new-preset', 'data-testid': 'new-preset' });
    this.systemPrompt = h('textarea', { id: 'new-system-prompt', 'data-testid': 'new-system-prompt', rows: 3,
      maxlength: 16000, placeholder: 'empty: the installation\u2019s' });
    this.options = h('details', { class: 'new-options', 'data-testid': 'new-session-options' },
      h('summary', {}, 'New session options'),
      h('label', { class: 'check', for: 'new-plan-first',
        title: 'No tool runs before you approved the agent\u2019s plan' }, this.planFirst, ' Plan first'),
      h('label', { for: 'new-preset' }, 'Preset'), this.preset,
      h('label', { for: 'new-system-prompt' }, 'System prompt'), this.systemPrompt);
    clear(root).append(
      h('button', { type: 'button', 'data-testid': 'new-session', class: 'new-session',
        title: 'New session (Alt+N)', onclick: () => this.create() }, '+ New session'),
      this.options,
      h('div', { class: 'search-row' }, this.search, this.searchMode), this.error, this.results, this.list);
  }

  async refresh(selected) {
    this.selected = selected === undefined ? this.selected : selected;
    try {
      const [sessions, labels] = await Promise.all([api('GET', '/api/v1/sessions'),
        api('GET', '/api/v1/me/session-labels').catch(() => [])]);
      this.sessions = sessions;
      this.labels = new Map(labels.map((l) => [l.sessionId, l]));
      this.error.textContent = '';
      this.draw();
    } catch (e) {
      this.error.textContent = e.message;
    }
  }

  draw() {
    const words = this.search.value.trim().toLowerCase();
    const shown = this.sessions.filter((s) => !words || (s.title || 'untitled').toLowerCase().includes(words));
    const label = (s) => this.labels.get(s.id) || { pinned: false };
    const pinned = shown.filter((s) => label(s).pinned);
    const folders = new Map();
    for (const s of shown.filter((x) => !label(x).pinned && label(x).folder)) {
      const name = label(s).folder;
      folders.set(name, [...(folders.get(name) || []), s]);
    }
    const rest = shown.filter((s) => !label(s).pinned && !label(s).folder);
    clear(this.list);
    if (pinned.length) {
      this.list.append(h('li', { class: 'group', 'data-testid': 'pinned' }, h('span', { class: 'group-name' }, 'Pinned'),
        h('ul', {}, pinned.map((s) => this.entry(s, label(s))))));
    }
    for (const [name, inside] of [...folders.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      this.list.append(h('li', { class: 'group' }, h('details', { open: true, 'data-testid': 'folder',
        'data-folder': name }, h('summary', { class: 'group-name' }, name),
      h('ul', {}, inside.map((s) => this.entry(s, label(s)))))));
    }
    this.list.append(...rest.map((s) => this.entry(s, label(s))));
  }

  entry(s, label) {
    return h('li', { class: 'entry' },
      h('button', { type: 'button', class: `session ${s.status.toLowerCase()}`, 'data-session-id': s.id,
        'data-testid': 'session', 'aria-current': s.id === this.selected ? 'page' : undefined,
        onclick: () => this.onOpen(s.id) },
      h('span', { class: 'title' }, s.title || 'Untitled'),
      h('span', { class: 'status' }, s.status === 'AWAITING_APPROVAL' ? 'needs approval' : s.status.toLowerCase())),
      h('span', { class: 'entry-actions' },
        h('button', { type: 'button', class: 'small', 'data-testid': 'session-pin',
          'aria-label': `${label.pinned ? 'Unpin' : 'Pin'} ${s.title || 'Untitled'}`,
          onclick: () => this.label(s.id, { pinned: !label.pinned, folder: label.folder || null }) },
        label.pinned ? 'Unpin' : 'Pin'),
        h('button', { type: 'button', class: 'small', 'data-testid': 'session-folder',
          'aria-label': `Move ${s.title || 'Untitled'} to a folder`, onclick: () => {
            const folder = prompt('Folder (empty: none)', label.folder || '');
            if (folder !== null) {
              this.label(s.id, { pinned: label.pinned, folder: folder.trim() || null });
            }
          } }, 'Folder…'),
        h('button', { type: 'button', class: 'small', 'data-testid': 'session-rename',
          'aria-label': `Rename ${s.title || 'Untitled'}`, onclick: () => this.rename(s) }, 'Rename…'),
        // Only the owner may delete a session; a group member sees no button that would only answer 403.
        s.owner === this.userId ? h('button', { type: 'button', class: 'small danger', 'data-testid': 'session-delete',
          'aria-label': `Delete ${s.title || 'Untitled'}`, onclick: () => this.remove(s) }, 'Delete…') : null));
  }

  async remove(s) {
    if (!confirm(`Delete “${s.title || 'Untitled'}”? Its messages and files are removed for everyone it is shared `
        + 'with, and a running turn is stopped. This cannot be undone.')) {
      return;
    }
    try {
      await api('DELETE', `/api/v1/sessions/${encodeURIComponent(s.id)}`);
      // Gone from the list at once; the orchestrator records the deletion a moment later.
      this.sessions = this.sessions.filter((x) => x.id !== s.id);
      this.draw();
      this.onDeleted(s.id);
    } catch (e) {
      this.error.textContent = e.message;
    }
  }

  async rename(s) {
    const title = prompt('A new title', s.title || '');
    if (title === null || !title.trim()) {
      return;
    }
    try {
      await api('PUT', `/api/v1/sessions/${encodeURIComponent(s.id)}/title`, { title: title.trim() });
      // The rename is an input: the orchestrator records it a moment later, and the list shows it then.
      for (let i = 0; i < 25; i++) {
        await this.refresh();
        if (this.sessions.find((x) => x.id === s.id)?.title === title.trim()) {
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    } catch (e) {
      this.error.textContent = e.message;
    }
  }

  async label(id, label) {
    try {
      await api('PUT', `/api/v1/sessions/${encodeURIComponent(id)}/label`, label);
      await this.refresh();
    } catch (e) {
      this.error.textContent = e.message;
    }
  }

  async fullText() {
    const q = this.search.value.trim();
    if (!q) {
      return;
    }
    try {
      const mode = this.searchMode.value ? `&mode=${encodeURIComponent(this.searchMode.value)}` : '';
      const found = await api('GET', `/api/v1/search?q=${encodeURIComponent(q)}&limit=20${mode}`);
      this.error.textContent = '';
      // append() takes nodes, not an array: an array would be drawn as the text "[object HTMLLIElement]".
      clear(this.results).append(...(found.results.length ? found.results.map((r) => h('li', {},
        h('button', { type: 'button', class: 'search-hit', 'data-testid': 'search-hit',
          onclick: () => this.onOpen(r.sessionId) },
        h('span', { class: 'title' }, r.title || 'Untitled'),
        // The snippet marks the matched words with **: shown as text, never as markup.
        h('span', { class: 'snippet' }, r.snippet.replaceAll('**', ''))))) : [h('li', { class: 'none' },
        `No message matches “${q}”.`)]));
      this.results.dataset.mode = found.mode;
    } catch (e) {
      clear(this.results);
      this.error.textContent = e.message;
    }
  }

  /** A new session, with the options given (the /plan command) or else those chosen under "New session options". */
  async create(given) {
    const options = given || {
      planFirst: this.planFirst.checked || undefined,
      preset: this.preset.value || undefined,
      systemPrompt: this.systemPrompt.value.trim() ? this.systemPrompt.value : undefined,
    };
    try {
      const created = await api('POST', '/api/v1/sessions', { title: '', ...options });
      if (!given) {
        this.planFirst.checked = false;
        this.preset.value = '';
        this.systemPrompt.value = '';
      }
      await this.refresh(created.id);
      this.onOpen(created.id);
    } catch (e) {
      this.error.textContent = e.message;
    }
  }
}
