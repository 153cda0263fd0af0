// For admins: the team's users (role, password reset), invites, and the rule that everyone logs in with two factors.
import { api } from './api.js';
import { clear, h } from './dom.js';

export async function showAdmin(root) {
  const users = h('tbody', {});
  const invite = h('p', { role: 'status', 'data-testid': 'invite-result' });
  const note = h('p', { role: 'status' });
  const role = h('select', { id: 'invite-role', 'aria-label': 'Role of the invited person' },
    h('option', { value: 'user' }, 'user'), h('option', { value: 'admin' }, 'admin'));
  const requireTotp = h('input', { type: 'checkbox', id: 'require-totp' });
  const draw = async () => {
    const all = await api('GET', '/api/v1/admin/users');
    clear(users).append(...all.map((u) => h('tr', { 'data-testid': 'user-row' },
      h('td', {}, u.username), h('td', {}, u.role), h('td', {}, u.totpEnabled ? 'on' : 'off'),
      h('td', {}, (u.groups || []).join(', ')),
      h('td', {},
        h('button', { type: 'button', onclick: () => change(note, api('PUT', `/api/v1/admin/users/${u.userId}/role`,
          { role: u.role === 'admin' ? 'user' : 'admin' }), draw) }, u.role === 'admin' ? 'Make user' : 'Make admin'),
        ' ',
        h('button', { type: 'button', onclick: () => {
          const password = prompt(`A new password for ${u.username} (at least 12 characters); their logins end.`);
          if (password) {
            change(note, api('POST', `/api/v1/admin/users/${u.userId}/password`, { password }), draw);
          }
        } }, 'Reset password')))));
    requireTotp.checked = (await api('GET', '/api/v1/admin/settings')).requireTotp;
  };
  clear(root).append(h('div', { class: 'settings' }, h('h1', {}, 'Team'),
    h('section', { class: 'card' }, h('h2', {}, 'Users'),
      h('table', {}, h('thead', {}, h('tr', {}, h('th', {}, 'User'), h('th', {}, 'Role'), h('th', {}, 'Two-factor'),
        h('th', {}, 'Groups'), h('th', {}, ''))), users), note),
    h('section', { class: 'card' }, h('h2', {}, 'Invite someone'),
      h('p', {}, h('label', { for: 'invite-role' }, 'Role'), role),
      h('button', { type: 'button', 'data-testid': 'invite-create', onclick: async () => {
        try {
          const made = await api('POST', '/api/v1/admin/invites', { role: role.value });
          clear(invite).append('Send this code (it works once, until ',
            new Date(made.expiresAt).toLocaleString(), '): ', h('code', {}, made.code));
        } catch (e) {
          invite.textContent = e.message;
        }
      } }, 'Make an invite'), invite),
    h('section', { class: 'card' }, h('h2', {}, 'Rules'),
      h('p', {}, h('label', { for: 'require-totp' }, requireTotp, ' Everyone logs in with two-factor login')),
      h('button', { type: 'button', onclick: () => change(note,
        api('PUT', '/api/v1/admin/settings', { requireTotp: requireTotp.checked }), draw) }, 'Save'))));
  await draw();
}

function change(note, promise, then) {
  note.textContent = '';
  return promise.then(() => then(), (e) => { note.textContent = e.message; });
}
