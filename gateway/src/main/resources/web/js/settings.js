// Your settings, each a card over one part of the API: your model server, your memory, what Agentbus learned about
// you, your own MCP servers, API keys, two-factor login, your browser logins and your password. Nothing secret is
// ever shown again after it was made.
import { api, apiText } from './api.js';
import { samplingInputs, samplingOf, samplingRow, showSampling } from './context.js';
import { clear, h } from './dom.js';
import { showEnrolment } from './login.js';

export async function showSettings(root, me) {
  clear(root).append(h('div', { class: 'settings' },
    h('h1', {}, 'Settings'),
    await card('Model server', modelServer),
    await card('Memory', memory),
    await card('What Agentbus learned about you', insights),
    await card('Your MCP servers', mcpServers),
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
    placeholder: current.hasApiKey ? 'a key is set; leave empty to keep it (a new API root needs it again)' : 'none' });
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

/**
 * The insights the memory-service keeps about you (docs/memory.md), best score first, each with its marks and the
 * changes the API allows. Every change is answered once applied, so the list is read again after each.
 */
async function insights(body) {
  const list = h('ul', { class: 'insights', 'data-testid': 'insights' });
  const empty = h('p', { class: 'hint', 'data-testid': 'insights-empty', hidden: true },
    'Nothing learned yet. Insights are learned from your finished turns when the installation has distillation on, '
      + 'and the agent can keep one itself with its manage_memory tool.');
  const note = h('p', { role: 'status', 'data-testid': 'insights-status' });
  const draw = (answer) => {
    const all = (answer && answer.insights) || [];
    clear(list).append(...all.map(row));
    empty.hidden = all.length > 0;
  };
  const reload = async () => draw(await api('GET', '/api/v1/memory/insights'));
  // One change: its outcome in the status line, then the list as it is now (or the API's message, if it refused).
  const change = (promise, done) => status(note, promise, done).then(reload).catch(() => {});
  const edit = (id, fields, done) => change(api('PUT', `/api/v1/memory/insights/${encodeURIComponent(id)}`, fields),
    done);
  const row = (i) => {
    const text = h('span', { class: 'insight-text', 'data-testid': 'insight-text' }, i.text);
    const marks = [i.pinned && 'pinned', i.disabled && 'disabled', i.protected && 'protected'].filter(Boolean)
      .map((m) => h('span', { class: `mark ${m}`, 'data-testid': 'insight-mark', 'data-mark': m }, m));
    const meta = h('span', { class: 'insight-meta' },
      `${i.category} \u00b7 ${i.origin} \u00b7 score ${Number(i.score).toFixed(2)}`, ...marks);
    const button = (label, testid, onclick) => h('button', { type: 'button', 'data-testid': testid, onclick }, label);
    const actions = h('span', { class: 'insight-actions' },
      button(i.pinned ? 'Unpin' : 'Pin', 'insight-pin', () => edit(i.id, { pinned: !i.pinned },
        i.pinned ? 'Unpinned.' : 'Pinned.')),
      button(i.disabled ? 'Enable' : 'Disable', 'insight-disable', () => edit(i.id, { disabled: !i.disabled },
        i.disabled ? 'Enabled.' : 'Disabled.')),
      button(i.protected ? 'Unprotect' : 'Protect', 'insight-protect', () => edit(i.id, { protected: !i.protected },
        i.protected ? 'Unprotected.' : 'Protected.')),
      button('Edit', 'insight-edit', () => {
        const input = h('input', { 'data-testid': 'insight-edit-text', value: i.text, maxlength: 500,
          'aria-label': 'The insight\u2019s text' });
        text.replaceWith(h('form', { class: 'insight-edit', onsubmit: (e) => {
          e.preventDefault();
          edit(i.id, { text: input.value }, 'Saved.');
        } }, input, h('button', { type: 'submit', 'data-testid': 'insight-edit-save' }, 'Save'), ' ',
        h('button', { type: 'button', onclick: () => reload().catch(() => {}) }, 'Cancel')));
        input.focus();
      }),
      button('Delete', 'insight-delete', () => change(api('DELETE',
        `/api/v1/memory/insights/${encodeURIComponent(i.id)}`), 'Deleted.')));
    return h('li', { class: `insight${i.disabled ? ' disabled' : ''}`, 'data-testid': 'insight', 'data-id': i.id,
      'data-pinned': String(!!i.pinned), 'data-disabled': String(!!i.disabled),
      'data-protected': String(!!i.protected) }, text, meta, actions);
  };
  const refine = h('button', { type: 'button', 'data-testid': 'insights-refine', onclick: async () => {
    refine.disabled = true;
    try {
      // The model merges duplicates; the gateway waits up to a minute, then answers 202 and it applies later.
      const refined = status(note, api('POST', '/api/v1/memory/insights/refine', { waitSeconds: 60 }), 'Refined.');
      note.textContent = 'Refining\u2026 the model may take up to a minute.';
      const answer = await refined;
      if (answer && answer.insights) {
        draw(answer);
      } else if (answer && answer.message) {
        note.textContent = answer.message;
      }
    } catch {
      // status() shows the API's message.
    } finally {
      refine.disabled = false;
    }
  } }, 'Refine');
  body.append(h('p', { class: 'hint' }, 'Facts the agent is given about you, best score first. A pinned one never '
      + 'fades; a disabled one is kept but not given; a protected one is never changed by the agent or by Refine. '
      + 'Refine asks the model to merge duplicates.'),
  list, empty,
  h('p', {}, refine, ' ', h('button', { type: 'button', 'data-testid': 'insights-clear', onclick: () => {
    if (confirm('Delete everything Agentbus learned about you?')) {
      change(api('DELETE', '/api/v1/memory/insights'), 'All deleted.');
    }
  } }, 'Clear all')), note);
  await reload();
}

/**
 * Your own MCP servers, in every session you own (docs/tools.md, "Per user"): the {"mcpServers": {...}} JSON as the
 * API shows it, edited as text and sent as typed, so the API's parser judges it and its message says what is wrong.
 */
async function mcpServers(body) {
  const text = h('textarea', { id: 'mcp-servers', rows: 10, spellcheck: 'false', class: 'code',
    'data-testid': 'mcp-servers' });
  const state = h('p', { class: 'hint', 'data-testid': 'mcp-servers-state' });
  const note = h('p', { role: 'status', 'data-testid': 'mcp-servers-status' });
  const show = (c) => {
    text.value = JSON.stringify({ mcpServers: c.mcpServers || {} }, null, 2);
    state.textContent = c.own
      ? `Version ${c.version}, saved ${new Date(c.updatedAt).toLocaleString()}.`
      : 'None of your own: your sessions have the team\u2019s servers only.';
  };
  show(await api('GET', '/api/v1/me/mcp-servers'));
  body.append(h('p', { class: 'hint' }, 'Servers of your own in every session you own: stdio ones (command, args, '
      + 'env) run in the session\u2019s sandbox, HTTP ones (url, headers) are reached by the sandbox-worker. Values of '
      + 'env and headers come back as ***. A save replaces everything with what the box holds; a *** left as it is '
      + 'keeps the value saved before for that server and name, so type only the values you change (all of them '
      + 'when its command, args or url change: a saved secret stays with where it was sent).'),
  h('form', { onsubmit: (e) => {
    e.preventDefault();
    status(note, apiText('PUT', '/api/v1/me/mcp-servers', text.value), 'Saved.').then(show, () => {});
  } }, h('label', { for: 'mcp-servers' }, 'Configuration'), text, state,
  h('p', {}, h('button', { type: 'submit', 'data-testid': 'mcp-servers-save' }, 'Save'), ' ',
    h('button', { type: 'button', 'data-testid': 'mcp-servers-remove', onclick: () => status(note,
      api('DELETE', '/api/v1/me/mcp-servers'), 'Removed.').then(show, () => {}) }, 'Remove all'))), note);
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
  const secret = h('input', { id: 'key-password', 'data-testid': 'api-key-password', type: 'password',
    autocomplete: 'current-password' });
  body.append(list, h('form', { onsubmit: async (e) => {
    e.preventDefault();
    try {
      const made = await api('POST', '/api/v1/me/api-keys', { name: name.value, currentPassword: secret.value });
      clear(shown).append('Copy it now, it is not shown again: ', h('code', { 'data-testid': 'api-key-value' }, made.key));
      name.value = '';
      secret.value = '';
      draw();
    } catch (err) {
      shown.textContent = err.message;
    }
  } }, h('label', { for: 'key-name' }, 'New key\u2019s name'), name,
  h('label', { for: 'key-password' }, 'Your password'), secret,
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
  const secret = h('input', { id: 'logins-password', 'data-testid': 'logins-password', type: 'password',
    autocomplete: 'current-password' });
  const note = h('p', { role: 'status' });
  const draw = async () => {
    const all = await api('GET', '/api/v1/me/logins');
    clear(list).append(...all.map((l) => h('li', { 'data-testid': 'login' },
      `${l.userAgent || 'unknown browser'} from ${l.address || '?'}, since ${new Date(l.createdAt).toLocaleString()}`,
      l.current ? h('strong', {}, ' (this one)') : h('button', { type: 'button', onclick: async () => {
        await status(note, api('DELETE', `/api/v1/me/logins/${l.loginId}`, { currentPassword: secret.value }),
          'Logged out there.').then(() => draw(), () => {});
      } }, 'Log out there'))));
  };
  body.append(list, h('label', { for: 'logins-password' }, 'Your password (to log out elsewhere)'), secret, note);
  await draw();
}

async function password(body) {
  const current = h('input', { id: 'pw-current', type: 'password', autocomplete: 'current-password' });
  const fresh = h('input', { id: 'pw-new', type: 'password', autocomplete: 'new-password' });
  const note = h('p', { role: 'status' });
  body.append(h('form', { onsubmit: (e) => {
    e.preventDefault();
    status(note, api('POST', '/api/v1/me/password', { currentPassword: current.value, password: fresh.value }),
      'Changed. Your other logins and your API keys have ended.').then(() => { current.value = ''; fresh.value = ''; }, () => {});
  } }, h('label', { for: 'pw-current' }, 'Current password'), current,
  h('label', { for: 'pw-new' }, 'New password (at least 12 characters)'), fresh,
  h('p', {}, h('button', { type: 'submit' }, 'Change'))), note);
}
