// The page behind a read-only share link (share.html#<token>): the conversation as Markdown, rendered and sanitised
// like the chat. No login; the token in the fragment is the only credential and never leaves this page except to
// the one API call that shows it.
import { clear, h } from './dom.js';
import { renderMarkdown } from './markdown.js';

const root = document.getElementById('app');
const token = location.hash.slice(1);

async function show() {
  if (!token) {
    clear(root).append(h('p', { class: 'error', role: 'alert' }, 'This address has no share link in it.'));
    return;
  }
  const response = await fetch(`/api/v1/shared/${encodeURIComponent(token)}`, { credentials: 'omit' });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    clear(root).append(h('p', { class: 'error', role: 'alert', 'data-testid': 'shared-error' },
      body.message || `The link did not open (${response.status}).`));
    return;
  }
  document.title = `${body.title} — Agentbus`;
  const article = h('article', { class: 'markdown shared', 'data-testid': 'shared-session' });
  renderMarkdown(article, body.markdown);
  clear(root).append(h('p', { class: 'hint' }, `A read-only copy, as of ${new Date(body.updatedAt).toLocaleString()}.`),
    article);
}

show();
