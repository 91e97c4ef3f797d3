// The text-completions request builder end to end: the real `openai` client against `bench serve`'s own server
// (reference/serve), which answers POST /v1/completions with the reference reader from the prompt text.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { startServer } from '../../../../reference/serve/server.js';
import { parseFaultSpec } from '../../../../reference/serve/faults.js';
import { createLocalModel } from '../../../../reference/local-model.js';
import { loadTokenizer } from '../../../../harness/tokenizer/index.js';
import { createOpenAIModel, EndpointCallError } from '../../../../harness/models/openai/index.js';
import type { ModelRequest } from '../../../../harness/types.js';
import { echoModel, echoReply } from '../../../reference/serve/helpers.js';

/** A request for a text completion of `prompt` (the prompt mirrored as one user message, as ModelRequest asks). */
function textRequest(prompt: string, maxTokens = 64): ModelRequest {
  return {
    messages: [{ role: 'user', content: prompt }],
    prompt,
    params: { maxTokens, temperature: 0.7, topP: 0.95 },
  };
}

const FILLER = 'The grass is green. The sky is blue. The sun is yellow. Here we go. There and back again. ';
/** A RULER-style NIAH prompt that ends mid-sentence, as RULER's native (completion) mode sends it. */
const NIAH =
  'Some special magic numbers are hidden within the following text. Make sure to memorize it. I will quiz you about ' +
  `the numbers afterwards.\n${FILLER.repeat(5)}One of the special magic numbers for quiet-lake is: 4817263.\n` +
  `${FILLER.repeat(5)}\nWhat is the special magic number for quiet-lake mentioned in the provided text? The special ` +
  'magic number for quiet-lake mentioned in the provided text is';

test('a prompt goes to POST /v1/completions and the reference reader answers it from the prompt text', async () => {
  const tokenizer = loadTokenizer('qwen2.5');
  const server = await startServer({
    model: createLocalModel(tokenizer),
    countPromptTokens: (messages) => messages.reduce((n, m) => n + tokenizer.count(m.content), 0),
  });
  try {
    const model = createOpenAIModel({ baseURL: server.url, modelName: server.modelName });
    const res = await model.generate(textRequest(NIAH));
    assert.equal(res.text, '4817263');
    assert.equal(res.finishReason, 'stop');
    assert.deepEqual(res.usage, { promptTokens: tokenizer.count(NIAH), completionTokens: tokenizer.count('4817263') });
    assert.equal(res.retries, 0);
    // The same text as a chat message gets the same answer: the routes differ only in their wire format.
    const { prompt: _prompt, ...chat } = textRequest(NIAH);
    assert.equal((await model.generate(chat)).text, '4817263');
    assert.equal(model.stats().succeeded, 2);
    assert.equal(server.stats().completions, 2);
  } finally {
    await server.close();
  }
});

test('the server answers /v1/completions as a text_completion and refuses a prompt that is not one string', async () => {
  const server = await startServer({ model: echoModel() });
  const post = async (body: unknown) => {
    const res = await fetch(`${server.url}/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };
  try {
    const ok = await post({ model: 'reference-reader', prompt: 'one two three', max_tokens: 50, stop: ['is'] });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.object, 'text_completion');
    assert.match(ok.body.id, /^cmpl-\d+$/);
    // echoReply says "Therefore, the answer is …": the stop string cuts it, as in OpenAI's API.
    const full = echoReply([{ role: 'user', content: 'one two three' }]);
    assert.equal(ok.body.choices[0].text, full.slice(0, full.indexOf('is')));
    assert.equal(ok.body.choices[0].finish_reason, 'stop');
    assert.equal(ok.body.usage.prompt_tokens, 3);
    for (const prompt of [[1, 2, 3], ['a', 'b'], '', undefined]) {
      const bad = await post({ model: 'reference-reader', prompt });
      assert.equal(bad.status, 400, JSON.stringify(prompt));
      assert.equal(bad.body.error.param, 'prompt');
    }
    assert.equal((await post({ model: 'other', prompt: 'x' })).status, 404);
  } finally {
    await server.close();
  }
});

test('text completions share the retry loop: injected 5xx, 429 and cut-short bodies are retried', async () => {
  // Seed 7 draws 5xx, 429 and cut-short bodies for these prompts (asserted below).
  const faults = parseFaultSpec({ fail5xx: 0.2, fail429: 0.1, failMalformed: 0.1, retryAfterS: 0, seed: 7 });
  const server = await startServer({ model: echoModel(), faults });
  try {
    const delays: number[] = [];
    const model = createOpenAIModel({
      baseURL: server.url,
      modelName: server.modelName,
      sleep: async (ms) => void delays.push(ms),
    });
    for (let i = 0; i < 12; i++) {
      const prompt = `item ${i} alpha beta gamma ${i * 3}`;
      const res = await model.generate(textRequest(prompt));
      assert.equal(res.text, echoReply([{ role: 'user', content: prompt }]));
    }
    const stats = model.stats();
    assert.equal(stats.succeeded, 12);
    assert.ok(stats.retries > 0, 'the fault plan made some attempts fail');
    assert.equal(delays.length, stats.retries);
    const reasons = Object.keys(stats.retriesByReason);
    assert.ok(reasons.includes('http-429') && reasons.includes('malformed-body'), reasons.join(','));
  } finally {
    await server.close();
  }
});

test('a base URL without /v1 names the missing POST /completions route, once, for every later call', async () => {
  const server = await startServer({ model: echoModel() });
  try {
    const baseURL = server.url.replace(/\/v1$/, '');
    const model = createOpenAIModel({ baseURL, modelName: server.modelName, sleep: async () => {} });
    const first = await model.generate(textRequest('one two')).catch((e: unknown) => e);
    assert.ok(first instanceof EndpointCallError);
    assert.equal(first.kind, 'fatal');
    assert.equal(first.attempts, 1);
    assert.match(
      first.message,
      new RegExp(`^endpoint ${baseURL} has no POST /completions route \\(HTTP 404: .*\\): check the base URL`),
    );
    const later = await model.generate(textRequest('three four')).catch((e: unknown) => e);
    assert.ok(later instanceof EndpointCallError);
    assert.equal(later.attempts, 0, 'not sent again');
    assert.equal(later.message, first.message);
  } finally {
    await server.close();
  }
});
