// Logging in: the password first; when the account has two-factor login, the code next (or a backup code).
import { api, ApiError } from './api.js';
import { clear, h } from './dom.js';

export function showLogin(root, onLoggedIn) {
  const username = h('input', { id: 'username', 'data-testid': 'login-username', autocomplete: 'username',
    required: true, autocapitalize: 'none' });
  const password = h('input', { id: 'password', 'data-testid': 'login-password', type: 'password',
    autocomplete: 'current-password', required: true });
  const totp = h('input', { id: 'totp', 'data-testid': 'login-totp', inputmode: 'numeric',
    autocomplete: 'one-time-code', placeholder: '123456 or a backup code' });
  const totpRow = h('p', { hidden: true }, h('label', { for: 'totp' }, 'Two-factor code'), totp);
  const error = h('p', { class: 'error', role: 'alert' });
  const submit = h('button', { type: 'submit', 'data-testid': 'login-submit' }, 'Log in');
  const form = h('form', { class: 'login', 'aria-label': 'Log in', onsubmit: async (e) => {
    e.preventDefault();
    error.textContent = '';
    submit.disabled = true;
    try {
      const body = { username: username.value, password: password.value };
      if (!totpRow.hidden && totp.value.trim()) {
        body.totp = totp.value.trim();
      }
      onLoggedIn(await api('POST', '/api/v1/auth/login', body));
    } catch (err) {
      if (err instanceof ApiError && err.body && err.body.totpRequired) {
        totpRow.hidden = false;
        totp.focus();
        error.textContent = 'Enter the code from your authenticator app.';
      } else {
        error.textContent = err.message;
      }
    } finally {
      submit.disabled = false;
    }
  } },
  h('h1', {}, 'Agentbus'),
  h('p', {}, h('label', { for: 'username' }, 'Username'), username),
  h('p', {}, h('label', { for: 'password' }, 'Password'), password),
  totpRow, error, submit);
  clear(root).append(form);
  username.focus();
}

/**
 * Turning on two-factor login (the team may require it before anything else): the current password first, as the
 * API asks for it so that a stolen API key or an unattended browser cannot enrol someone else's authenticator; then
 * the QR code and the backup codes, then a first code confirms.
 */
export function showEnrolment(root, onDone) {
  const error = h('p', { class: 'error', role: 'alert' });
  const password = h('input', { id: 'enrol-password', 'data-testid': 'enrol-password', type: 'password',
    autocomplete: 'current-password', required: true });
  const start = h('button', { type: 'submit', 'data-testid': 'enrol-start' }, 'Continue');
  clear(root).append(h('section', { class: 'enrol' }, h('h1', {}, 'Turn on two-factor login'),
    h('form', { onsubmit: async (e) => {
      e.preventDefault();
      start.disabled = true;
      try {
        const enrolment = await api('POST', '/api/v1/me/totp', { currentPassword: password.value });
        showSecret(root, enrolment, onDone);
      } catch (err) {
        error.textContent = err.message;
        start.disabled = false;
      }
    } }, h('label', { for: 'enrol-password' }, 'Your password'), password, start), error));
  password.focus();
}

function showSecret(root, enrolment, onDone) {
  const error = h('p', { class: 'error', role: 'alert' });
  clear(root).append(h('section', { class: 'enrol' }, h('h1', {}, 'Turn on two-factor login'), error));
  const code = h('input', { id: 'enrol-code', 'data-testid': 'enrol-code', inputmode: 'numeric',
    autocomplete: 'one-time-code', required: true });
  const qr = h('img', { alt: 'QR code of the two-factor secret', width: 200, height: 200,
    src: `data:image/svg+xml;base64,${btoa(enrolment.qrSvg)}` });
  const form = h('form', { onsubmit: async (e) => {
    e.preventDefault();
    try {
      await api('POST', '/api/v1/me/totp/confirm', { code: code.value.trim() });
      onDone();
    } catch (err) {
      error.textContent = err.message;
    }
  } }, h('label', { for: 'enrol-code' }, 'The code your app shows now'), code,
  h('button', { type: 'submit', 'data-testid': 'enrol-confirm' }, 'Confirm'));
  root.querySelector('.enrol').append(
    h('p', {}, 'Scan this with an authenticator app, or type the secret.'), qr,
    h('p', {}, h('code', { 'data-testid': 'enrol-secret' }, enrolment.secret)),
    h('p', {}, 'Backup codes (each works once; keep them somewhere safe):'),
    h('ul', { class: 'backup-codes' }, enrolment.backupCodes.map((c) => h('li', {}, h('code', {}, c)))),
    form);
  code.focus();
}
