// The web UI's entry point: who is logged in decides the screen (login, two-factor enrolment, or the workspace).
// The open session is in the URL's hash (#/s/<id>), so a refresh or a shared link comes back to it.
import { api, ApiError, setCsrfToken } from './api.js';
import { ChatView } from './chat.js';
import { clear, h } from './dom.js';
import { showEnrolment, showLogin } from './login.js';
import { Sidebar } from './sidebar.js';
import { TimelineView } from './timeline.js';
import { FilesView } from './files.js';
import { ShareView } from './share.js';
import { showAdmin } from './admin.js';
import { showSettings } from './settings.js';
import { showApprovals } from './approvals.js';
import { hideShortcuts, showShortcuts } from './commands.js';
import { Bell } from './notifications.js';
import { showInbox } from './inbox.js';

let bell = null;

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
  bell?.stop();
  bell = new Bell();
  const side = h('nav', { class: 'sidebar', 'aria-label': 'Sessions' });
  const header = h('header', { class: 'top' },
    h('strong', {}, 'Agentbus'),
    h('span', { class: 'me', 'data-testid': 'me' }, `${me.username}${me.role === 'admin' ? ' (admin)' : ''}`),
    me.role === 'admin' ? h('a', { href: '#/admin', 'data-testid': 'nav-admin' }, 'Team') : null,
    h('a', { href: '#/approvals', 'data-testid': 'nav-approvals' }, 'Approvals'),
    h('a', { href: '#/inbox', 'data-testid': 'nav-inbox' }, 'Inbox'),
    bell.root,
    h('a', { href: '#/settings', 'data-testid': 'nav-settings' }, 'Settings'),
    h('button', { type: 'button', 'data-testid': 'logout', onclick: async () => {
      await api('POST', '/api/v1/auth/logout');
      bell.stop();
      setCsrfToken(null);
      location.hash = '';
      start();
    } }, 'Log out'));
  const tabs = h('nav', { class: 'tabs', 'aria-label': 'Session views' });
  const pane = h('div', { class: 'pane' });
  clear(root).append(header, h('div', { class: 'layout' }, side, h('div', { class: 'main' }, tabs, pane)));
  const openSession = (id) => { location.hash = `#/s/${id}`; };
  const view = new ChatView(pane, () => sidebar.refresh(), openSession, {
    newSession: (options) => sidebar.create(options),
    go: (hash) => { location.hash = hash; },
  });
  const timeline = new TimelineView(pane, openSession);
  const files = new FilesView(pane);
  const share = new ShareView(pane);
  const sidebar = new Sidebar(side, openSession, {
    userId: me.userId,
    // The open session was deleted: nothing is left to show of it.
    onDeleted: (id) => { if (location.hash.startsWith(`#/s/${id}`)) { location.hash = ''; } },
  });
  const route = () => {
    const match = location.hash.match(/^#\/s\/([0-9a-f-]+)(\/timeline|\/files|\/share)?$/);
    view.close();
    clear(tabs);
    if (match) {
      const [, id, tab] = match;
      const current = (name) => ((tab || '') === name ? 'page' : undefined);
      tabs.append(
        h('a', { href: `#/s/${id}`, 'data-testid': 'tab-chat', 'aria-current': current('') }, 'Chat'),
        h('a', { href: `#/s/${id}/timeline`, 'data-testid': 'tab-timeline', 'aria-current': current('/timeline') },
          'Timeline'),
        h('a', { href: `#/s/${id}/files`, 'data-testid': 'tab-files', 'aria-current': current('/files') }, 'Files'),
        h('a', { href: `#/s/${id}/share`, 'data-testid': 'tab-share', 'aria-current': current('/share') }, 'Share'));
      if (tab === '/timeline') {
        timeline.open(id);
      } else if (tab === '/files') {
        files.open(id);
      } else if (tab === '/share') {
        share.open(id);
      } else {
        view.open(id);
      }
      sidebar.refresh(id);
    } else if (location.hash === '#/approvals') {
      showApprovals(pane);
      sidebar.refresh(null);
    } else if (location.hash === '#/inbox') {
      showInbox(pane);
      sidebar.refresh(null);
    } else if (location.hash === '#/settings') {
      showSettings(pane, me);
      sidebar.refresh(null);
    } else if (location.hash === '#/admin' && me.role === 'admin') {
      showAdmin(pane);
      sidebar.refresh(null);
    } else {
      clear(pane).append(h('p', { class: 'empty' }, 'Pick a session, or start a new one (Alt+N).'));
      sidebar.refresh(null);
    }
  };
  window.onhashchange = route;
  document.onkeydown = (e) => {
    const typing = e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement;
    if (e.altKey && e.key.toLowerCase() === 'n') {
      e.preventDefault();
      sidebar.create();
    } else if (e.key === '?' && !typing) {
      e.preventDefault();
      showShortcuts();
    } else if (e.key === 'Escape') {
      hideShortcuts();
    }
  };
  route();
  bell.start();
}

start();

// Installable and quick to reopen (sw.js caches the page's own files, never the API).
if ('serviceWorker' in navigator) {
  navigator.serviceWorker.register('/sw.js').catch(() => {});
}
