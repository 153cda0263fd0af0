// Your settings, each a card over one part of the API: your model server, your memory, API keys, two-factor login,
// your browser logins and your password. Nothing secret is ever shown again after it was made.
import { api } from './api.js';
import { samplingInputs, samplingOf, samplingRow, showSampling } from './context.js';
import { clear, h } from './dom.js';
import { showEnrolment } from './login.js';

export async function showSettings(root, me) {
  clear(root).append(h('div', { class: 'settings' },
    h('h1', {}, 'Settings'),
    await card('Model server', modelServer),
    await card('Memory', memory),
    await card('Notifications', notifications),
    await card('API keys', apiKeys),
    await card('Two-factor login', (body) => twoFactor(body, me)),
    await card('Your logins', logins),
    await card('Password', password)));
}

async function card(title, fill) {
  const body = h('div', {});
  const section = h('section', { class: 'card', 'aria-label': title }, h('h2', {}, title), body);
  try {
    await fill(body);
  } catch (e) {
    body.append(h('p', { class: 'error', role: 'alert' }, e.message));
  }
  return section;
}

function status(element, promise, done) {
  element.textContent = '';
  element.className = 'status';
  return promise.then((value) => {
    element.textContent = done;
    return value;
  }).catch((e) => {
    element.className = 'status error';
    element.textContent = e.message;
    throw e;
  });
}

async function modelServer(body) {
  const current = await api('GET', '/api/v1/me/model');
  const url = h('input', { id: 'model-url', 'data-testid': 'model-url', placeholder: 'https://api.example.com/v1',
    value: current.baseUrl || '' });
  const model = h('input', { id: 'model-name', 'data-testid': 'model-name', value: current.model || '' });
  const key = h('input', { id: 'model-key', type: 'password', autocomplete: 'off',
    placeholder: current.hasApiKey ? 'a key is set; leave empty to keep it' : 'none' });
  // Your sampling for every session that chooses none of its own; empty fields: the installation's.
  const sampling = samplingInputs('model');
  showSampling(sampling, current);
  const note = h('p', { role: 'status' });
  body.append(
    h('p', { class: 'hint' }, current.own ? 'Your sessions use your own model server.'
      : 'Your sessions use the team\u2019s model server. Set your own OpenAI-compatible server here.'),
    h('form', { onsubmit: (e) => {
      e.preventDefault();
      const change = { baseUrl: url.value, model: model.value, ...samplingOf(sampling) };
      if (key.value) {
        change.apiKey = key.value;
      }
      status(note, api('PUT', '/api/v1/me/model', change), 'Saved.').then(() => { key.value = ''; }, () => {});
    } },
    h('label', { for: 'model-url' }, 'API root'), url,
    h('label', { for: 'model-name' }, 'Model (empty: the server\u2019s first)'), model,
    h('label', { for: 'model-key' }, 'API key'), key,
    samplingRow('model', sampling),
    h('p', {}, h('button', { type: 'submit', 'data-testid': 'model-save' }, 'Save'), ' ',
      h('button', { type: 'button', onclick: () => status(note, api('DELETE', '/api/v1/me/model'),
        'Back to the team\u2019s server.').then(() => { url.value = ''; model.value = ''; }, () => {}) },
      'Use the team\u2019s'))),
    note);
}

async function memory(body) {
  const current = await api('GET', '/api/v1/memory');
  const text = h('textarea', { id: 'memory', rows: 6, 'data-testid': 'memory' });
  text.value = current.content || '';
  const note = h('p', { role: 'status' });
  body.append(h('p', { class: 'hint' }, 'What the agent remembers about you in every session.'),
    h('form', { onsubmit: (e) => {
      e.preventDefault();
      status(note, api('PUT', '/api/v1/memory', { content: text.value }), 'Saved.').catch(() => {});
    } }, text, h('p', {}, h('button', { type: 'submit' }, 'Save'), ' ',
      h('button', { type: 'button', onclick: () => status(note, api('DELETE', '/api/v1/memory'), 'Reset.')
        .then((m) => { text.value = m.content || ''; }, () => {}) }, 'Reset'))), note);
}

const NOTIFICATION_KINDS = [
  ['turn_ended', 'a turn ended'],
  ['approval_pending', 'a call waits for your approval'],
  ['message', 'a notification sent in a session (the agent, or a program in the sandbox)'],
  ['wait_fired', 'a wait of the agent came to its time'],
];

/** Which kinds notify you, and a webhook they are also POSTed to, with how it fares. */
async function notifications(body) {
  const current = await api('GET', '/api/v1/me/notification-settings');
  const boxes = NOTIFICATION_KINDS.map(([kind, what]) => {
    const box = h('input', { type: 'checkbox', id: `notify-${kind}`, value: kind, 'data-testid': 'notification-kind',
      'data-kind': kind, checked: (current.on || []).includes(kind) });
    return h('label', { class: 'check', for: `notify-${kind}` }, box, ` ${what}`);
  });
  const url = h('input', { id: 'notify-webhook', type: 'url', 'data-testid': 'notification-webhook',
    placeholder: 'https://hooks.example.com/agentbus', value: current.webhookUrl || '' });
  const health = h('p', { 'data-testid': 'webhook-status' });
  const showHealth = (s) => {
    clear(health).append(...[s.webhookError ? h('span', { class: 'error', 'data-testid': 'webhook-error' },
      `The webhook failed${s.webhookErrorAt ? ` at ${new Date(s.webhookErrorAt).toLocaleString()}` : ''}: `
        + `${s.webhookError}`) : null,
    s.webhookOkAt ? h('span', { class: 'hint' }, ` Last delivered ${new Date(s.webhookOkAt).toLocaleString()}.`)
      : null].filter(Boolean));
  };
  showHealth(current);
  const note = h('p', { role: 'status' });
  body.append(h('p', { class: 'hint' }, 'The bell in the header shows them; a webhook also gets each one as JSON.'),
    h('form', { onsubmit: (e) => {
      e.preventDefault();
      const on = boxes.map((l) => l.querySelector('input')).filter((b) => b.checked).map((b) => b.value);
      status(note, api('PUT', '/api/v1/me/notification-settings', { on, webhookUrl: url.value.trim() || null }),
        'Saved.').then(showHealth, () => {});
    } },
    h('fieldset', {}, h('legend', {}, 'Notify me when'), boxes),
    h('label', { for: 'notify-webhook' }, 'Webhook URL (optional)'), url,
    h('p', {}, h('button', { type: 'submit', 'data-testid': 'notification-save' }, 'Save'))),
    note, health);
}

async function apiKeys(body) {
  const list = h('ul', { class: 'keys' });
  const shown = h('p', { role: 'status' });
  const draw = async () => {
    const keys = await api('GET', '/api/v1/me/api-keys');
    clear(list).append(...keys.filter((k) => !k.revokedAt).map((k) => h('li', { 'data-testid': 'api-key' },
      h('strong', {}, k.name), ` made ${new Date(k.createdAt).toLocaleString()}`,
      k.lastUsedAt ? `, last used ${new Date(k.lastUsedAt).toLocaleString()}` : ', never used', ' ',
      h('button', { type: 'button', onclick: async () => { await api('DELETE', `/api/v1/me/api-keys/${k.id}`); draw(); } },
        'Revoke'))));
  };
  const name = h('input', { id: 'key-name', 'data-testid': 'api-key-name', placeholder: 'laptop CLI' });
  body.append(list, h('form', { onsubmit: async (e) => {
    e.preventDefault();
    try {
      const made = await api('POST', '/api/v1/me/api-keys', { name: name.value });
      clear(shown).append('Copy it now, it is not shown again: ', h('code', { 'data-testid': 'api-key-value' }, made.key));
      name.value = '';
      draw();
    } catch (err) {
      shown.textContent = err.message;
    }
  } }, h('label', { for: 'key-name' }, 'New key\u2019s name'), name,
  h('p', {}, h('button', { type: 'submit', 'data-testid': 'api-key-create' }, 'Make a key'))), shown);
  await draw();
}

async function twoFactor(body, me) {
  if (me.totpEnabled) {
    body.append(h('p', {}, 'On: every login asks for a code from your authenticator app.'));
    return;
  }
  const area = h('div', {});
  body.append(h('p', {}, 'Off.'), h('button', { type: 'button', 'data-testid': 'totp-enrol',
    onclick: () => showEnrolment(area, () => { clear(area).append(h('p', {}, 'On from your next login.')); }) },
  'Turn on'), area);
}

async function logins(body) {
  const list = h('ul', { class: 'logins' });
  const draw = async () => {
    const all = await api('GET', '/api/v1/me/logins');
    clear(list).append(...all.map((l) => h('li', { 'data-testid': 'login' },
      `${l.userAgent || 'unknown browser'} from ${l.address || '?'}, since ${new Date(l.createdAt).toLocaleString()}`,
      l.current ? h('strong', {}, ' (this one)') : h('button', { type: 'button', onclick: async () => {
        await api('DELETE', `/api/v1/me/logins/${l.loginId}`);
        draw();
      } }, 'Log out there'))));
  };
  body.append(list);
  await draw();
}

async function password(body) {
  const current = h('input', { id: 'pw-current', type: 'password', autocomplete: 'current-password' });
  const fresh = h('input', { id: 'pw-new', type: 'password', autocomplete: 'new-password' });
  const note = h('p', { role: 'status' });
  body.append(h('form', { onsubmit: (e) => {
    e.preventDefault();
    status(note, api('POST', '/api/v1/me/password', { current: current.value, password: fresh.value }),
      'Changed.').then(() => { current.value = ''; fresh.value = ''; }, () => {});
  } }, h('label', { for: 'pw-current' }, 'Current password'), current,
  h('label', { for: 'pw-new' }, 'New password (at least 12 characters)'), fresh,
  h('p', {}, h('button', { type: 'submit' }, 'Change'))), note);
}
