// The chat's planning panel: the open session's todos, plan and task state (docs/api.md "Todos, plan and task
// state"), above the composer and folded shut on request. The server's fold is the truth: the panel reads
// GET /sessions/{id}/planning when the session opens and again when a planning event arrives on the event stream,
// so it never folds the planning events a second time in the browser. A plan that waits for a person (plan-first
// mode) shows Approve and Reject, with a note the model reads on a rejection.
import { api } from './api.js';
import { clear, h } from './dom.js';

export class PlanningPanel {
  constructor(sessionId) {
    this.sessionId = sessionId;
    this.body = h('div', { class: 'planning-body' });
    this.summary = h('summary', { 'data-testid': 'planning-summary' }, 'Plan');
    // Open by default; whether a person folded it shut is remembered for the page's life.
    this.root = h('details', { class: 'planning', 'data-testid': 'planning', open: PlanningPanel.open !== false,
      hidden: true, ontoggle: () => { PlanningPanel.open = this.root.open; } }, this.summary, this.body);
    this.error = h('p', { class: 'error', role: 'alert' });
  }

  /** Reads the planning state again, at most one request at a time (a burst of events makes one more read). */
  async refresh() {
    if (this.loading) {
      this.again = true;
      return;
    }
    this.loading = true;
    try {
      this.draw(await api('GET', `/api/v1/sessions/${encodeURIComponent(this.sessionId)}/planning`));
    } catch (e) {
      this.error.textContent = e.message;
    } finally {
      this.loading = false;
      if (this.again) {
        this.again = false;
        this.refresh();
      }
    }
  }

  draw(p) {
    const todos = p.todos || [];
    const plan = p.plan;
    const task = p.taskState;
    this.root.hidden = !p.planFirst && !todos.length && !plan && !task;
    this.root.dataset.planStatus = plan ? plan.status : '';
    const parts = [];
    if (plan) {
      const done = plan.steps.filter((s) => s.status !== 'pending').length;
      parts.push(`Plan ${plan.status === 'proposed' ? 'waits for your approval'
        : `${plan.status}, ${done}/${plan.steps.length} steps`}`);
    } else if (p.planFirst) {
      parts.push('Plan first: no plan yet');
    }
    if (todos.length) {
      parts.push(`todos ${todos.filter((t) => t.status === 'done').length}/${todos.filter((t) => t.status !== 'cancelled').length}`);
    }
    if (task) {
      parts.push(`task ${(task.done || []).length}${task.total ? `/${task.total}` : ''} done`);
    }
    this.summary.textContent = parts.join(' · ');
    // Keep a note being typed: the panel redraws while the model works.
    const typing = this.body.contains(document.activeElement) && document.activeElement.tagName === 'INPUT';
    if (typing && plan && plan.status === 'proposed') {
      return;
    }
    // Element.append would write a null as the text "null": only what is there.
    clear(this.body).append(...[
      plan ? this.planView(plan) : null,
      todos.length ? h('section', { 'aria-label': 'Todos' }, h('h3', {}, 'Todos'),
        h('ul', { class: 'todos' }, todos.map((t) => h('li', { class: `todo ${t.status}`, 'data-testid': 'todo',
          'data-status': t.status }, h('span', { class: 'mark', 'aria-hidden': 'true' }, MARKS[t.status] || '•'),
        ` ${t.text}`, h('span', { class: 'visually-hidden' }, ` (${t.status.replace('_', ' ')})`),
        t.note ? h('span', { class: 'hint' }, ` — ${t.note}`) : null)))) : null,
      task ? taskView(task) : null,
      this.error].filter(Boolean));
  }

  planView(plan) {
    const steps = h('ol', { class: 'plan-steps' }, plan.steps.map((s, i) => h('li', {
      class: `plan-step ${s.status}${plan.status === 'active' && plan.currentStep === i + 1 ? ' current' : ''}`,
      'data-testid': 'plan-step', 'data-status': s.status,
      'aria-current': plan.status === 'active' && plan.currentStep === i + 1 ? 'step' : undefined },
    h('span', { class: 'mark', 'aria-hidden': 'true' }, MARKS[s.status] || '•'), ` ${s.text}`,
    h('span', { class: 'visually-hidden' }, ` (${s.status})`),
    s.evidence ? h('span', { class: 'hint' }, ` — ${s.evidence}`) : null,
    s.reason ? h('span', { class: 'hint' }, ` — skipped: ${s.reason}`) : null)));
    return h('section', { class: 'plan', 'data-testid': 'plan', 'data-status': plan.status, 'aria-label': 'Plan' },
      h('h3', {}, `Plan ${plan.number}${plan.title ? `: ${plan.title}` : ''} `,
        h('span', { class: `plan-status ${plan.status}` }, `(${plan.status})`)),
      steps,
      plan.note ? h('p', { class: 'hint' }, plan.note) : null,
      plan.status === 'proposed' ? this.decision() : null);
  }

  /** Approve or reject the proposed plan; the panel redraws when the decision reaches the log. */
  decision() {
    const note = h('input', { type: 'text', 'data-testid': 'plan-note', maxlength: 4000,
      'aria-label': 'A note on the plan (the agent reads it when you reject)',
      placeholder: 'A note (the agent reads it if you reject)' });
    const error = h('p', { class: 'error', role: 'alert' });
    const decide = async (decision, button) => {
      button.disabled = true;
      try {
        await api('POST', `/api/v1/sessions/${encodeURIComponent(this.sessionId)}/plan/decision`,
          { decision, note: note.value.trim() || undefined });
        error.textContent = '';
        note.blur();
      } catch (e) {
        error.textContent = e.message;
        button.disabled = false;
      }
    };
    return h('div', { class: 'plan-decision' }, note,
      h('div', { class: 'approval-actions' },
        h('button', { type: 'button', 'data-testid': 'plan-approve', onclick: (e) => decide('approve', e.target) },
          'Approve plan'),
        h('button', { type: 'button', class: 'danger', 'data-testid': 'plan-reject',
          onclick: (e) => decide('reject', e.target) }, 'Reject')),
      error);
  }
}

const MARKS = { done: '✓', in_progress: '▸', pending: '○', cancelled: '✗', skipped: '↷' };

function taskView(task) {
  const done = (task.done || []).length;
  const failed = (task.failed || []).length;
  return h('section', { class: 'task-state', 'data-testid': 'task-state', 'aria-label': 'Task state' },
    h('h3', {}, `Task${task.task ? `: ${task.task}` : ''}`),
    task.total ? h('progress', { max: task.total, value: done, 'aria-label': 'Items done' }) : null,
    h('p', {}, `${done}${task.total ? ` of ${task.total}` : ''} done${failed ? `, ${failed} failed` : ''}`,
      task.updatedAt ? h('span', { class: 'hint' }, ` · ${new Date(task.updatedAt).toLocaleTimeString()}`) : null),
    failed ? h('p', { class: 'hint' }, `Failed: ${task.failed.join(', ')}`) : null,
    task.notes ? h('p', { class: 'hint' }, task.notes) : null);
}
