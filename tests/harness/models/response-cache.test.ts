import { onTestFinished, test } from 'vitest';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ModelCallError } from '../../../harness/errors.js';
import { createLocalModel } from '../../../reference/local-model.js';
import { cacheFile, cacheKey, cacheKeyInputs, withResponseCache } from '../../../harness/models/response-cache.js';
import { loadTokenizer } from '../../../harness/tokenizer/index.js';
import type { Model, ModelRequest } from '../../../harness/types.js';

const SECRET_PROMPT = 'ZEBRA-7731 the quick prompt text that must never reach the cache directory';

/** A model that answers "reply N" (N counts its calls) and fails when told to. */
function counting() {
  const state = { calls: 0, failNext: false };
  const model: Model = {
    id: 'test:counting',
    isReferenceReader: false,
    async generate(request) {
      state.calls++;
      if (state.failNext) {
        state.failNext = false;
        throw new ModelCallError('HTTP 503 from server', 'transient', 503);
      }
      return {
        text: `reply ${state.calls}`,
        usage: { promptTokens: 100 + state.calls, completionTokens: 7 },
        latencyMs: 12.5,
        finishReason: 'stop',
        cached: false,
        retries: 2,
      };
    },
  };
  return { model, state };
}

function request(over: Partial<ModelRequest['params']> = {}, content = SECRET_PROMPT): ModelRequest {
  return { messages: [{ role: 'user', content }], params: { maxTokens: 64, temperature: 0.7, topP: 0.95, ...over } };
}

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'bench-cache-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function allFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile());
}

const base = { endpoint: 'http://127.0.0.1:8000/v1', modelName: 'qwen', trial: 0 };

test('a second identical call is a hit: same text and usage, cached, no latency or retries, no model call', async () => {
  const dir = tempDir();
  const { model, state } = counting();
  const cached = withResponseCache(model, { dir, ...base });
  const first = await cached.generate(request());
  assert.equal(first.cached, false);
  assert.equal(first.retries, 2);
  const second = await cached.generate(request());
  assert.equal(state.calls, 1);
  assert.deepEqual(second, {
    text: first.text,
    usage: first.usage,
    finishReason: 'stop',
    latencyMs: 0,
    cached: true,
    retries: 0,
  });
  // A new wrapper on the same directory (a rerun) hits too.
  const again = await withResponseCache(counting().model, { dir, ...base }).generate(request());
  assert.equal(again.text, 'reply 1');
  assert.equal(again.cached, true);
  assert.deepEqual(cached.cacheStats(), { hits: 1, misses: 1, writes: 1, corrupt: 0 });
  // One small file, sharded by the key's first two hex chars.
  const files = allFiles(dir);
  assert.equal(files.length, 1);
  const key = cacheKey(cacheKeyInputs(request(), base));
  assert.equal(files[0], cacheFile(dir, key));
  assert.equal(files[0], join(dir, key.slice(0, 2), `${key}.json`));
});

test('errors are never cached', async () => {
  const dir = tempDir();
  const { model, state } = counting();
  const cached = withResponseCache(model, { dir, ...base });
  state.failNext = true;
  await assert.rejects(cached.generate(request()), ModelCallError);
  assert.deepEqual(allFiles(dir), []);
  const res = await cached.generate(request());
  assert.equal(res.cached, false);
  assert.equal(state.calls, 2);
  assert.equal((await cached.generate(request())).text, res.text);
  assert.equal(state.calls, 2);
});

test('any change of trial, endpoint, model, messages or generation parameters misses', async () => {
  const dir = tempDir();
  const { model, state } = counting();
  await withResponseCache(model, { dir, ...base }).generate(request());
  const variants: Array<[string, Parameters<typeof withResponseCache>[1], ModelRequest]> = [
    ['trial', { dir, ...base, trial: 1 }, request()],
    ['endpoint', { dir, ...base, endpoint: 'http://127.0.0.1:8001/v1' }, request()],
    ['model', { dir, ...base, modelName: 'qwen-other' }, request()],
    ['temperature', { dir, ...base }, request({ temperature: 0 })],
    ['top_p', { dir, ...base }, request({ topP: 1 })],
    ['max_tokens', { dir, ...base }, request({ maxTokens: 65 })],
    ['stop', { dir, ...base }, request({ stop: ['\n'] })],
    ['messages', { dir, ...base }, request({}, SECRET_PROMPT + '!')],
    ['role', { dir, ...base }, { ...request(), messages: [{ role: 'system', content: SECRET_PROMPT }] }],
  ];
  for (const [what, opts, req] of variants) {
    const before = state.calls;
    const res = await withResponseCache(model, opts).generate(req);
    assert.equal(res.cached, false, `${what} change was a hit`);
    assert.equal(state.calls, before + 1, what);
  }
  assert.equal(allFiles(dir).length, variants.length + 1);
  // The prompt hint is not part of the key: the same prompt counted differently is the same call.
  const hinted = await withResponseCache(model, { dir, ...base }).generate({ ...request(), promptTokensHint: 5 });
  assert.equal(hinted.cached, true);
});

test('a corrupt entry is a miss and is overwritten', async () => {
  const dir = tempDir();
  const { model, state } = counting();
  const cached = withResponseCache(model, { dir, ...base });
  await cached.generate(request());
  const file = cacheFile(dir, cacheKey(cacheKeyInputs(request(), base)));
  const good = readFileSync(file, 'utf8');
  const corruptions = [
    good.slice(0, good.length / 2),
    '',
    '{"v":1}',
    good.replace(/"key":"[0-9a-f]+"/, `"key":"${'0'.repeat(64)}"`),
    good.replace('"text":"reply 1"', '"text":42'),
  ];
  for (const bad of corruptions) {
    writeFileSync(file, bad);
    const before = state.calls;
    const res = await cached.generate(request());
    assert.equal(res.cached, false, `accepted: ${bad.slice(0, 40)}`);
    assert.equal(state.calls, before + 1);
    const hit = await cached.generate(request());
    assert.equal(hit.cached, true);
    assert.equal(hit.text, res.text);
  }
  assert.equal(cached.cacheStats().corrupt, corruptions.length);
});

test('no cache file and no debug line holds the prompt; debug lines show the key inputs', async () => {
  const dir = tempDir();
  const lines: string[] = [];
  const long = `${SECRET_PROMPT} ${'filler words '.repeat(5000)}`;
  const cached = withResponseCache(counting().model, { dir, ...base, trial: 3, debug: (l) => lines.push(l) });
  await cached.generate({
    messages: [
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: long },
    ],
    params: { maxTokens: 64, temperature: 0.7, topP: 0.95 },
  });
  await cached.generate({
    messages: [
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: long },
    ],
    params: { maxTokens: 64, temperature: 0.7, topP: 0.95 },
  });
  for (const f of allFiles(dir)) {
    const text = readFileSync(f, 'utf8');
    assert.ok(
      !text.includes('ZEBRA-7731') && !text.includes('filler words') && !text.includes('You are terse'),
      `${f} holds prompt text`,
    );
    assert.ok(text.length < 1000, `${f} is ${text.length} bytes`);
  }
  assert.equal(lines.length, 2);
  assert.match(lines[0], /^cache miss key=[0-9a-f]{16} /);
  assert.match(lines[1], /^cache hit key=[0-9a-f]{16} /);
  for (const l of lines) {
    assert.ok(!l.includes('ZEBRA-7731') && !l.includes('filler'));
    for (const part of [
      'endpoint=http://127.0.0.1:8000/v1',
      'model=qwen',
      'max_tokens=64',
      'temperature=0.7',
      'top_p=0.95',
      'trial=3',
      'stop=none',
      '(2)',
    ])
      assert.ok(l.includes(part), `${part} missing in: ${l}`);
    assert.match(l, /messages=sha256:[0-9a-f]{16}/);
  }
});

test('the embedded model behind the cache: a hit returns exactly what the model said', async () => {
  const dir = tempDir();
  const tokenizer = loadTokenizer('qwen2.5');
  const inner = createLocalModel(tokenizer);
  const cached = withResponseCache(inner, { dir, endpoint: 'local', modelName: 'reference-reader', trial: 0 });
  const req: ModelRequest = {
    messages: [
      {
        role: 'user',
        content:
          'Please read the following text and answer the question below.\n\n<text>\nMarie Vell was born in Dornbach.\n</text>\n\nWhere was Marie Vell born?\n\nFormat your response as follows: "Therefore, the answer is (insert answer here)".',
      },
    ],
    params: { maxTokens: 128, temperature: 0, topP: 1 },
  };
  const a = await cached.generate(req);
  const b = await cached.generate(req);
  assert.equal(b.cached, true);
  assert.equal(b.text, a.text);
  assert.deepEqual(b.usage, a.usage);
  assert.equal(b.finishReason, a.finishReason);
  assert.equal(cached.id, inner.id);
  assert.equal(cached.isReferenceReader, true);
});
