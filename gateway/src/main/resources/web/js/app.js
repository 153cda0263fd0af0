// The web UI's entry point: who is logged in decides the screen (login, two-factor enrolment, or the workspace).
// The open session is in the URL's hash (#/s/<id>), so a refresh or a shared link comes back to it.
import { api, ApiError, setCsrfToken } from './api.js';
import { ChatView } from './chat.js';
import { clear, h } from './dom.js';
import { showEnrolment, showLogin } from './login.js';
import { Sidebar } from './sidebar.js';

const root = document.getElementById('app');

async function start() {
  let me;
  try {
    me = await api('GET', '/api/v1/me');
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) {
      showLogin(root, () => start());
      return;
    }
    clear(root).append(h('p', { class: 'error', role: 'alert' }, `The gateway did not answer: ${e.message}`));
    return;
  }
  setCsrfToken(me.csrfToken);
  if (me.mustEnrolTotp) {
    showEnrolment(root, () => start());
    return;
  }
  workspace(me);
}

function workspace(me) {
  const side = h('nav', { class: 'sidebar', 'aria-label': 'Sessions' });
  const chat = h('section', { class: 'chat', 'aria-label': 'Chat' });
  const header = h('header', { class: 'top' },
    h('strong', {}, 'Agentbus'),
    h('span', { class: 'me', 'data-testid': 'me' }, `${me.username}${me.role === 'admin' ? ' (admin)' : ''}`),
    h('button', { type: 'button', 'data-testid': 'logout', onclick: async () => {
      await api('POST', '/api/v1/auth/logout');
      setCsrfToken(null);
      location.hash = '';
      start();
    } }, 'Log out'));
  clear(root).append(header, h('div', { class: 'layout' }, side, chat));
  const view = new ChatView(chat, () => sidebar.refresh());
  const sidebar = new Sidebar(side, (id) => { location.hash = `#/s/${id}`; });
  const route = () => {
    const match = location.hash.match(/^#\/s\/([0-9a-f-]+)$/);
    if (match) {
      view.open(match[1]);
      sidebar.refresh(match[1]);
    } else {
      view.close();
      clear(chat).append(h('p', { class: 'empty' }, 'Pick a session, or start a new one (Alt+N).'));
      sidebar.refresh(null);
    }
  };
  window.onhashchange = route;
  document.onkeydown = (e) => {
    if (e.altKey && e.key.toLowerCase() === 'n') {
      e.preventDefault();
      sidebar.create();
    }
  };
  route();
}

start();
