// The chat against the event catalogue: every session event of docs/events.md is either followed by the chat
// (EVENT_TYPES) or left out on purpose (IGNORED_TYPES), and the chat names no type the catalogue does not have.
// docs/events.md is itself checked against the Java records by EventCatalogueDocTest, so this ties the UI to the code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { EVENT_TYPES, IGNORED_TYPES } from '../../main/resources/web/js/transcript.js';

/** The wire types of the "Session events" table: the rows whose record column is a SessionEvent record. */
function catalogueSessionEvents() {
  const doc = readFileSync(new URL('../../../../docs/events.md', import.meta.url), 'utf8');
  const section = doc.split(/^## /m).find((s) => s.startsWith('Session events\n'));
  assert.ok(section, 'docs/events.md has a "## Session events" section');
  const types = [];
  for (const line of section.split('\n')) {
    const row = /^\| `([a-z_.]+\.v\d+)` \| `SessionEvent\.\w+` \|/.exec(line);
    if (row) {
      types.push(row[1]);
    }
  }
  return types;
}

const catalogue = catalogueSessionEvents();

test('the catalogue table is read: it lists dozens of session events', () => {
  assert.ok(catalogue.length >= 40, `only ${catalogue.length} session events read from docs/events.md`);
  assert.ok(catalogue.includes('tool_call.requested.v1'));
});

test('every session event of the catalogue is followed by the chat or ignored on purpose', () => {
  const known = new Set([...EVENT_TYPES, ...IGNORED_TYPES]);
  const missing = catalogue.filter((type) => !known.has(type));
  assert.deepEqual(missing, [], 'session events the web UI neither follows (EVENT_TYPES) nor ignores on purpose '
    + '(IGNORED_TYPES) in web/js/transcript.js');
});

test('the chat names no event type the catalogue does not have', () => {
  const listed = new Set(catalogue);
  assert.deepEqual([...EVENT_TYPES, ...IGNORED_TYPES].filter((type) => !listed.has(type)), []);
});

test('no event type is both followed and ignored, nor listed twice', () => {
  const all = [...EVENT_TYPES, ...IGNORED_TYPES];
  assert.equal(new Set(all).size, all.length, `listed twice: ${all.filter((t, i) => all.indexOf(t) !== i)}`);
});
