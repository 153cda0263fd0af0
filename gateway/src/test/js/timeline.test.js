// The timeline's one-line summaries of events (web/js/timeline.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { summary } from '../../main/resources/web/js/timeline.js';

const event = (type, data) => ({ seq: 1, type, time: '2026-01-01T00:00:00Z', data });

test('given a model answer with tool calls, when it is summarised, then the calls are named', () => {
  assert.equal(summary(event('model_call.completed.v1', { content: 'x',
    toolCalls: [{ name: 'bash' }, { name: 'read' }] })), 'asks for bash, read');
});

test('given a long message over several lines, when it is summarised, then it is one line cut at 120 characters', () => {
  const text = `first line\n${'word '.repeat(60)}`;

  const line = summary(event('user_message.posted.v1', { text }));

  assert.equal(line.length, 120);
  assert.ok(line.startsWith('first line word'));
  assert.ok(line.endsWith('…'));
  assert.ok(!line.includes('\n'));
});

test('given tool, turn and approval events, when they are summarised, then each says what happened', () => {
  assert.equal(summary(event('tool_call.completed.v1', { ok: false, durationMs: 12 })), 'failed in 12 ms');
  assert.equal(summary(event('turn.ended.v1', { outcome: 'COMPLETED' })), 'COMPLETED');
  assert.equal(summary(event('approval.requested.v1', { tool: 'bash', risk: 'HIGH', arguments: '{"c":1}' })),
    'bash (high risk) {"c":1}');
  assert.equal(summary(event('approval.decided.v1', { decision: 'REJECTED', decidedBy: 'ann', note: 'no' })),
    'rejected by ann: no');
  assert.equal(summary(event('permission_mode.changed.v1', { mode: 'PLAN' })), 'plan');
});

test('given an event with nothing to summarise or no data, when it is summarised, then the line is empty', () => {
  assert.equal(summary(event('memory.attached.v1', {})), '');
  assert.equal(summary({ seq: 1, type: 'user_message.posted.v1' }), '');
});
