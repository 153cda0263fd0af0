// What the open session's prompt is made of (docs/api.md "Context"): the context gauge next to the live stats, and
// a folded panel with the session's system prompt (a preset and/or a text of its own, changeable at any time), its
// own model and sampling (docs/api.md "Models and sampling"), the workspace's context files (read-only) and the
// summary of a compacted conversation.
import { api } from './api.js';
import { clear, h } from './dom.js';

let presets = null;
let models = null;

/** The models the caller's model server lists, asked for once per page; none when the server does not answer. */
function loadModels() {
  if (!models) {
    models = api('GET', '/api/v1/models').then((list) => list.models || []).catch(() => []);
  }
  return models;
}

/** What the model list says a model can do, as short words: "32768 tokens", "vision", "no tools" … */
export function traits(m) {
  const out = [];
  if (m.contextWindow) {
    out.push(`${m.contextWindow} tokens`);
  }
  for (const [key, word] of [['vision', 'vision'], ['tools', 'tools'], ['thinking', 'thinking']]) {
    if (m[key] === true) {
      out.push(word);
    } else if (m[key] === false) {
      out.push(`no ${word}`);
    }
  }
  return out;
}

/** Number inputs for a sampling choice; empty means "not chosen here". */
export function samplingInputs(prefix) {
  const number = (name, attributes) => h('input', { type: 'number', id: `${prefix}-${name}`,
    'data-testid': `${prefix}-${name}`, inputmode: 'decimal', ...attributes });
  return {
    temperature: number('temperature', { min: 0, max: 2, step: 0.05 }),
    topP: number('top-p', { min: 0, max: 1, step: 0.05 }),
    maxTokens: number('max-tokens', { min: 1, max: 1000000, step: 1 }),
  };
}

/** The labelled inputs, in a row. */
export function samplingRow(prefix, inputs) {
  return h('div', { class: 'sampling' },
    h('label', { for: `${prefix}-temperature` }, 'Temperature'), inputs.temperature,
    h('label', { for: `${prefix}-top-p` }, 'Top p'), inputs.topP,
    h('label', { for: `${prefix}-max-tokens` }, 'Max tokens'), inputs.maxTokens);
}

/** The sampling chosen in the inputs, with only the fields filled in. */
export function samplingOf(inputs) {
  const out = {};
  for (const [key, input] of Object.entries(inputs)) {
    if (input.value !== '') {
      out[key] = Number(input.value);
    }
  }
  return out;
}

/** Fills the inputs from a chosen sampling (absent fields: empty). */
export function showSampling(inputs, chosen) {
  for (const [key, input] of Object.entries(inputs)) {
    input.value = chosen && chosen[key] !== undefined && chosen[key] !== null ? String(chosen[key]) : '';
  }
}

/** The presets, asked for once per page. */
export async function loadPresets() {
  if (!presets) {
    presets = api('GET', '/api/v1/presets').catch((e) => { presets = null; throw e; });
  }
  return presets;
}

/** A preset picker: "none" and every preset, with its description as the option's title. */
export function presetSelect(attributes, selected) {
  const select = h('select', attributes, h('option', { value: '' }, 'No preset'));
  loadPresets().then((list) => {
    select.append(...list.map((p) => h('option', { value: p.name, title: p.description }, p.title || p.name)));
    // The value wanted before the options were there (see PromptPanel.draw).
    select.value = select.dataset.value || selected || '';
  }).catch(() => {});
  return select;
}

/**
 * The gauge: the last model call's prompt tokens against the model's window. {@code fromLog} is the transcript's
 * fold of model_call.completed.v1's measure; {@code fromState} the session view's context, for a session whose log
 * has no measure (a fork starts from its source's state).
 */
export function drawGauge(element, fromLog, fromState) {
  const used = fromLog ? fromLog.used : fromState?.tokensUsed || 0;
  const estimated = fromLog ? fromLog.estimated : !!fromState?.tokensEstimated;
  const window = (fromLog && fromLog.window) || fromState?.window || 0;
  element.hidden = used <= 0;
  if (used <= 0) {
    return;
  }
  const share = window ? used / window : 0;
  element.dataset.estimated = String(estimated);
  element.dataset.tokens = String(used);
  element.dataset.window = String(window);
  element.classList.toggle('high', share >= 0.8);
  const approx = estimated ? '~' : '';
  const text = window
    ? `context ${approx}${used.toLocaleString()} / ${window.toLocaleString()} (${Math.round(share * 100)}%)`
    : `context ${approx}${used.toLocaleString()} tokens (window unknown)`;
  const meter = window ? h('meter', { min: 0, max: window, value: used, low: window * 0.6, high: window * 0.8,
    optimum: 0, 'aria-hidden': 'true' }) : null;
  clear(element).append(...[meter, h('span', {}, text),
    estimated ? h('span', { class: 'estimated', title: 'The model server reported no usage: about four characters a '
      + 'token' }, ' estimated') : null].filter(Boolean));
  element.title = `The last model call's prompt, against the model's context window${estimated ? ' (estimated)' : ''}`;
  element.setAttribute('aria-label', `${text}${estimated ? ', estimated' : ''}`);
}

/** The folded "Prompt" panel above the composer. */
export class PromptPanel {
  constructor(sessionId) {
    this.sessionId = sessionId;
    this.preset = presetSelect({ 'data-testid': 'session-preset', id: 'session-preset',
      onchange: () => { this.dirty = true; } });
    this.text = h('textarea', { id: 'session-system-prompt', 'data-testid': 'session-system-prompt', rows: 4,
      maxlength: 16000, oninput: () => { this.dirty = true; }, placeholder: 'The session\u2019s own system prompt (empty: the installation\u2019s). '
        + 'Variables: {date} {time} {day} {model} {user} {memories}' });
    this.note = h('p', { role: 'status', class: 'status' });
    // The session's own model and sampling; a datalist offers what the model server lists.
    this.model = h('input', { id: 'session-model', 'data-testid': 'session-model', list: 'session-models',
      maxlength: 200, placeholder: 'yours, else the installation’s', oninput: () => { this.modelDirty = true; } });
    this.modelList = h('datalist', { id: 'session-models' });
    loadModels().then((list) => this.modelList.append(...list.map((m) => h('option',
      { value: m.id, label: [m.id, ...traits(m)].join(' · ') }))));
    this.sampling = samplingInputs('session');
    // Reasoning controls: part of the session's choice, sent as reasoning_effort and a thinking budget.
    this.effort = h('select', { id: 'session-reasoning-effort', 'data-testid': 'session-reasoning-effort',
      onchange: () => { this.modelDirty = true; } },
    h('option', { value: '' }, 'not set'), ...['low', 'medium', 'high'].map((e) => h('option', { value: e }, e)));
    this.budget = h('input', { type: 'number', id: 'session-thinking-budget', 'data-testid': 'session-thinking-budget',
      min: 1, max: 1000000, step: 1, inputmode: 'numeric', oninput: () => { this.modelDirty = true; } });
    Object.values(this.sampling).forEach((input) => input.addEventListener('input', () => { this.modelDirty = true; }));
    this.modelNote = h('p', { role: 'status', class: 'status' });
    this.lastCall = h('p', { class: 'hint', 'data-testid': 'session-last-call' });
    this.files = h('ul', { class: 'context-files', 'data-testid': 'context-files' });
    this.summaryText = h('p', { class: 'hint' });
    this.summaryBody = h('pre', { class: 'summary-text', 'data-testid': 'context-summary' });
    this.summaryBox = h('details', { hidden: true }, h('summary', {}, 'The summary the prompt carries'),
      this.summaryBody);
    this.summary = h('summary', {}, 'Prompt');
    this.root = h('details', { class: 'prompt-panel', 'data-testid': 'prompt-panel' }, this.summary,
      h('form', { onsubmit: (e) => { e.preventDefault(); this.save(); } },
        h('label', { for: 'session-preset' }, 'Preset'), this.preset,
        h('label', { for: 'session-system-prompt' }, 'System prompt'), this.text,
        h('p', {}, h('button', { type: 'submit', 'data-testid': 'session-system-prompt-save' }, 'Save'),
          ' ', h('span', { class: 'hint' }, 'Applies from the next model call.')), this.note),
      h('h3', {}, 'Model'),
      h('form', { onsubmit: (e) => { e.preventDefault(); this.saveModel(); } },
        h('label', { for: 'session-model' }, 'Model'), this.model, this.modelList,
        samplingRow('session', this.sampling),
        h('div', { class: 'sampling' },
          h('label', { for: 'session-reasoning-effort' }, 'Reasoning effort'), this.effort,
          h('label', { for: 'session-thinking-budget' }, 'Thinking budget'), this.budget),
        h('p', {}, h('button', { type: 'submit', 'data-testid': 'session-model-save' }, 'Save'),
          ' ', h('span', { class: 'hint' }, 'Empty fields: yours, else the installation’s. Applies from the '
            + 'next model call.')), this.modelNote, this.lastCall),
      h('h3', {}, 'Context files'), this.files, this.summaryText, this.summaryBox);
  }

  /** Shows the session's own model choice and what its last call asked for (the session view's {@code model}). */
  drawModel(model) {
    const chosen = model?.chosen || null;
    if (!this.modelDirty && !this.root.contains(document.activeElement)) {
      this.model.value = chosen?.model || '';
      showSampling(this.sampling, chosen);
      this.effort.value = chosen?.reasoningEffort || '';
      this.budget.value = chosen?.thinkingBudget ? String(chosen.thinkingBudget) : '';
    }
    const last = model?.lastCall;
    this.lastCall.textContent = last ? `The last call asked for ${[last.model ? `model ${last.model}` : 'the '
      + 'server’s first model', last.temperature !== undefined ? `temperature ${last.temperature}` : null,
    last.topP !== undefined ? `top p ${last.topP}` : null, last.maxTokens !== undefined ? `at most ${last.maxTokens} `
      + 'tokens' : null, last.reasoningEffort ? `${last.reasoningEffort} reasoning effort` : null,
    last.thinkingBudget ? `at most ${last.thinkingBudget} thinking tokens` : null].filter(Boolean).join(', ')}.` : '';
  }

  async saveModel() {
    const body = { sampling: samplingOf(this.sampling) };
    if (this.effort.value) {
      body.sampling.reasoningEffort = this.effort.value;
    }
    if (this.budget.value !== '') {
      body.sampling.thinkingBudget = Number(this.budget.value);
    }
    if (this.model.value.trim()) {
      body.model = this.model.value.trim();
    }
    this.modelNote.className = 'status';
    try {
      await api('PUT', `/api/v1/sessions/${encodeURIComponent(this.sessionId)}/model`, body);
      this.modelNote.textContent = 'Saved.';
      this.modelDirty = false;
    } catch (e) {
      this.modelNote.className = 'status error';
      this.modelNote.textContent = e.message;
    }
  }

  /** Shows the session view's context; leaves what a person is editing alone. */
  draw(context) {
    if (!context) {
      return;
    }
    const editing = this.root.contains(document.activeElement) || this.dirty;
    if (!editing) {
      this.text.value = context.systemPrompt || '';
      this.preset.value = context.preset || '';
      this.preset.dataset.value = context.preset || '';
    }
    const files = context.files || [];
    this.summary.textContent = `Prompt${context.preset ? `: ${context.preset}` : ''}${context.systemPrompt
      ? ' (own text)' : ''}${files.length ? ` · ${files.map((f) => f.name).join(', ')}` : ''}`;
    clear(this.files).append(...(files.length ? files.map((f) => h('li', { 'data-testid': 'context-file' },
      h('code', {}, f.name), ` ${f.chars.toLocaleString()} characters${f.truncated ? ' (cut)' : ''}`))
      : [h('li', { class: 'hint' }, 'None: put a .soul.md or an AGENTS.md in the workspace.')]));
    const s = context.summary;
    this.summaryText.textContent = context.compacting ? 'The older conversation is being summarised…'
      : s ? `The first ${s.messagesCovered} messages are summarised in the prompt (${s.compactions} `
        + `compaction${s.compactions === 1 ? '' : 's'}).` : '';
    this.summaryBox.hidden = !(s && s.text);
    this.summaryBody.textContent = s && s.text ? s.text : '';
  }

  async save() {
    const body = {};
    if (this.preset.value) {
      body.preset = this.preset.value;
    }
    if (this.text.value.trim()) {
      body.systemPrompt = this.text.value;
    }
    this.note.className = 'status';
    try {
      await api('PUT', `/api/v1/sessions/${encodeURIComponent(this.sessionId)}/system-prompt`, body);
      this.note.textContent = 'Saved.';
      this.dirty = false;
    } catch (e) {
      this.note.className = 'status error';
      this.note.textContent = e.message;
    }
  }
}
