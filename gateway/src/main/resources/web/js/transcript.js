// What the chat shows, as a pure fold over the session's events, like the server's own SessionFold: the same log
// always gives the same transcript, so a refresh or a reconnect that replays the log rebuilds it exactly, with
// nothing lost or doubled. Live deltas (tokens, command output) only fill in what the next event then states in
// full: an event always wins over the deltas before it, and deltas for something already complete are dropped.

/** Events that change the session's todos, plan or task state: the chat's planning panel reads them again. */
export const PLANNING_TYPES = [
  'plan_first.changed.v1', 'todo.added.v1', 'todo.updated.v1', 'plan.created.v1', 'plan.step_completed.v1',
  'plan.advanced.v1', 'plan.aborted.v1', 'task_state.updated.v1', 'task_state.reconciled.v1',
];

/** Events that change the session's prompt: its system prompt, context files and summary. */
export const CONTEXT_TYPES = [
  'system_prompt.changed.v1', 'context_files.loaded.v1', 'context.compaction_requested.v1', 'context.compacted.v1',
  'context.compaction_failed.v1',
];

/** The wire types this view folds; the stream sends each under its own SSE event name. */
export const EVENT_TYPES = [
  'session.created.v1', 'session.forked.v1', 'user_message.posted.v1', 'memory.attached.v1',
  'model_call.started.v1', 'model_call.completed.v1', 'model_call.failed.v1', 'model_call.refused.v1',
  'model.warned.v1',
  'tool_call.requested.v1', 'tool_call.started.v1', 'tool_call.completed.v1',
  'wait.scheduled.v1', 'wait.ended.v1', 'turn.ended.v1', 'input.rejected.v1', 'notification.posted.v1',
  'permission_mode.changed.v1', 'approval.requested.v1', 'approval.decided.v1',
  'session.renamed.v1', 'whisper.queued.v1', 'whisper.delivered.v1', 'loop.warned.v1', 'feedback.recorded.v1',
  'sub_agent.started.v1', 'sub_agent.finished.v1',
  ...PLANNING_TYPES, ...CONTEXT_TYPES,
];

/**
 * The session events the chat leaves out on purpose, each with why. Every wire type of docs/events.md is in
 * EVENT_TYPES or here (src/test/js/catalogue.test.js checks it), so a new event is a choice, never an oversight.
 */
export const IGNORED_TYPES = [
  'session.deleted.v1', // a deleted session leaves the sidebar's list; its conversation has nothing to add
  'insights.injected.v1', // which insights went into the prompt: the server's concern, not the conversation's
  'memory.managed.v1', // the manage_memory tool call's own card already shows the change
  'model_settings.changed.v1', // the prompt panel reads the session's model and sampling from the session view
  'mcp.tools.listed.v1', // the tools an MCP server offers go to the model, not into the conversation
];

export function emptyTranscript() {
  return { items: [], byKey: new Map(), lastSeq: 0, running: false, title: '', changed: new Set(),
    awaiting: new Set() };
}

function add(t, key, item) {
  item.key = key;
  item.index = t.items.length;
  t.items.push(item);
  t.byKey.set(key, item);
  t.changed.add(key);
  return item;
}

function touch(t, key) {
  t.changed.add(key);
  return t.byKey.get(key);
}

/** Applies one log event (an envelope of the log); returns the transcript. Events at or before lastSeq are skipped. */
export function applyEvent(t, envelope) {
  if (envelope.seq <= t.lastSeq) {
    return t;
  }
  t.lastSeq = envelope.seq;
  const d = envelope.data || {};
  switch (envelope.type) {
    case 'session.created.v1':
      t.title = d.title || '';
      t.mode = (d.mode || 'AUTO').toLowerCase();
      t.incognito = !!d.incognito;
      if (d.subAgentOf) {
        // A sub-agent: its first event links it to the parent whose task call started it.
        add(t, 'parent', { kind: 'parent', sessionId: d.subAgentOf.parentSessionId, callId: d.subAgentOf.callId });
      }
      break;
    case 'feedback.recorded.v1': {
      // The thumbs on an answer show the latest vote on it; a second vote replaces the first.
      const item = t.items.find((i) => i.kind === 'assistant' && i.seq === d.seq);
      if (item) {
        item.vote = d.vote;
        touch(t, item.key);
      }
      break;
    }
    case 'sub_agent.started.v1': {
      // The task call's card stays where the model asked for it; the child gets a card of its own that links to it.
      const call = touch(t, `tool-${d.callId}`);
      if (call && call.status === 'pending') {
        call.status = 'running';
      }
      add(t, `subagent-${d.callId}`, { kind: 'subagent', callId: d.callId, sessionId: d.childSessionId,
        description: d.description, outcome: null });
      break;
    }
    case 'sub_agent.finished.v1': {
      const item = touch(t, `subagent-${d.callId}`);
      if (item) {
        item.outcome = d.outcome;
      }
      break;
    }
    case 'session.renamed.v1':
      t.title = d.title || t.title;
      add(t, `renamed-${envelope.seq}`, { kind: 'notice', text: `Renamed “${d.title}”.` });
      break;
    case 'whisper.queued.v1':
      add(t, `whisper-${d.whisperId}`, { kind: 'notice', text: `Whisper: ${d.text} (for the agent's next step)`,
        whisper: true });
      break;
    case 'whisper.delivered.v1': {
      const item = touch(t, `whisper-${d.whisperId}`);
      if (item) {
        item.text = item.text.replace(" (for the agent's next step)", ' (delivered)');
      }
      break;
    }
    case 'loop.warned.v1':
      add(t, `loop-${envelope.seq}`, { kind: 'notice', text: d.reason });
      break;
    case 'model.warned.v1':
      add(t, `warned-${envelope.seq}`, { kind: 'notice', warning: true, text: `⚠ ${d.reason}` });
      break;
    case 'permission_mode.changed.v1':
      t.mode = (d.mode || 'AUTO').toLowerCase();
      add(t, `mode-${envelope.seq}`, { kind: 'notice', text: `Permission mode: ${t.mode}.` });
      break;
    case 'approval.requested.v1': {
      t.awaiting.add(d.callId); // the turn is held for a person: a message wakes it, it is no whisper
      const key = `tool-${d.callId}`;
      const item = t.byKey.get(key) || add(t, key, { kind: 'tool', callId: d.callId, output: '' });
      Object.assign(item, { name: d.tool, arguments: d.arguments, status: 'approval',
        approval: { callId: d.callId, tool: d.tool, risk: d.risk, reason: d.reason, expiresAt: d.expiresAt } });
      touch(t, key);
      break;
    }
    case 'approval.decided.v1': {
      t.awaiting.delete(d.callId);
      const item = touch(t, `tool-${d.callId}`);
      if (item) {
        item.approval = null;
        item.decision = { decision: d.decision, note: d.note, by: d.decidedBy };
        if (item.status === 'approval') {
          item.status = d.decision === 'APPROVED' || d.decision === 'ALWAYS' ? 'requested' : 'pending';
        }
      }
      break;
    }
    case 'session.forked.v1':
      t.title = d.title || t.title;
      inherit(t, d.state || {});
      add(t, 'fork', { kind: 'notice', text: `Forked from ${d.fromSessionId} at event ${d.atSeq}.` });
      break;
    case 'user_message.posted.v1':
      add(t, `user-${envelope.seq}`, { kind: 'user', text: d.text, images: d.images || [], time: envelope.time,
        seq: envelope.seq });
      t.running = true;
      break;
    case 'model_call.started.v1':
      if (!t.byKey.has(`model-${d.requestId}`)) {
        add(t, `model-${d.requestId}`, { kind: 'assistant', text: '', reasoning: '', streaming: true,
          startedAt: Date.parse(envelope.time) });
      }
      break;
    case 'model_call.completed.v1': {
      const key = `model-${d.requestId}`;
      const item = t.byKey.get(key) || add(t, key, { kind: 'assistant' });
      Object.assign(item, { text: d.content || '', reasoning: d.reasoning || '', streaming: false,
        model: d.model, usage: d.usage, completedAt: Date.parse(envelope.time), seq: envelope.seq });
      touch(t, key);
      // The context gauge: how full the window was at this call (absent in logs older than the measure).
      if (d.measure) {
        t.gauge = { used: d.measure.promptTokens || 0, estimated: !!d.measure.estimated,
          window: d.measure.contextWindow || 0 };
      }
      for (const call of d.toolCalls || []) {
        if (!t.byKey.has(`tool-${call.id}`)) {
          add(t, `tool-${call.id}`, { kind: 'tool', callId: call.id, name: call.name, arguments: call.arguments,
            status: 'pending', output: '' });
        }
      }
      break;
    }
    case 'model_call.refused.v1': {
      const key = `model-${d.requestId}`;
      const item = t.byKey.get(key) || add(t, key, { kind: 'assistant' });
      Object.assign(item, { streaming: false, refused: d.reason });
      touch(t, key);
      break;
    }
    case 'model_call.failed.v1': {
      const key = `model-${d.requestId}`;
      const item = t.byKey.get(key) || add(t, key, { kind: 'assistant' });
      Object.assign(item, { streaming: false, error: d.message });
      touch(t, key);
      break;
    }
    case 'tool_call.requested.v1': {
      const key = `tool-${d.callId}`;
      const item = t.byKey.get(key) || add(t, key, { kind: 'tool', callId: d.callId, output: '' });
      Object.assign(item, { name: d.name, arguments: d.arguments, byUser: d.byUser,
        status: item.status === 'pending' || !item.status ? 'requested' : item.status });
      touch(t, key);
      break;
    }
    case 'tool_call.started.v1': {
      const item = touch(t, `tool-${d.callId}`);
      if (item && (item.status === 'pending' || item.status === 'requested')) {
        item.status = 'running';
      }
      break;
    }
    case 'tool_call.completed.v1': {
      const key = `tool-${d.callId}`;
      const item = t.byKey.get(key) || add(t, key, { kind: 'tool', callId: d.callId });
      Object.assign(item, {
        status: d.refusal ? 'refused' : d.interrupted ? 'interrupted' : d.ok ? 'done' : 'failed',
        output: d.output || '', error: d.error || d.refusal || '', diff: d.diff || '', durationMs: d.durationMs,
      });
      touch(t, key);
      break;
    }
    case 'wait.scheduled.v1':
      t.waiting = true;
      add(t, `wait-${d.waitId}`, { kind: 'notice', text: `Waiting until ${d.until}${d.reason ? `: ${d.reason}` : ''}.` });
      break;
    case 'wait.ended.v1':
      t.waiting = false;
      break;
    case 'turn.ended.v1':
      t.running = false;
      t.waiting = false;
      t.awaiting.clear();
      if (d.outcome && d.outcome !== 'COMPLETED') {
        add(t, `end-${envelope.seq}`, { kind: 'notice', text: endNotice(d) });
      }
      break;
    case 'input.rejected.v1':
      add(t, `rejected-${envelope.seq}`, { kind: 'notice', text: `Not accepted: ${d.reason}` });
      break;
    case 'system_prompt.changed.v1':
      add(t, `prompt-${envelope.seq}`, { kind: 'notice', text: d.preset || d.systemPrompt
        ? `System prompt: ${[d.preset ? `the ${d.preset} preset` : '', d.systemPrompt ? 'a text of its own' : '']
          .filter(Boolean).join(' and ')}.` : 'System prompt: the installation\u2019s.' });
      break;
    case 'context.compaction_requested.v1':
      add(t, `compacting-${envelope.seq}`, { kind: 'notice', text: 'Summarising the older conversation…' });
      break;
    case 'context.compacted.v1':
      add(t, `compacted-${envelope.seq}`, { kind: 'notice',
        text: `The older conversation (${d.messagesCovered} messages) was summarised for the prompt.` });
      break;
    case 'context.compaction_failed.v1':
      add(t, `compaction-failed-${envelope.seq}`, { kind: 'notice', text: `Compaction failed: ${d.message}` });
      break;
    case 'plan.created.v1':
      add(t, `plan-${envelope.seq}`, { kind: 'notice', text: d.awaitingApproval
        ? `Plan ${d.number} proposed (${d.steps.length} steps): it waits for your approval.`
        : `Plan ${d.number} made (${d.steps.length} steps).` });
      break;
    case 'notification.posted.v1':
      add(t, `notification-${envelope.seq}`, { kind: 'notice', text: d.message || d.text || 'Notification' });
      break;
    default:
      break;
  }
  return t;
}

/**
 * A fork starts from the source's folded state, not its events: its conversation comes from the state's messages and
 * tool calls. Their seqs are the source's, so they carry none here (they cannot be edited from the fork).
 */
function inherit(t, state) {
  const calls = state.toolCalls || {};
  (state.messages || []).forEach((m, i) => {
    if (m.kind === 'user') {
      add(t, `inherited-${i}`, { kind: 'user', text: m.text, inherited: true });
    } else if (m.kind === 'assistant') {
      add(t, `inherited-${i}`, { kind: 'assistant', text: m.content || '', reasoning: m.reasoning || '',
        streaming: false });
      for (const call of m.toolCalls || []) {
        const view = calls[call.id] || {};
        add(t, `tool-${call.id}`, { kind: 'tool', callId: call.id, name: call.name, arguments: call.arguments,
          status: view.status !== 'COMPLETED' ? 'interrupted' : view.refusal ? 'refused' : view.ok ? 'done' : 'failed',
          output: view.output || '', error: view.error || view.refusal || '', diff: view.diff || '',
          durationMs: view.durationMs });
      }
    } else if (m.kind === 'notice') {
      add(t, `inherited-${i}`, { kind: 'notice', text: m.text });
    }
  });
}

function endNotice(d) {
  switch (d.outcome) {
    case 'CANCELLED': return 'Stopped.';
    case 'ITERATION_CAP': return `Stopped at the step limit${d.message ? `: ${d.message}` : '.'}`;
    case 'LOOP_DETECTED': return `Stopped: the agent was going round in circles${d.message ? ` (${d.message})` : '.'}`;
    default: return `The turn ended: ${d.outcome}${d.message ? ` (${d.message})` : ''}.`;
  }
}

/** Applies a live delta: tokens to the open model call, output to the running command. */
export function applyDelta(t, chunk) {
  if (chunk.kind === 'TOKEN' || chunk.kind === 'REASONING') {
    const key = `model-${chunk.ref}`;
    let item = t.byKey.get(key);
    if (!item) {
      item = add(t, key, { kind: 'assistant', text: '', reasoning: '', streaming: true, startedAt: Date.now() });
    }
    if (!item.streaming) {
      return t;
    }
    if (chunk.kind === 'TOKEN') {
      item.firstTokenAt = item.firstTokenAt || Date.now();
      item.text += chunk.text;
      item.tokens = (item.tokens || 0) + 1;
    } else {
      item.reasoning += chunk.text;
    }
    touch(t, key);
  } else if (chunk.kind === 'OUTPUT') {
    const item = t.byKey.get(`tool-${chunk.ref}`);
    if (item && (item.status === 'running' || item.status === 'requested' || item.status === 'pending')) {
      item.output = (item.output || '') + chunk.text;
      touch(t, item.key);
    }
  }
  return t;
}
