// Every event of a session in order, with its type: the CLI's replay in the browser. Step through it and see the
// conversation as it stood at any event (folded here, no model, no tools), and fork a new session at any event.
// Long logs are shown a page at a time, so a session of thousands of events stays quick.
import { api } from './api.js';
import { clear, h } from './dom.js';
import { applyEvent, emptyTranscript } from './transcript.js';

export const PAGE = 200;

export class TimelineView {
  constructor(root, onForked) {
    this.root = root;
    this.onForked = onForked;
  }

  async open(sessionId) {
    this.sessionId = sessionId;
    this.error = h('p', { class: 'error', role: 'alert' });
    clear(this.root).append(h('p', { class: 'loading' }, 'Loading the log…'));
    try {
      const response = await fetch(`/api/v1/sessions/${encodeURIComponent(sessionId)}/log`,
        { credentials: 'same-origin' });
      if (!response.ok) {
        throw new Error(`the log did not load (${response.status})`);
      }
      this.events = (await response.text()).split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
    } catch (e) {
      clear(this.root).append(h('p', { class: 'error', role: 'alert' }, e.message));
      return;
    }
    this.at = this.events.length ? this.events[this.events.length - 1].seq : 0;
    this.shown = Math.min(PAGE, this.events.length);
    this.render();
  }

  render() {
    const last = this.events.length ? this.events[this.events.length - 1].seq : 0;
    const slider = h('input', { type: 'range', min: this.events.length ? 1 : 0, max: last, value: this.at,
      'aria-label': 'Step through the events', 'data-testid': 'timeline-step',
      oninput: (e) => { this.at = Number(e.target.value); this.render(); } });
    const steps = h('p', { class: 'steps' },
      h('button', { type: 'button', 'data-testid': 'timeline-previous', disabled: this.at <= 1,
        onclick: () => { this.at -= 1; this.render(); } }, '◀ Previous'),
      slider,
      h('button', { type: 'button', 'data-testid': 'timeline-next', disabled: this.at >= last,
        onclick: () => { this.at += 1; this.render(); } }, 'Next ▶'),
      h('span', { class: 'at' }, `event ${this.at} of ${last}`));
    const rows = this.events.slice(0, this.shown).map((e) => h('li',
      { class: `event${e.seq === this.at ? ' current' : ''}${e.seq > this.at ? ' later' : ''}`,
        'data-testid': 'timeline-event', 'data-seq': e.seq },
      h('button', { type: 'button', class: 'seq', 'aria-label': `Show the session at event ${e.seq}`,
        onclick: () => { this.at = e.seq; this.render(); } }, String(e.seq)),
      h('span', { class: 'type' }, e.type),
      h('time', { datetime: e.time }, new Date(e.time).toLocaleTimeString()),
      h('span', { class: 'summary' }, summary(e)),
      h('button', { type: 'button', class: 'fork', 'data-testid': 'timeline-fork',
        onclick: () => this.fork(e.seq) }, 'Fork here')));
    const more = this.shown < this.events.length ? h('button', { type: 'button', class: 'more',
      onclick: () => { this.shown = Math.min(this.events.length, this.shown + PAGE); this.render(); } },
    `Show ${Math.min(PAGE, this.events.length - this.shown)} more of ${this.events.length - this.shown}`) : null;
    clear(this.root).append(h('div', { class: 'timeline' },
      steps, this.error,
      h('div', { class: 'timeline-panes' },
        h('ol', { class: 'events', 'aria-label': 'Events' }, rows, more ? h('li', {}, more) : null),
        h('section', { class: 'state', 'aria-label': `The conversation at event ${this.at}` },
          h('h2', {}, `At event ${this.at}`), stateAt(this.events, this.at)))));
  }

  async fork(seq) {
    try {
      const forked = await api('POST', `/api/v1/sessions/${encodeURIComponent(this.sessionId)}/fork`,
        { atSeq: seq });
      this.onForked(forked.id);
    } catch (e) {
      this.error.textContent = e.message;
    }
  }
}

/** The conversation folded up to seq: what the chat showed right after that event. */
function stateAt(events, seq) {
  const t = emptyTranscript();
  for (const e of events) {
    if (e.seq > seq) {
      break;
    }
    applyEvent(t, e);
  }
  return h('ol', { class: 'transcript replay' }, t.items.map((i) => h('li', { class: `replay-${i.kind}` },
    i.kind === 'user' ? `You: ${i.text}`
      : i.kind === 'assistant' ? `Agent: ${i.text || (i.streaming ? '…' : '')}`
        : i.kind === 'tool' ? `${i.name}: ${i.status}` : i.text)));
}

/** One event in a line of the timeline's list: what it says, cut short. */
export function summary(e) {
  const d = e.data || {};
  switch (e.type) {
    case 'session.created.v1': return d.title || '';
    case 'user_message.posted.v1': return cut(d.text);
    case 'model_call.completed.v1':
      return (d.toolCalls && d.toolCalls.length) ? `asks for ${d.toolCalls.map((c) => c.name).join(', ')}`
        : cut(d.content);
    case 'tool_call.requested.v1': return `${d.name} ${cut(d.arguments, 80)}`;
    case 'tool_call.completed.v1': return `${d.ok ? 'ok' : 'failed'} in ${d.durationMs} ms`;
    case 'turn.ended.v1': return d.outcome;
    case 'permission_mode.changed.v1': return (d.mode || '').toLowerCase();
    case 'approval.requested.v1': return `${d.tool} (${(d.risk || '').toLowerCase()} risk) ${cut(d.arguments, 80)}`;
    case 'approval.decided.v1': return `${(d.decision || '').toLowerCase()}${d.decidedBy ? ` by ${d.decidedBy}` : ''}`
      + `${d.note ? `: ${cut(d.note, 80)}` : ''}`;
    case 'notification.posted.v1': return cut(d.message);
    case 'sub_agent.started.v1': return `${cut(d.description, 80)} (sub-agent ${d.childSessionId})`;
    case 'sub_agent.finished.v1': return `${d.outcome} (sub-agent ${d.childSessionId})`;
    default: return '';
  }
}

function cut(text, max = 120) {
  const s = (text || '').replace(/\s+/g, ' ');
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}
