// The Share tab: export the session (Markdown, or the raw event log as JSONL) and read-only links to it. A new link
// is shown once (only its hash is kept); anyone with it sees the conversation as it is now, and nothing else, until
// it is revoked. The link's token is in the address's fragment, which browsers never send to a server.
import { api } from './api.js';
import { clear, h } from './dom.js';

export class ShareView {
  constructor(root) {
    this.root = root;
  }

  open(sessionId) {
    this.base = `/api/v1/sessions/${encodeURIComponent(sessionId)}`;
    this.created = h('div', { role: 'status' });
    this.links = h('ul', { class: 'share-links', 'data-testid': 'share-links' });
    clear(this.root).append(h('section', { class: 'share' },
      h('h2', {}, 'Export'),
      h('p', {},
        h('a', { href: `${this.base}/export.md`, download: '', 'data-testid': 'export-markdown' }, 'Markdown'),
        ' · ',
        h('a', { href: `${this.base}/export`, download: '', 'data-testid': 'export-jsonl' }, 'Event log (JSONL)'),
        ' — the log imports into any Agentbus (Import in the API, or agentbus import).'),
      h('h2', {}, 'Read-only links'),
      h('p', { class: 'hint' }, 'Anyone with a link sees this conversation as it is now: no files, no log, no way '
        + 'to act. Revoke a link to end it at once.'),
      h('button', { type: 'button', 'data-testid': 'share-create', onclick: () => this.create() }, 'Make a link'),
      this.created, this.links,
      h('h2', {}, 'Your groups'),
      h('p', { class: 'hint' }, 'Members of a group see the session (read) or also work in it (write). Only the '
        + 'session\'s owner shares it; an admin makes the groups.'),
      this.groupShares = h('ul', { class: 'share-links', 'data-testid': 'group-shares' }),
      h('p', {}, this.groupId = h('input', { type: 'text', placeholder: 'group', 'aria-label': 'Group',
        'data-testid': 'share-group' }), ' ',
      this.groupMode = h('select', { 'aria-label': 'Access', 'data-testid': 'share-group-mode' },
        h('option', { value: 'read' }, 'read'), h('option', { value: 'write' }, 'write')), ' ',
      h('button', { type: 'button', 'data-testid': 'share-group-add', onclick: () => this.shareWith() }, 'Share'))));
    this.list();
    this.listGroups();
  }

  async listGroups() {
    clear(this.groupShares);
    try {
      for (const share of await api('GET', `${this.base}/shares`)) {
        this.groupShares.append(h('li', { 'data-testid': 'group-share' }, `${share.groupId}: ${share.mode} `,
          h('button', { type: 'button', onclick: async () => {
            await api('DELETE', `${this.base}/shares/${encodeURIComponent(share.groupId)}`);
            this.listGroups();
          } }, 'Stop sharing')));
      }
    } catch (e) {
      // Only the owner lists shares; a session shared with you shows nothing here.
      this.groupShares.append(h('li', { class: 'hint' }, e.message));
    }
  }

  async shareWith() {
    try {
      await api('PUT', `${this.base}/shares/${encodeURIComponent(this.groupId.value.trim())}`,
        { mode: this.groupMode.value });
      this.groupId.value = '';
      this.listGroups();
    } catch (e) {
      clear(this.created).append(h('p', { class: 'error', role: 'alert' }, e.message));
    }
  }

  async create() {
    try {
      const link = await api('POST', `${this.base}/share-links`);
      const url = `${location.origin}${link.path}`;
      clear(this.created).append(h('p', {}, 'The new link, shown this once: ',
        h('input', { type: 'text', readonly: true, value: url, size: 60, 'data-testid': 'share-url',
          'aria-label': 'The new share link', onfocus: (e) => e.target.select() })));
      this.list();
    } catch (e) {
      clear(this.created).append(h('p', { class: 'error', role: 'alert' }, e.message));
    }
  }

  async list() {
    clear(this.links);
    try {
      for (const link of await api('GET', `${this.base}/share-links`)) {
        const when = new Date(link.createdAt).toLocaleString();
        this.links.append(h('li', { 'data-testid': 'share-link' }, `made ${when} by ${link.createdBy}`,
          link.revokedAt ? ` — revoked ${new Date(link.revokedAt).toLocaleString()}`
            : h('button', { type: 'button', 'data-testid': 'share-revoke', onclick: async () => {
              await api('DELETE', `${this.base}/share-links/${encodeURIComponent(link.linkId)}`);
              this.list();
            } }, 'Revoke')));
      }
    } catch (e) {
      this.links.append(h('li', { class: 'error' }, e.message));
    }
  }
}
