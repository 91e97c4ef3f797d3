// Checked usage (issue 17 part 7): harness/models/openai/wire.ts usageOf and harness/methods/call.ts checkedUsage.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { answerOf, usageOf } from '../../../harness/models/openai/wire.js';
import { checkedUsage } from '../../../harness/methods/call.js';
import type { ModelRequest, Tokenizer } from '../../../harness/types.js';

const words: Tokenizer = {
  id: 'words',
  encode: (t) => new Uint32Array(t.split(/\s+/).filter(Boolean).length),
  decode: () => '',
  count: (t) => t.split(/\s+/).filter(Boolean).length,
};
const request: ModelRequest = {
  messages: [{ role: 'user', content: 'one two three four' }],
  params: { maxTokens: 10, temperature: 0, topP: 1 },
};

test('usageOf keeps whole numbers ≥ 0 and names everything else', () => {
  assert.deepEqual(usageOf({ prompt_tokens: 12, completion_tokens: 0 }), { promptTokens: 12, completionTokens: 0 });
  assert.deepEqual(usageOf(undefined), {
    promptTokens: 0,
    completionTokens: 0,
    problems: ['the server sent no usage'],
    uncounted: ['promptTokens', 'completionTokens'],
  });
  const bad = usageOf({ prompt_tokens: -3, completion_tokens: 'many' });
  assert.equal(bad.promptTokens, 0);
  assert.equal(bad.completionTokens, 0);
  assert.deepEqual(bad.problems, [
    'usage.prompt_tokens -3 is not a count',
    'usage.completion_tokens "many" is not a count',
  ]);
  assert.deepEqual(usageOf({ prompt_tokens: 2.5, completion_tokens: '7' }).uncounted, [
    'promptTokens',
    'completionTokens',
  ]);
  assert.deepEqual(usageOf({ completion_tokens: 4 }).problems, ['usage has no prompt_tokens']);
  assert.deepEqual(usageOf('lots').problems, ['usage "lots" is not an object']);
});

test('answerOf records the finish reason as sent, "unknown" when there is none', () => {
  const body = (r: unknown) => ({ choices: [{ finish_reason: r }], usage: { prompt_tokens: 1, completion_tokens: 1 } });
  assert.equal(answerOf(body('length'), 'x').finishReason, 'length');
  assert.equal(answerOf(body(null), 'x').finishReason, 'unknown');
  assert.equal(answerOf(body(7), 'x').finishReason, 'unknown');
});

test('checkedUsage counts what the server did not, and flags the call', () => {
  assert.deepEqual(checkedUsage({ text: 'a b', usage: { promptTokens: 9, completionTokens: 2 } }, request, words), {
    usage: { promptTokens: 9, completionTokens: 2 },
  });
  const missing = checkedUsage({ text: 'five words of an answer', usage: usageOf(undefined) }, request, words);
  assert.deepEqual(missing.usage, { promptTokens: 4, completionTokens: 5 });
  assert.equal(missing.flag, 'the server sent no usage; counted with the words tokenizer');
  const hinted = checkedUsage(
    { text: 'a', usage: usageOf({ completion_tokens: 1 }) },
    { ...request, promptTokensHint: 40 },
    words,
  );
  assert.deepEqual(hinted.usage, { promptTokens: 40, completionTokens: 1 });
  // A model that does not check its counts itself (not the OpenAI client) is checked here the same way.
  const raw = checkedUsage({ text: 'a b c', usage: { promptTokens: -1, completionTokens: NaN } }, request, words);
  assert.deepEqual(raw.usage, { promptTokens: 4, completionTokens: 3 });
  assert.match(
    raw.flag!,
    /promptTokens -1 is not a count; completionTokens null is not a count; counted with the words/,
  );
});
