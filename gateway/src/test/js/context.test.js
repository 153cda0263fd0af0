// The prompt panel's pure parts (web/js/context.js): a model's traits as short words, and the sampling read from and
// written to its inputs (plain objects with a value here, as the inputs have in the page).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { samplingOf, showSampling, traits } from '../../main/resources/web/js/context.js';

const inputs = () => ({ temperature: { value: '' }, topP: { value: '' }, maxTokens: { value: '' } });

test('given a model the server describes fully, when its traits are listed, then window and each ability show', () => {
  assert.deepEqual(traits({ contextWindow: 32768, vision: true, tools: false, thinking: true }),
    ['32768 tokens', 'vision', 'no tools', 'thinking']);
});

test('given a model the server says nothing about, when its traits are listed, then there are none', () => {
  assert.deepEqual(traits({ id: 'm' }), []);
});

test('given inputs with some fields filled, when the sampling is read, then only those fields come back, as numbers', () => {
  const fields = inputs();
  fields.temperature.value = '0.7';
  fields.maxTokens.value = '512';

  assert.deepEqual(samplingOf(fields), { temperature: 0.7, maxTokens: 512 });
});

test('given a chosen sampling, when it is shown, then its fields fill the inputs and the absent ones are emptied', () => {
  const fields = inputs();
  fields.topP.value = '0.5';

  showSampling(fields, { temperature: 0, maxTokens: 100 });

  assert.deepEqual(Object.values(fields).map((f) => f.value), ['0', '', '100']);
  assert.deepEqual(samplingOf(fields), { temperature: 0, maxTokens: 100 }, 'a zero is a choice, not an empty field');
});

test('given no sampling, when it is shown, then every input is emptied', () => {
  const fields = inputs();
  fields.temperature.value = '1';

  showSampling(fields, null);

  assert.deepEqual(samplingOf(fields), {});
});
