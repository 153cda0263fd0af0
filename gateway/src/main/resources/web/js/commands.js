// Slash commands in the composer (with a list that completes them as you type) and the keyboard shortcuts, which
// the `?` overlay lists. One table of each, so the help can never disagree with what the keys do.
import { clear, h } from './dom.js';

/** name → what it does; run(context) gets {chat, openSession, newSession, go}. */
export const SLASH_COMMANDS = [
  { name: '/new', help: 'start a new session', run: (c) => c.newSession() },
  { name: '/plan', help: 'start a new session in plan-first mode', run: (c) => c.newSession({ planFirst: true }) },
  { name: '/compact', help: 'summarise the older conversation now', run: (c) => c.chat.compact() },
  { name: '/stop', help: 'stop the running turn', run: (c) => c.chat.cancel() },
  { name: '/timeline', help: 'show this session\u2019s timeline', run: (c) => c.go(`#/s/${c.chat.sessionId}/timeline`) },
  { name: '/fork', help: 'fork this session at its latest event', run: (c) => c.chat.forkHere() },
  { name: '/settings', help: 'open your settings', run: (c) => c.go('#/settings') },
  { name: '/help', help: 'list the commands and shortcuts', run: () => showShortcuts() },
];

export const SHORTCUTS = [
  ['Enter', 'send the message'],
  ['Shift+Enter', 'a new line in the message'],
  ['/', 'a command (type / in the message box)'],
  ['Alt+N', 'new session'],
  ['Escape', 'stop the running turn, or close this list'],
  ['?', 'this list (outside a text box)'],
];

/** The commands that start with what was typed, for the completion list. */
export function matching(text) {
  if (!text.startsWith('/') || text.includes(' ')) {
    return [];
  }
  return SLASH_COMMANDS.filter((c) => c.name.startsWith(text.toLowerCase()));
}

export function commandNamed(text) {
  return SLASH_COMMANDS.find((c) => c.name === text.trim().toLowerCase());
}

let overlay = null;

export function showShortcuts() {
  if (overlay) {
    return;
  }
  const close = h('button', { type: 'button', 'data-testid': 'shortcuts-close', onclick: () => hideShortcuts() },
    'Close');
  overlay = h('div', { class: 'overlay', role: 'dialog', 'aria-modal': 'true', 'aria-label': 'Keyboard shortcuts',
    'data-testid': 'shortcuts' },
  h('div', { class: 'overlay-box' },
    h('h2', {}, 'Keyboard shortcuts'),
    h('table', {}, SHORTCUTS.map(([key, what]) => h('tr', {}, h('td', {}, h('kbd', {}, key)), h('td', {}, what)))),
    h('h2', {}, 'Commands'),
    h('table', {}, SLASH_COMMANDS.map((c) => h('tr', {}, h('td', {}, h('code', {}, c.name)), h('td', {}, c.help)))),
    close));
  document.body.append(overlay);
  close.focus();
}

export function hideShortcuts() {
  if (overlay) {
    overlay.remove();
    overlay = null;
  }
}

/** The completion list under the composer: shows the matching commands, Tab takes the first. */
export class Completion {
  constructor() {
    this.list = h('ul', { class: 'completion', role: 'listbox', 'aria-label': 'Commands', 'data-testid': 'completion' });
  }

  update(text) {
    const found = matching(text);
    clear(this.list).append(...found.map((c) => h('li', { role: 'option' }, h('code', {}, c.name), ` ${c.help}`)));
    this.first = found[0];
  }
}
