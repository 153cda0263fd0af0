// The chat's fold (web/js/transcript.js): what the page shows after a log of events, given/when/then, like the
// server's SessionFold tests. The fold is pure, so it runs here without a browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyDelta, applyEvent, emptyTranscript } from '../../main/resources/web/js/transcript.js';

/** A log: each [type, data] gets the next seq, as the gateway's log and stream send them. */
function log(...events) {
  return events.map(([type, data], i) => ({ seq: i + 1, type, time: `2026-01-01T00:00:0${i % 10}Z`, data }));
}

function fold(events, t = emptyTranscript()) {
  for (const e of events) {
    applyEvent(t, e);
  }
  return t;
}

const kinds = (t) => t.items.map((i) => i.kind);
const notices = (t) => t.items.filter((i) => i.kind === 'notice').map((i) => i.text);

const created = ['session.created.v1', { title: 'Fix the build', mode: 'ASK' }];
const asked = ['user_message.posted.v1', { text: 'run the tests' }];
const started = ['model_call.started.v1', { requestId: 'r1' }];
const answeredWithCall = ['model_call.completed.v1', { requestId: 'r1', content: 'I will run them.', model: 'm',
  toolCalls: [{ id: 'c1', name: 'bash', arguments: '{"command":"make test"}' }] }];

test('given a new session, when it is created, then the title and permission mode are shown and nothing else', () => {
  const t = fold(log(created));

  assert.equal(t.title, 'Fix the build');
  assert.equal(t.mode, 'ask');
  assert.deepEqual(t.items, []);
  assert.equal(t.running, false);
});

test('given a message, when the model answers with a tool call, then the answer and a pending tool card follow it', () => {
  const t = fold(log(created, asked, started, answeredWithCall));

  assert.deepEqual(kinds(t), ['user', 'assistant', 'tool']);
  assert.equal(t.items[0].text, 'run the tests');
  assert.equal(t.items[1].text, 'I will run them.');
  assert.equal(t.items[1].streaming, false);
  assert.equal(t.items[2].name, 'bash');
  assert.equal(t.items[2].status, 'pending');
  assert.equal(t.running, true, 'the turn runs until turn.ended.v1');
});

test('given a tool call, when it is requested, started and completed, then its card goes through each status', () => {
  const events = log(created, asked, started, answeredWithCall,
    ['tool_call.requested.v1', { callId: 'c1', name: 'bash', arguments: '{}' }],
    ['tool_call.started.v1', { callId: 'c1' }],
    ['tool_call.completed.v1', { callId: 'c1', ok: true, output: 'all green', durationMs: 42 }]);
  const t = emptyTranscript();
  const statuses = events.map((e) => applyEvent(t, e).byKey.get('tool-c1')?.status);

  assert.deepEqual(statuses.slice(3), ['pending', 'requested', 'running', 'done']);
  assert.equal(t.byKey.get('tool-c1').output, 'all green');
  assert.equal(t.byKey.get('tool-c1').durationMs, 42);
});

test('given a completed call, when its result is a refusal, a failure or an interruption, then the card says so', () => {
  const outcome = (data) => fold(log(created, asked, started, answeredWithCall,
    ['tool_call.completed.v1', { callId: 'c1', ...data }])).byKey.get('tool-c1');

  assert.equal(outcome({ ok: false, refusal: 'not allowed' }).status, 'refused');
  assert.equal(outcome({ ok: false, refusal: 'not allowed' }).error, 'not allowed');
  assert.equal(outcome({ ok: false, error: 'exit 2' }).status, 'failed');
  assert.equal(outcome({ ok: false, interrupted: true }).status, 'interrupted');
});

test('given a log folded once, when the same events arrive again (a reconnect), then nothing is doubled', () => {
  const events = log(created, asked, started, answeredWithCall, ['loop.warned.v1', { reason: 'again' }]);
  const t = fold(events);
  const before = t.items.length;

  fold(events, t);

  assert.equal(t.items.length, before);
  assert.deepEqual(notices(t), ['again']);
  assert.equal(t.lastSeq, 5);
});

test('given the same log, when it is folded twice from empty, then the transcripts are the same', () => {
  const events = log(created, asked, started, answeredWithCall, ['turn.ended.v1', { outcome: 'CANCELLED' }]);

  const strip = (t) => t.items.map(({ key, kind, text, status }) => ({ key, kind, text, status }));
  assert.deepEqual(strip(fold(events)), strip(fold(events)));
});

test('given a streaming answer, when tokens arrive, then they fill the open model call in order', () => {
  const t = fold(log(created, asked, started));

  applyDelta(t, { kind: 'TOKEN', ref: 'r1', text: 'Hel' });
  applyDelta(t, { kind: 'REASONING', ref: 'r1', text: 'thinking' });
  applyDelta(t, { kind: 'TOKEN', ref: 'r1', text: 'lo' });

  const item = t.byKey.get('model-r1');
  assert.equal(item.text, 'Hello');
  assert.equal(item.reasoning, 'thinking');
  assert.equal(item.tokens, 2);
  assert.equal(item.streaming, true);
});

test('given streamed tokens, when the completed event arrives, then the event wins and later tokens are dropped', () => {
  const t = fold(log(created, asked, started));
  applyDelta(t, { kind: 'TOKEN', ref: 'r1', text: 'I will ru' });

  applyEvent(t, { seq: 4, type: 'model_call.completed.v1', time: '2026-01-01T00:00:04Z',
    data: { requestId: 'r1', content: 'I will run them.' } });
  applyDelta(t, { kind: 'TOKEN', ref: 'r1', text: ' late' });

  assert.equal(t.byKey.get('model-r1').text, 'I will run them.');
  assert.equal(t.byKey.get('model-r1').streaming, false);
});

test('given a running command, when output arrives, then it is appended; after completion, it is not', () => {
  const t = fold(log(created, asked, started, answeredWithCall, ['tool_call.started.v1', { callId: 'c1' }]));

  applyDelta(t, { kind: 'OUTPUT', ref: 'c1', text: 'line 1\n' });
  applyEvent(t, { seq: 6, type: 'tool_call.completed.v1', time: 't', data: { callId: 'c1', ok: true, output: 'all' } });
  applyDelta(t, { kind: 'OUTPUT', ref: 'c1', text: 'late\n' });

  assert.equal(t.byKey.get('tool-c1').output, 'all');
});

test('given a tool call held for approval, when a person approves it, then the card waits for the sandbox again', () => {
  const t = fold(log(created, asked, started, answeredWithCall,
    ['approval.requested.v1', { callId: 'c1', tool: 'bash', arguments: '{}', risk: 'HIGH', reason: 'writes' }]));
  assert.equal(t.byKey.get('tool-c1').status, 'approval');
  assert.ok(t.awaiting.has('c1'), 'the turn waits for a person');

  applyEvent(t, { seq: 6, type: 'approval.decided.v1', time: 't',
    data: { callId: 'c1', decision: 'APPROVED', decidedBy: 'ann', note: 'ok' } });

  const card = t.byKey.get('tool-c1');
  assert.equal(card.status, 'requested');
  assert.equal(card.approval, null);
  assert.deepEqual(card.decision, { decision: 'APPROVED', note: 'ok', by: 'ann' });
  assert.equal(t.awaiting.size, 0);
});

test('given a tool call held for approval, when a person rejects it, then the card goes back to pending', () => {
  const t = fold(log(created, asked, started, answeredWithCall,
    ['approval.requested.v1', { callId: 'c1', tool: 'bash', arguments: '{}' }],
    ['approval.decided.v1', { callId: 'c1', decision: 'REJECTED' }]));

  assert.equal(t.byKey.get('tool-c1').status, 'pending');
});

test('given a running turn, when it ends, then it stops running and only an unusual end leaves a notice', () => {
  const completed = fold(log(created, asked, ['turn.ended.v1', { outcome: 'COMPLETED' }]));
  const stopped = fold(log(created, asked, ['turn.ended.v1', { outcome: 'CANCELLED' }]));
  const capped = fold(log(created, asked, ['turn.ended.v1', { outcome: 'ITERATION_CAP', message: '50 steps' }]));
  const looping = fold(log(created, asked, ['turn.ended.v1', { outcome: 'LOOP_DETECTED' }]));
  const other = fold(log(created, asked, ['turn.ended.v1', { outcome: 'FAILED', message: 'model down' }]));

  assert.equal(completed.running, false);
  assert.deepEqual(notices(completed), []);
  assert.deepEqual(notices(stopped), ['Stopped.']);
  assert.deepEqual(notices(capped), ['Stopped at the step limit: 50 steps']);
  assert.deepEqual(notices(looping), ['Stopped: the agent was going round in circles.']);
  assert.deepEqual(notices(other), ['The turn ended: FAILED (model down).']);
});

test('given a wait, when it is scheduled and then ends, then the chat shows waiting and then not', () => {
  const t = fold(log(created, asked, ['wait.scheduled.v1', { waitId: 'w1', until: '10:00', reason: 'the build' }]));
  assert.equal(t.waiting, true);
  assert.deepEqual(notices(t), ['Waiting until 10:00: the build.']);

  applyEvent(t, { seq: 4, type: 'wait.ended.v1', time: 't', data: { waitId: 'w1' } });

  assert.equal(t.waiting, false);
});

test('given a queued whisper, when it is delivered, then its notice says delivered', () => {
  const t = fold(log(created, asked, ['whisper.queued.v1', { whisperId: 'w', text: 'use make' }]));
  assert.deepEqual(notices(t), ["Whisper: use make (for the agent's next step)"]);

  applyEvent(t, { seq: 4, type: 'whisper.delivered.v1', time: 't', data: { whisperId: 'w' } });

  assert.deepEqual(notices(t), ['Whisper: use make (delivered)']);
});

test('given a session, when it is renamed or its mode changes, then the title and mode follow with a notice', () => {
  const t = fold(log(created, ['session.renamed.v1', { title: 'Green build' }],
    ['permission_mode.changed.v1', { mode: 'PLAN' }]));

  assert.equal(t.title, 'Green build');
  assert.equal(t.mode, 'plan');
  assert.deepEqual(notices(t), ['Renamed “Green build”.', 'Permission mode: plan.']);
});

test('given an answer, when a person votes twice, then the answer shows the latest vote', () => {
  const t = fold(log(created, asked, started, ['model_call.completed.v1', { requestId: 'r1', content: 'done' }],
    ['feedback.recorded.v1', { seq: 4, vote: 'UP' }], ['feedback.recorded.v1', { seq: 4, vote: 'DOWN' }]));

  assert.equal(t.byKey.get('model-r1').vote, 'DOWN');
});

test('given a completed call with a measure, when it is folded, then the context gauge reads it', () => {
  const t = fold(log(created, asked, started, ['model_call.completed.v1', { requestId: 'r1', content: 'x',
    measure: { promptTokens: 1200, contextWindow: 8192, estimated: true } }]));

  assert.deepEqual(t.gauge, { used: 1200, estimated: true, window: 8192 });
});

test('given a refused or failed model call, when it is folded, then the answer shows why and stops streaming', () => {
  const refused = fold(log(created, asked, started, ['model_call.refused.v1', { requestId: 'r1', reason: 'budget' }]));
  const failed = fold(log(created, asked, started, ['model_call.failed.v1', { requestId: 'r1', message: '503' }]));

  assert.equal(refused.byKey.get('model-r1').refused, 'budget');
  assert.equal(refused.byKey.get('model-r1').streaming, false);
  assert.equal(failed.byKey.get('model-r1').error, '503');
  assert.equal(failed.byKey.get('model-r1').streaming, false);
});

test('given a task call, when its sub-agent starts and finishes, then a sub-agent card links to it with the outcome', () => {
  const t = fold(log(created, asked, started, ['model_call.completed.v1', { requestId: 'r1', content: '',
    toolCalls: [{ id: 't1', name: 'task', arguments: '{}' }] }],
  ['sub_agent.started.v1', { callId: 't1', childSessionId: 'child', description: 'read the docs' }]));
  assert.equal(t.byKey.get('tool-t1').status, 'running');
  assert.deepEqual(kinds(t), ['user', 'assistant', 'tool', 'subagent']);

  applyEvent(t, { seq: 6, type: 'sub_agent.finished.v1', time: 't', data: { callId: 't1', outcome: 'COMPLETED' } });

  const card = t.byKey.get('subagent-t1');
  assert.equal(card.sessionId, 'child');
  assert.equal(card.outcome, 'COMPLETED');
});

test('given a sub-agent session, when it is created, then its first item links back to the parent', () => {
  const t = fold(log(['session.created.v1', { title: 'child', subAgentOf: { parentSessionId: 'p', callId: 't1' } }]));

  assert.deepEqual(t.items.map(({ kind, sessionId, callId }) => ({ kind, sessionId, callId })),
    [{ kind: 'parent', sessionId: 'p', callId: 't1' }]);
});

test('given a fork, when its first event is folded, then the source conversation is inherited from its state', () => {
  const t = fold(log(['session.forked.v1', { title: 'Fork', fromSessionId: 'src', atSeq: 7, state: {
    messages: [
      { kind: 'user', text: 'hi' },
      { kind: 'assistant', content: 'hello', toolCalls: [{ id: 'c1', name: 'bash', arguments: '{}' },
        { id: 'c2', name: 'read', arguments: '{}' }] },
    ],
    toolCalls: { c1: { status: 'COMPLETED', ok: true, output: 'ok' }, c2: { status: 'STARTED' } },
  } }]));

  assert.equal(t.title, 'Fork');
  assert.deepEqual(kinds(t), ['user', 'assistant', 'tool', 'tool', 'notice']);
  assert.ok(t.items[0].inherited);
  assert.equal(t.byKey.get('tool-c1').status, 'done');
  assert.equal(t.byKey.get('tool-c2').status, 'interrupted', 'a call the source had not finished cannot finish here');
  assert.deepEqual(notices(t), ['Forked from src at event 7.']);
});

test('given context and planning events, when they are folded, then the chat shows a notice for each', () => {
  const t = fold(log(created,
    ['system_prompt.changed.v1', { preset: 'coder' }],
    ['system_prompt.changed.v1', {}],
    ['context.compaction_requested.v1', {}],
    ['context.compacted.v1', { messagesCovered: 12 }],
    ['context.compaction_failed.v1', { message: 'too short' }],
    ['plan.created.v1', { number: 2, steps: ['a', 'b'], awaitingApproval: true }],
    ['input.rejected.v1', { reason: 'a turn is running' }],
    ['notification.posted.v1', { message: 'build done' }],
    ['loop.warned.v1', { reason: 'the same call three times' }],
    ['model.warned.v1', { reason: 'no reasoning' }]));

  assert.deepEqual(notices(t), [
    'System prompt: the coder preset.',
    'System prompt: the installation\u2019s.',
    'Summarising the older conversation…',
    'The older conversation (12 messages) was summarised for the prompt.',
    'Compaction failed: too short',
    'Plan 2 proposed (2 steps): it waits for your approval.',
    'Not accepted: a turn is running',
    'build done',
    'the same call three times',
    '⚠ no reasoning',
  ]);
});

test('given any event, when it is folded, then the keys of what it changed are marked for redrawing', () => {
  const t = fold(log(created, asked, started, answeredWithCall));

  assert.deepEqual([...t.changed].sort(), ['model-r1', 'tool-c1', 'user-2']);
});

test('given an event type the chat does not know, when it is folded, then nothing changes but its seq', () => {
  const t = fold(log(created, ['workspace.invented.v9', { anything: true }]));

  assert.deepEqual(t.items, []);
  assert.equal(t.lastSeq, 2);
});
