// The composer's slash commands (web/js/commands.js): which commands a typed prefix completes to, and what each runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commandNamed, matching, SHORTCUTS, SLASH_COMMANDS } from '../../main/resources/web/js/commands.js';

const names = (list) => list.map((c) => c.name);

test('given a slash, when the completion is asked, then every command is offered', () => {
  assert.deepEqual(names(matching('/')), names(SLASH_COMMANDS));
});

test('given a prefix in any case, when the completion is asked, then only the commands that start with it are offered', () => {
  assert.deepEqual(names(matching('/f')), ['/fork']);
  assert.deepEqual(names(matching('/ST')), ['/stop']);
  assert.deepEqual(names(matching('/xyz')), []);
});

test('given text that is no command, when the completion is asked, then nothing is offered', () => {
  assert.deepEqual(matching('hello /new'), [], 'a slash later in a message is no command');
  assert.deepEqual(matching('/new session'), [], 'once a space is typed the command is chosen');
  assert.deepEqual(matching(''), []);
});

test('given a whole command with spaces and capitals, when it is looked up, then it is found; a prefix is not', () => {
  assert.equal(commandNamed('  /Compact ').name, '/compact');
  assert.equal(commandNamed('/comp'), undefined);
});

test('given each command, when it runs, then it calls what its help says', () => {
  const calls = [];
  const context = {
    chat: { sessionId: 's1', compact: () => calls.push('compact'), cancel: () => calls.push('cancel'),
      forkHere: () => calls.push('fork') },
    newSession: (options) => calls.push(`new ${JSON.stringify(options || {})}`),
    go: (hash) => calls.push(`go ${hash}`),
  };
  for (const name of ['/new', '/plan', '/compact', '/stop', '/timeline', '/fork', '/settings']) {
    commandNamed(name).run(context);
  }

  assert.deepEqual(calls, ['new {}', 'new {"planFirst":true}', 'compact', 'cancel', 'go #/s/s1/timeline', 'fork',
    'go #/settings']);
});

test('every command and shortcut has a name and a help text, and no command is listed twice', () => {
  for (const c of SLASH_COMMANDS) {
    assert.match(c.name, /^\/[a-z]+$/);
    assert.ok(c.help.length > 0 && typeof c.run === 'function', c.name);
  }
  assert.equal(new Set(names(SLASH_COMMANDS)).size, SLASH_COMMANDS.length);
  for (const [key, what] of SHORTCUTS) {
    assert.ok(key && what, `${key}: ${what}`);
  }
});
