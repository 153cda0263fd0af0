// The session's workspace: the file tree (directories open on demand), a preview of the chosen file (text,
// markdown, images), download, delete, upload by dropping or pasting files onto the panel, and the changes: every
// call that changed files, newest first, with its diff and its checkpoint, and Rewind to put the files back as they
// were after it. Every look and every change is a person's tool call in the session's log, like the agent's own, so
// it waits for the turn to end.
import { api, upload } from './api.js';
import { clear, h } from './dom.js';
import { renderMarkdown } from './markdown.js';

const IMAGE = /\.(png|jpe?g|gif|webp|svg)$/i;

export class FilesView {
  constructor(root) {
    this.root = root;
  }

  open(sessionId) {
    this.sessionId = sessionId;
    this.base = `/api/v1/sessions/${encodeURIComponent(sessionId)}`;
    this.tree = h('ul', { class: 'file-tree', 'data-testid': 'file-tree', role: 'tree', 'aria-label': 'Files' });
    this.preview = h('section', { class: 'preview', 'aria-label': 'Preview', 'data-testid': 'file-preview' },
      h('p', { class: 'hint' }, 'Pick a file to see it here.'));
    this.note = h('p', { role: 'status', class: 'status' });
    const drop = h('div', { class: 'files', 'data-testid': 'file-drop', tabindex: 0,
      'aria-label': 'Files: drop or paste files here to upload them',
      ondragover: (e) => { e.preventDefault(); drop.classList.add('dragging'); },
      ondragleave: () => drop.classList.remove('dragging'),
      ondrop: (e) => { e.preventDefault(); drop.classList.remove('dragging'); this.uploadAll(e.dataTransfer.files); },
      onpaste: (e) => { if (e.clipboardData.files.length) { e.preventDefault(); this.uploadAll(e.clipboardData.files); } } },
    h('div', { class: 'files-bar' },
      h('button', { type: 'button', onclick: () => this.refresh() }, 'Refresh'),
      h('label', { class: 'upload' }, 'Upload…', h('input', { type: 'file', multiple: true, 'data-testid': 'file-input',
        onchange: (e) => this.uploadAll(e.target.files) })),
      this.note),
    h('div', { class: 'files-panes' }, h('div', { class: 'tree-pane' }, this.tree), this.preview),
    this.changes = h('section', { class: 'changes', 'aria-label': 'Changes', 'data-testid': 'changes' }));
    clear(this.root).append(drop);
    this.refresh();
  }

  async refresh() {
    clear(this.tree);
    await this.fill(this.tree, '.');
    await this.listChanges();
  }

  /** The calls that changed files (they carry a checkpoint), newest first: what changed, and the way back. */
  async listChanges() {
    clear(this.changes).append(h('h2', {}, 'Changes'));
    let state;
    try {
      state = await api('GET', this.base);
    } catch (e) {
      this.changes.append(h('p', { class: 'error' }, e.message));
      return;
    }
    const changed = Object.values(state.toolCalls || {}).filter((c) => c.checkpoint).reverse();
    if (!changed.length) {
      this.changes.append(h('p', { class: 'hint' }, 'No file has changed yet.'));
      return;
    }
    for (const call of changed) {
      const summary = h('summary', {}, `${call.byUser ? 'you' : 'agent'}: ${call.name} `,
        h('code', {}, call.checkpoint.slice(0, 12)));
      const body = h('div', {});
      if (call.diff) {
        body.append(h('pre', { class: 'diff' }, call.diff));
      } else if (call.output) {
        body.append(h('p', {}, call.output));
      }
      body.append(h('button', { type: 'button', 'data-testid': 'rewind', onclick: () => this.rewind(call.checkpoint) },
        'Rewind to here'));
      this.changes.append(h('details', { class: 'change', 'data-testid': 'change' }, summary, body));
    }
  }

  async rewind(checkpoint) {
    if (!confirm(`Put every file back as it was at checkpoint ${checkpoint.slice(0, 12)}? `
        + 'Later changes stay in the log and can be rewound to as well.')) {
      return;
    }
    try {
      const done = await api('POST', `${this.base}/rewind`, { checkpoint });
      this.note.textContent = done.output;
      clear(this.preview).append(h('p', { class: 'hint' }, 'Pick a file to see it here.'));
      await this.refresh();
    } catch (e) {
      this.note.textContent = e.message;
    }
  }

  async fill(list, path) {
    try {
      const listing = await api('GET', `${this.base}/workspace/list?path=${encodeURIComponent(path)}`);
      this.note.textContent = listing.truncated ? 'The listing was cut short.' : '';
      const entries = [...listing.entries].sort((a, b) => (b.type === 'directory') - (a.type === 'directory')
        || a.name.localeCompare(b.name));
      if (!entries.length && path === '.') {
        list.append(h('li', { class: 'hint' }, 'No files yet. Drop some here.'));
      }
      for (const entry of entries) {
        const full = path === '.' ? entry.name : `${path}/${entry.name}`;
        list.append(entry.type === 'directory' ? this.directory(full, entry.name) : this.file(full, entry));
      }
    } catch (e) {
      this.note.textContent = e.message;
    }
  }

  directory(path, name) {
    const children = h('ul', { role: 'group' });
    const item = h('li', { role: 'treeitem', 'aria-expanded': 'false' });
    item.append(h('button', { type: 'button', class: 'dir', onclick: async () => {
      const open = item.getAttribute('aria-expanded') === 'true';
      item.setAttribute('aria-expanded', String(!open));
      clear(children);
      if (!open) {
        await this.fill(children, path);
      }
    } }, `${name}/`), children);
    return item;
  }

  file(path, entry) {
    return h('li', { role: 'treeitem' }, h('button', { type: 'button', class: 'file', 'data-testid': 'file',
      'data-path': path, onclick: () => this.show(path) }, entry.type === 'link' ? `${entry.name} → ${entry.target}`
      : entry.name));
  }

  async show(path) {
    const download = h('a', { href: `${this.base}/files/${path.split('/').map(encodeURIComponent).join('/')}`,
      download: path.split('/').pop(), 'data-testid': 'file-download' }, 'Download');
    const remove = h('button', { type: 'button', 'data-testid': 'file-delete', onclick: () => this.remove(path) },
      'Delete');
    clear(this.preview).append(h('h2', {}, path, ' ', download, ' ', remove));
    try {
      if (IMAGE.test(path)) {
        // A data: URL, because the Content-Security-Policy allows images from this origin and data: only.
        const response = await fetch(download.href, { credentials: 'same-origin' });
        const blob = await response.blob();
        const url = await new Promise((resolve) => {
          const reader = new FileReader();
          reader.onload = () => resolve(reader.result);
          reader.readAsDataURL(blob);
        });
        this.preview.append(h('img', { src: url, alt: path, class: 'image' }));
        return;
      }
      const file = await api('GET', `${this.base}/workspace/file?path=${encodeURIComponent(path)}`);
      if (/\.md$/i.test(path)) {
        const body = h('div', { class: 'markdown' });
        renderMarkdown(body, file.content);
        this.preview.append(body);
      } else {
        this.preview.append(h('pre', { class: 'file-content' }, file.content));
      }
    } catch (e) {
      this.preview.append(h('p', { class: 'error', role: 'alert' }, e.message));
    }
  }

  async remove(path) {
    if (!confirm(`Delete ${path}? A backup is kept, and Rewind brings it back.`)) {
      return;
    }
    try {
      const done = await api('DELETE', `${this.base}/workspace/file?path=${encodeURIComponent(path)}`);
      this.note.textContent = done.result;
      clear(this.preview).append(h('p', { class: 'hint' }, 'Pick a file to see it here.'));
      await this.refresh();
    } catch (e) {
      this.note.textContent = e.message;
    }
  }

  async uploadAll(files) {
    for (const file of files) {
      this.note.textContent = `Uploading ${file.name}…`;
      try {
        await upload(`${this.base}/files/${encodeURIComponent(file.name)}`, file);
        this.note.textContent = `Uploaded ${file.name}.`;
      } catch (e) {
        this.note.textContent = `${file.name}: ${e.message}`;
        return;
      }
    }
    this.refresh();
  }
}
