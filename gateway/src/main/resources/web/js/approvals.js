// Approvals: a call the session's permission mode holds for a person (docs/api.md "Permission modes and
// approvals"). The same controls in the chat's tool card and on the Approvals page, which lists what waits in every
// session you can act in. Approve runs the call once; Always also lets every later call of that tool in the session
// run; Deny tells the model no, with your note. A decision is recorded once: a second one is refused by the log.
import { api } from './api.js';
import { clear, h } from './dom.js';

/** The buttons that decide one pending call; {@code onDecided} runs after the gateway took the decision. */
export function approvalControls(sessionId, approval, onDecided) {
  const note = h('input', { type: 'text', placeholder: 'A note for the agent (optional)', 'aria-label': 'Note',
    'data-testid': 'approval-note', maxlength: 2000 });
  const error = h('p', { class: 'error', role: 'alert' });
  const decide = async (decision) => {
    try {
      await api('POST', `/api/v1/sessions/${encodeURIComponent(sessionId)}/approvals/`
        + `${encodeURIComponent(approval.callId)}`, { decision, note: note.value.trim() || undefined });
      onDecided(decision);
    } catch (e) {
      error.textContent = e.message;
    }
  };
  return h('div', { class: 'approval', 'data-testid': 'approval', 'data-call-id': approval.callId },
    h('p', {}, h('strong', {}, `Needs your approval (${(approval.risk || '').toLowerCase()} risk)`),
      approval.reason ? `: ${approval.reason}` : '',
      approval.expiresAt ? h('span', { class: 'hint' }, ` — denied by itself at ${new Date(approval.expiresAt)
        .toLocaleTimeString()}`) : null),
    note,
    h('div', { class: 'approval-actions' },
      h('button', { type: 'button', 'data-testid': 'approval-approve', onclick: () => decide('approve') }, 'Approve'),
      h('button', { type: 'button', 'data-testid': 'approval-always', onclick: () => decide('always') },
        `Always allow ${approval.tool || 'this tool'}`),
      h('button', { type: 'button', 'data-testid': 'approval-deny', class: 'danger', onclick: () => decide('deny') },
        'Deny')),
    error);
}

/** The Approvals page: every pending approval of the sessions you can see, oldest session first. */
export async function showApprovals(root) {
  const list = h('ul', { class: 'approvals', 'data-testid': 'approvals' });
  clear(root).append(h('section', { class: 'approvals-page' }, h('h2', {}, 'Waiting for your approval'), list));
  try {
    const sessions = (await api('GET', '/api/v1/sessions')).filter((s) => s.status === 'AWAITING_APPROVAL');
    for (const summary of sessions) {
      const state = await api('GET', `/api/v1/sessions/${encodeURIComponent(summary.id)}`);
      for (const approval of state.pendingApprovals || []) {
        const title = h('p', {}, h('a', { href: `#/s/${summary.id}` }, summary.title || 'Untitled'), ': ',
          h('code', {}, approval.tool));
        const item = h('li', { 'data-testid': 'pending-approval' }, title,
          h('pre', { class: 'arguments' }, approval.arguments),
          // The decision reaches the session through the log a moment later: shown here at once, not re-read.
          approvalControls(summary.id, approval, (decision) => item.replaceWith(h('li',
            { 'data-testid': 'decided-approval' }, title, `Sent: ${decision}.`))));
        list.append(item);
      }
    }
    if (!list.children.length) {
      list.append(h('li', { class: 'hint' }, 'Nothing waits for you.'));
    }
  } catch (e) {
    list.append(h('li', { class: 'error' }, e.message));
  }
}
