// For admins: the team's users (role, password reset), groups and their members (sessions are shared with a group),
// invites, and the rule that everyone logs in with two factors.
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
    const people = all.map((u) => u);
    clear(groups).append(...(await api('GET', '/api/v1/admin/groups')).map((g) => {
      const who = h('select', { 'aria-label': `A user to add to ${g.groupId}` },
        people.filter((u) => !(g.members || []).includes(u.userId))
          .map((u) => h('option', { value: u.userId }, u.username)));
      const base = `/api/v1/admin/groups/${encodeURIComponent(g.groupId)}`;
      return h('li', { 'data-testid': 'group', 'data-group': g.groupId }, h('strong', {}, g.groupId), ': ',
        (g.members || []).length ? (g.members || []).map((m) => h('span', { class: 'member' },
          people.find((u) => u.userId === m)?.username || m, ' ',
          h('button', { type: 'button', class: 'small', 'aria-label': `Remove ${m} from ${g.groupId}`,
            onclick: () => change(note, api('DELETE', `${base}/members/${encodeURIComponent(m)}`), draw) }, '×'),
          ' ')) : 'no members yet ',
        who, h('button', { type: 'button', 'data-testid': 'group-add-member', onclick: () => who.value
          && change(note, api('PUT', `${base}/members/${encodeURIComponent(who.value)}`), draw) }, 'Add'), ' ',
        h('button', { type: 'button', class: 'danger', onclick: () => confirm(`Delete the group ${g.groupId}? `
          + 'Its shares end.') && change(note, api('DELETE', base), draw) }, 'Delete group'));
    }));
  };
  const groups = h('ul', { class: 'groups', 'data-testid': 'groups' });
  const groupId = h('input', { type: 'text', id: 'group-id', placeholder: 'e.g. backend-team',
    'data-testid': 'group-id', pattern: '[a-z0-9._-]{1,64}' });
  clear(root).append(h('div', { class: 'settings' }, h('h1', {}, 'Team'),
    h('section', { class: 'card' }, h('h2', {}, 'Users'),
      h('table', {}, h('thead', {}, h('tr', {}, h('th', {}, 'User'), h('th', {}, 'Role'), h('th', {}, 'Two-factor'),
        h('th', {}, 'Groups'), h('th', {}, ''))), users), note),
    h('section', { class: 'card' }, h('h2', {}, 'Groups'),
      h('p', { class: 'hint' }, 'A session\'s owner shares it with a group (the Share tab), for reading or writing.'),
      groups,
      h('p', {}, h('label', { for: 'group-id' }, 'New group '), groupId, ' ',
        h('button', { type: 'button', 'data-testid': 'group-create', onclick: () => change(note,
          api('POST', '/api/v1/admin/groups', { groupId: groupId.value }), () => { groupId.value = ''; return draw(); }) },
        'Make a group'))),
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
