// The inbox (#/inbox, docs/api.md "Inbox"): tasks for later, or for now without staying connected. The scheduler
// starts each in a new session of yours at its time. Lists your tasks, submits one (now or at a time) and cancels one
// that has not started; the gateway's 400s (a time in the past, too far ahead) are shown as it words them.
import { api } from './api.js';
import { clear, h } from './dom.js';

export async function showInbox(root) {
  const list = h('ul', { class: 'inbox-tasks', 'data-testid': 'inbox-tasks', 'aria-live': 'polite' });
  const text = h('textarea', { id: 'inbox-text', 'data-testid': 'inbox-text', rows: 3, required: true,
    placeholder: 'generate the weekly report' });
  const title = h('input', { id: 'inbox-title', 'data-testid': 'inbox-title', maxlength: 200,
    placeholder: 'Inbox task' });
  const at = h('input', { id: 'inbox-at', 'data-testid': 'inbox-at', type: 'datetime-local',
    'aria-describedby': 'inbox-at-hint' });
  const error = h('p', { class: 'error', role: 'alert', 'data-testid': 'inbox-error' });
  const note = h('p', { role: 'status' });

  const draw = async () => {
    try {
      const tasks = await api('GET', '/api/v1/inbox');
      clear(list).append(...(tasks.length ? tasks.map((t) => h('li', { 'data-testid': 'inbox-task',
        'data-status': t.status, 'data-id': t.id },
      h('strong', {}, t.title || 'Inbox task'), ` — ${t.text.length > 120 ? `${t.text.slice(0, 120)}…` : t.text}`,
      h('span', { class: 'hint' }, t.status === 'started'
        ? ` · started ${new Date(t.startedAt).toLocaleString()} `
        : ` · queued for ${t.at ? new Date(t.at).toLocaleString() : 'now'} `),
      t.status === 'started' && t.sessionId ? h('a', { href: `#/s/${t.sessionId}` }, 'Open the session')
        : h('button', { type: 'button', class: 'danger', 'data-testid': 'inbox-cancel', onclick: async () => {
          try {
            await api('DELETE', `/api/v1/inbox/${encodeURIComponent(t.id)}`);
            error.textContent = '';
          } catch (e) {
            error.textContent = e.message;
          }
          draw();
        } }, 'Cancel'))) : [h('li', { class: 'hint' }, 'No tasks.')]));
    } catch (e) {
      error.textContent = e.message;
    }
  };

  const submit = async (e) => {
    e.preventDefault();
    const body = { text: text.value };
    if (title.value.trim()) {
      body.title = title.value.trim();
    }
    if (at.value) {
      // datetime-local has no zone; the gateway wants one: the browser's local time, sent as UTC.
      const when = new Date(at.value);
      body.at = Number.isNaN(when.getTime()) ? at.value : when.toISOString();
    }
    try {
      const made = await api('POST', '/api/v1/inbox', body);
      error.textContent = '';
      note.textContent = made.at ? `Queued for ${new Date(made.at).toLocaleString()}.` : 'Queued.';
      text.value = '';
      title.value = '';
      at.value = '';
    } catch (err) {
      note.textContent = '';
      error.textContent = err.message;
    }
    draw();
  };

  clear(root).append(h('section', { class: 'inbox-page', 'aria-labelledby': 'inbox-heading' },
    h('h1', { id: 'inbox-heading' }, 'Inbox'),
    h('p', { class: 'hint' }, 'A task the agent starts in a new session of yours, now or at a time, even when '
      + 'nobody is connected.'),
    h('form', { class: 'card', onsubmit: submit },
      h('label', { for: 'inbox-text' }, 'Task'), text,
      h('label', { for: 'inbox-title' }, 'Title (optional)'), title,
      h('label', { for: 'inbox-at' }, 'When (optional)'), at,
      h('p', { class: 'hint', id: 'inbox-at-hint' }, 'Empty: now. Your local time.'),
      h('p', {}, h('button', { type: 'submit', 'data-testid': 'inbox-submit' }, 'Submit')), error, note),
    h('h2', {}, 'Your tasks'), list,
    h('p', {}, h('button', { type: 'button', onclick: () => draw() }, 'Refresh'))));
  await draw();
}
