// One session's chat: the transcript (transcript.js) kept live from the session's event stream, drawn item by item,
// and the composer. Opening a session reads its log in one request and folds it a slice at a time, then follows the
// event stream from the log's last event. The stream is an EventSource: when it reconnects the browser sends
// Last-Event-ID by itself, and a page refresh reads the log again, so the transcript comes back whole.
import { api, upload } from './api.js';
import { clear, h } from './dom.js';
import { renderMarkdown } from './markdown.js';
import { approvalControls } from './approvals.js';
import { applyDelta, applyEvent, CONTEXT_TYPES, EVENT_TYPES, emptyTranscript, PLANNING_TYPES }
  from './transcript.js';
import { commandNamed, Completion } from './commands.js';
import { PlanningPanel } from './planning.js';
import { drawGauge, PromptPanel } from './context.js';

/** How many transcript items the page holds at first; "Show earlier" adds as many again. */
const WINDOW = 150;
/**
 * How long one task may fold or draw before it lets the browser handle input: a page feels instant when no task
 * blocks it for more than 50 ms, and a frame also has to lay out and paint what was drawn.
 */
const SLICE_MS = 12;

/** After these the planning panel reads the session's todos and plan again (a decision approves or rejects a plan). */
const PLANNING_EVENTS = new Set([...PLANNING_TYPES, 'approval.decided.v1', 'turn.ended.v1']);
/** After these the prompt panel reads the session's context again. */
const CONTEXT_EVENTS = new Set(CONTEXT_TYPES);

const STATUS_EVENTS = new Set(['session.created.v1', 'approval.requested.v1', 'approval.decided.v1',
  'wait.scheduled.v1', 'wait.ended.v1', 'session.renamed.v1']);

export class ChatView {
  constructor(root, onActivity, onForked, commandContext) {
    this.root = root;
    this.onActivity = onActivity;
    this.onForked = onForked;
    this.commandContext = commandContext;
    this.nodes = new Map();
    this.stream = null;
  }

  open(sessionId) {
    this.close();
    this.sessionId = sessionId;
    this.transcript = emptyTranscript();
    this.nodes.clear();
    this.list = h('ol', { class: 'transcript', 'aria-live': 'polite', 'aria-label': 'Conversation' });
    this.shown = WINDOW;
    this.first = 0;
    this.earlier = h('button', { type: 'button', class: 'earlier', 'data-testid': 'show-earlier', hidden: true,
      onclick: () => { this.shown += WINDOW; this.drawNow(); } }, 'Show earlier');
    this.input = h('textarea', { 'data-testid': 'composer-input', rows: 3, 'aria-label': 'Message',
      placeholder: 'Ask the agent… (Enter sends, Shift+Enter for a new line, / for commands, ? for help)',
      onkeydown: (e) => this.key(e), oninput: () => this.completion.update(this.input.value) });
    this.completion = new Completion();
    this.send = h('button', { type: 'submit', 'data-testid': 'composer-send' }, 'Send');
    // Images for the next message: uploaded into the workspace (uploads/…) when chosen, sent by path with it.
    this.images = [];
    this.attached = h('span', { class: 'attached', 'data-testid': 'attached-images', 'aria-live': 'polite' });
    this.attach = h('label', { class: 'attach', title: 'Attach images to your next message (the session\'s model '
        + 'must take images)' }, 'Image…', h('input', { type: 'file', accept: 'image/png,image/jpeg,image/gif,image/webp',
      multiple: true, 'data-testid': 'attach-image', onchange: (e) => this.attachImages(e.target.files) }));
    this.stop = h('button', { type: 'button', 'data-testid': 'stop', class: 'stop', hidden: true,
      onclick: () => this.cancel() }, 'Stop');
    this.error = h('p', { class: 'error', role: 'alert' });
    this.stats = h('p', { class: 'stats', 'aria-live': 'off' });
    this.gauge = h('span', { class: 'gauge', 'data-testid': 'context-gauge', hidden: true });
    this.context = null;
    this.planning = new PlanningPanel(sessionId);
    this.prompt = new PromptPanel(sessionId);
    // Which of the agent's calls wait for a person; changed at any time, also while a turn runs.
    this.mode = h('select', { 'data-testid': 'permission-mode', 'aria-label': 'Permission mode',
      title: 'auto: no approvals; normal: approve calls that change files, run commands or reach the network; '
        + 'manual: approve every call',
      onchange: () => this.setMode(this.mode.value) },
    ['auto', 'normal', 'manual'].map((m) => h('option', { value: m }, m)));
    const form = h('form', { class: 'composer', onsubmit: (e) => { e.preventDefault(); this.post(); } },
      this.completion.list, this.input, h('div', { class: 'composer-actions' },
        h('div', { class: 'live' }, this.stats, this.gauge), this.attached, this.attach, this.mode, this.stop,
        this.send));
    clear(this.root).append(h('div', { class: 'scroll' }, this.earlier, this.list), this.error,
      h('div', { class: 'session-panels' }, this.planning.root, this.prompt.root), form);
    this.input.focus();
    const opened = {};
    this.opened = opened;
    this.readLog(sessionId, opened).then(() => {
      if (this.opened === opened) {
        this.follow(sessionId);
        this.planning.refresh();
        this.readContext(opened);
      }
    });
  }

  /**
   * The session's log so far, in one request, folded a slice at a time (SLICE_MS each) with a pause for input in
   * between. Replaying a long session through the event stream instead costs one browser task per event, thousands
   * of them, and blocks the page. If the log does not load, the event stream replays it all the same.
   */
  async readLog(sessionId, opened) {
    let lines;
    try {
      const response = await fetch(`/api/v1/sessions/${encodeURIComponent(sessionId)}/log`,
        { credentials: 'same-origin' });
      if (!response.ok) {
        return;
      }
      lines = (await response.text()).split('\n');
    } catch (e) {
      return;
    }
    let next = 0;
    while (next < lines.length) {
      if (this.opened !== opened) {
        return; // closed, or another session was opened meanwhile
      }
      const until = performance.now() + SLICE_MS;
      while (next < lines.length && performance.now() < until) {
        const line = lines[next++];
        if (line.trim()) {
          applyEvent(this.transcript, JSON.parse(line));
        }
      }
      this.draw();
      await new Promise((resolve) => { setTimeout(resolve, 0); });
    }
  }

  /** Live events after what the log gave, and the deltas of the reply being written. */
  follow(sessionId) {
    this.stream = new EventSource(`/api/v1/sessions/${encodeURIComponent(sessionId)}/events`
      + `?after=${this.transcript.lastSeq}`);
    for (const type of EVENT_TYPES) {
      this.stream.addEventListener(type, (e) => this.event(JSON.parse(e.data)));
    }
    this.stream.addEventListener('delta', (e) => {
      applyDelta(this.transcript, JSON.parse(e.data));
      this.draw();
    });
    this.stream.onerror = () => {
      // The browser reconnects by itself and resumes after the last event it saw.
      this.error.textContent = this.stream.readyState === EventSource.CLOSED ? 'The event stream closed.' : '';
    };
    this.stream.onopen = () => { this.error.textContent = ''; };
  }

  close() {
    this.opened = null;
    if (this.stream) {
      this.stream.close();
      this.stream = null;
    }
  }

  /** The session view's context: the gauge before the log measured a call, the prompt panel. */
  async readContext(opened) {
    try {
      const details = await api('GET', `/api/v1/sessions/${encodeURIComponent(this.sessionId)}`);
      if (this.opened === opened) {
        this.context = details.context || null;
        this.prompt.draw(this.context);
        this.prompt.drawModel(details.model);
        this.draw();
      }
    } catch (e) {
      // The panel stays as it was; the chat itself does not depend on it.
    }
  }

  event(envelope) {
    const wasRunning = this.transcript.running;
    applyEvent(this.transcript, envelope);
    this.draw();
    if (PLANNING_EVENTS.has(envelope.type)) {
      this.planning.refresh();
    }
    if (CONTEXT_EVENTS.has(envelope.type)) {
      this.readContext(this.opened);
    }
    // The sidebar shows each session's status: refreshed when this one's changes.
    if (wasRunning !== this.transcript.running || STATUS_EVENTS.has(envelope.type)) {
      this.onActivity?.();
    }
  }

  /**
   * Draws at most once a frame: opening a long session replays thousands of events, and drawing after each one
   * would lay the page out thousands of times. The transcript is folded at once; the screen catches up per frame.
   */
  draw() {
    if (!this.drawPending) {
      this.drawPending = true;
      requestAnimationFrame(() => {
        this.drawPending = false;
        this.drawNow();
      });
    }
  }

  /**
   * Only the latest {@link WINDOW} items are in the page (more on "Show earlier"): a session of thousands of events
   * would otherwise render hundreds of markdown answers at once and block the page.
   */
  drawNow() {
    const t = this.transcript;
    const first = Math.max(0, t.items.length - this.shown);
    for (let i = this.first; i < first; i++) {
      this.nodes.get(t.items[i].key)?.remove();
      this.nodes.delete(t.items[i].key);
    }
    if (first < this.first) {
      const anchor = this.list.firstChild;
      for (let i = first; i < this.first; i++) {
        const node = this.item(t.items[i]);
        this.list.insertBefore(node, anchor);
        this.nodes.set(t.items[i].key, node);
      }
    }
    this.first = first;
    // Items for at most SLICE_MS a frame (a markdown answer costs about a millisecond): opening a long session then
    // fills the page over a few frames instead of blocking it for one long one.
    const until = performance.now() + SLICE_MS;
    let drawn = 0;
    for (const key of t.changed) {
      if (drawn > 0 && performance.now() >= until) {
        break;
      }
      t.changed.delete(key);
      const item = t.byKey.get(key);
      if (item.index < first) {
        continue;
      }
      drawn += 1;
      const fresh = this.item(item);
      const old = this.nodes.get(key);
      if (old) {
        old.replaceWith(fresh);
      } else {
        this.list.append(fresh);
      }
      this.nodes.set(key, fresh);
    }
    const more = t.changed.size > 0;
    if (more) {
      this.draw();
    }
    this.earlier.hidden = first === 0;
    this.earlier.textContent = `Show ${Math.min(WINDOW, first)} earlier of ${first}`;
    const follow = drawn > 0;
    // For automation (the UI benchmark, tests): the last event whose items are all drawn.
    if (!more) {
      this.list.dataset.lastSeq = String(t.lastSeq);
    }
    this.stop.hidden = !t.running;
    if (t.mode && document.activeElement !== this.mode) {
      this.mode.value = t.mode;
    }
    // While the agent works, what you send is a whisper for its next step; while it waits, a message wakes it.
    const whispering = t.running && !t.waiting && !t.awaiting.size;
    this.send.textContent = whispering ? 'Whisper' : 'Send';
    this.send.title = whispering ? 'A note the agent reads at its next step, without stopping it' : '';
    this.stats.textContent = statsOf(t);
    drawGauge(this.gauge, t.gauge, this.context);
    if (follow) {
      this.list.lastElementChild?.scrollIntoView({ block: 'end', behavior: 'auto' });
    }
  }

  item(item) {
    switch (item.kind) {
      case 'user':
        return h('li', { class: 'message user', 'data-testid': 'message-user' }, h('p', {}, item.text),
          item.images && item.images.length ? h('p', { class: 'images', 'data-testid': 'message-images' },
            `🖼 ${item.images.join(', ')}`) : null,
          item.inherited ? null : h('span', { class: 'message-actions' },
            h('button', { type: 'button', 'data-testid': 'message-edit',
              title: 'Edit and send again, in a fork of this session from before this message',
              onclick: (e) => this.edit(item, e.target.closest('li')) }, 'Edit'),
            h('button', { type: 'button', 'data-testid': 'message-regenerate',
              title: 'Ask again, in a fork of this session from before this message',
              onclick: () => this.resend(item.seq, item.text) }, 'Regenerate')));
      case 'assistant': {
        const body = h('div', { class: 'markdown' });
        renderMarkdown(body, item.text);
        return h('li', { class: `message assistant${item.streaming ? ' streaming' : ''}`,
            'data-testid': 'message-assistant', 'aria-busy': item.streaming ? 'true' : 'false' },
          item.reasoning ? h('details', { class: 'reasoning' }, h('summary', {}, 'Reasoning'),
            h('pre', {}, item.reasoning)) : null,
          body,
          item.error ? h('p', { class: 'error' }, `The model call failed: ${item.error}`) : null,
          item.refused ? h('p', { class: 'error', 'data-testid': 'model-refused' },
            `Not sent to the model: ${item.refused}`) : null,
          this.thumbs(item));
      }
      case 'tool':
        return h('li', { class: `tool-call ${item.status}`, 'data-testid': 'tool-call', 'data-status': item.status },
          h('details', { open: item.status === 'running' || item.status === 'failed' || item.status === 'approval' },
            h('summary', {}, h('span', { class: 'tool-name' }, item.name || 'tool'), ' ',
              h('span', { class: 'tool-status' }, statusText(item)),
              item.byUser ? h('span', { class: 'by-user' }, ' (run by a person)') : null),
            item.status === 'approval' && item.approval
              ? approvalControls(this.sessionId, item.approval, () => {}) : null,
            h('pre', { class: 'arguments', 'aria-label': 'Arguments' }, pretty(item.arguments)),
            item.output ? h('pre', { class: 'output', 'aria-label': 'Output' }, item.output) : null,
            item.error ? h('pre', { class: 'error', 'aria-label': 'Error' }, item.error) : null,
            item.diff ? h('pre', { class: 'diff', 'aria-label': 'Changes' }, item.diff) : null),
          item.decision ? h('p', { class: 'decision' }, decisionText(item.decision)) : null);
      case 'subagent':
        return h('li', { class: `subagent-card ${item.outcome ? 'finished' : 'running'}`, 'data-testid': 'subagent-card',
            'data-outcome': item.outcome || 'RUNNING' },
          h('span', { class: 'subagent-label' }, 'Sub-agent '),
          h('a', { href: `#/s/${item.sessionId}`, 'data-testid': 'subagent-link' }, item.description || item.sessionId),
          h('span', { class: 'subagent-status' }, item.outcome ? ` ${item.outcome.toLowerCase().replace('_', ' ')}`
            : ' working…'));
      case 'parent':
        return h('li', { class: 'notice subagent-parent', 'data-testid': 'subagent-parent' },
          'A sub-agent, started by ', h('a', { href: `#/s/${item.sessionId}`, 'data-testid': 'parent-link' },
            'its parent session'), '.');
      default:
        return h('li', { class: 'notice' }, item.text);
    }
  }

  /**
   * Thumbs up and down on a finished answer with text: POST …/feedback, recorded as feedback.recorded.v1, which moves
   * the scores of the memory insights that shaped the answer (docs/memory.md#feedback). The pressed thumb is the
   * latest vote in the log; none in an incognito session, whose votes do not reach memory.
   */
  thumbs(item) {
    if (item.streaming || !item.seq || !item.text || this.transcript?.incognito) {
      return null;
    }
    const vote = (v, label, text) => h('button', { type: 'button', class: 'thumb', 'data-testid': `thumbs-${v}`,
      title: label, 'aria-label': label, 'aria-pressed': item.vote === v ? 'true' : 'false',
      onclick: async (e) => {
        e.target.disabled = true;
        try {
          await api('POST', `/api/v1/sessions/${encodeURIComponent(this.sessionId)}/feedback`, { seq: item.seq, vote: v });
        } catch (err) {
          e.target.title = `Not recorded: ${err.message}`;
        } finally {
          e.target.disabled = false;
        }
      } }, text);
    return h('span', { class: 'message-actions feedback' },
      vote('up', 'Good answer', '👍'), vote('down', 'Bad answer', '👎'));
  }

  /** Edits a message in place; sending makes a fork from before it, so the original stays as it was. */
  edit(item, node) {
    const text = h('textarea', { rows: 3, 'aria-label': 'Edited message', 'data-testid': 'message-edit-input' });
    text.value = item.text;
    const editor = h('form', { class: 'edit', onsubmit: (e) => { e.preventDefault(); this.resend(item.seq, text.value); } },
      text, h('button', { type: 'submit', 'data-testid': 'message-edit-send' }, 'Send in a fork'),
      h('button', { type: 'button', onclick: () => editor.replaceWith(this.item(item)) }, 'Cancel'));
    node.replaceWith(editor);
    this.nodes.set(item.key, editor);
    text.focus();
  }

  /**
   * Edit and regenerate both go through the log's fork: a new session from the event before the message, with the
   * (edited) message sent again. Nothing of the original session changes, and both stay in the sidebar.
   */
  async resend(seq, text) {
    if (!text.trim()) {
      return;
    }
    try {
      const forked = await api('POST', `/api/v1/sessions/${encodeURIComponent(this.sessionId)}/fork`,
        { atSeq: seq - 1 });
      await api('POST', `/api/v1/sessions/${encodeURIComponent(forked.id)}/messages`, { text: text.trim() });
      this.onForked?.(forked.id);
    } catch (e) {
      this.error.textContent = e.message;
    }
  }

  key(e) {
    if (e.key === 'Tab' && this.completion.first) {
      e.preventDefault();
      this.input.value = this.completion.first.name;
      this.completion.update(this.input.value);
    } else if (e.key === 'Escape' && this.transcript.running) {
      e.preventDefault();
      this.cancel();
    } else if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      this.post();
    }
  }

  /** Forks this session at its latest event and opens the fork (the /fork command). */
  async forkHere() {
    try {
      const forked = await api('POST', `/api/v1/sessions/${encodeURIComponent(this.sessionId)}/fork`,
        { atSeq: this.transcript.lastSeq });
      this.onForked?.(forked.id);
    } catch (e) {
      this.error.textContent = e.message;
    }
  }

  async post() {
    const text = this.input.value.trim();
    const command = commandNamed(text);
    if (command) {
      this.input.value = '';
      this.completion.update('');
      command.run({ ...this.commandContext, chat: this });
      return;
    }
    if (!text) {
      return;
    }
    this.error.textContent = '';
    const whisper = this.transcript.running && !this.transcript.waiting && !this.transcript.awaiting.size;
    const images = whisper ? [] : this.images;
    try {
      await api('POST', `/api/v1/sessions/${encodeURIComponent(this.sessionId)}/${whisper ? 'whisper' : 'messages'}`,
        images.length ? { text, images } : { text });
      this.input.value = '';
      if (images.length) {
        this.images = [];
        this.attached.textContent = '';
      }
    } catch (e) {
      this.error.textContent = e.message;
    }
  }

  /**
   * Uploads the chosen images into the session's workspace (uploads/NAME, the files route, while no turn runs) and
   * keeps their paths for the next message: the log names an image by its path, the sandbox-worker reads it.
   */
  async attachImages(files) {
    for (const file of files) {
      const path = `uploads/${file.name}`;
      try {
        await upload(`/api/v1/sessions/${encodeURIComponent(this.sessionId)}/files/uploads/`
          + encodeURIComponent(file.name), file);
        this.images.push(path);
        this.error.textContent = '';
      } catch (e) {
        this.error.textContent = `${file.name}: ${e.message}`;
      }
    }
    this.attached.textContent = this.images.length ? `🖼 ${this.images.join(', ')}` : '';
  }

  /** Asks for the older conversation to be summarised now (the /compact command); a 409 says why not. */
  async compact() {
    try {
      await api('POST', `/api/v1/sessions/${encodeURIComponent(this.sessionId)}/compact`);
      this.error.textContent = '';
    } catch (e) {
      this.error.textContent = e.message;
    }
  }

  async setMode(mode) {
    try {
      await api('PUT', `/api/v1/sessions/${encodeURIComponent(this.sessionId)}/mode`, { mode });
      this.error.textContent = '';
    } catch (e) {
      this.error.textContent = e.message;
    }
  }

  async cancel() {
    try {
      await api('POST', `/api/v1/sessions/${encodeURIComponent(this.sessionId)}/cancel`);
    } catch (e) {
      this.error.textContent = e.message;
    }
  }
}

function decisionText(d) {
  const who = d.by ? ` by ${d.by}` : '';
  const note = d.note ? `: “${d.note}”` : '';
  switch (d.decision) {
    case 'APPROVED': return `Approved${who}${note}.`;
    case 'ALWAYS': return `Allowed for the rest of the session${who}${note}.`;
    case 'DENIED': return `Denied${who}${note}.`;
    case 'EXPIRED': return 'Nobody decided in time: denied.';
    default: return d.decision;
  }
}

function statusText(item) {
  switch (item.status) {
    case 'approval': return 'needs your approval';
    case 'pending': return 'pending';
    case 'requested': return 'waiting for a sandbox';
    case 'running': return 'running…';
    case 'done': return `done in ${item.durationMs} ms`;
    case 'failed': return `failed after ${item.durationMs} ms`;
    case 'refused': return 'refused';
    case 'interrupted': return 'interrupted';
    default: return item.status || '';
  }
}

function pretty(json) {
  try {
    return JSON.stringify(JSON.parse(json), null, 2);
  } catch {
    return json || '';
  }
}

/** Time to first token and tokens per second of the latest model call, and the session's tokens so far. */
function statsOf(t) {
  const calls = t.items.filter((i) => i.kind === 'assistant');
  const last = calls[calls.length - 1];
  const total = calls.reduce((sum, c) => sum + (c.usage ? c.usage.totalTokens : 0), 0);
  const parts = [];
  if (last && last.firstTokenAt && last.startedAt) {
    parts.push(`first token ${Math.max(0, last.firstTokenAt - last.startedAt)} ms`);
  }
  if (last && last.usage && last.completedAt && last.startedAt && last.completedAt > last.startedAt) {
    parts.push(`${(last.usage.completionTokens / ((last.completedAt - last.startedAt) / 1000)).toFixed(1)} tokens/s`);
  }
  if (total > 0) {
    parts.push(`${total} tokens in this session`);
  }
  return parts.join(' · ');
}
