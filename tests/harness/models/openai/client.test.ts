import { test } from 'vitest';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { startServer } from '../../../../reference/serve/server.js';
import { parseFaultSpec } from '../../../../reference/serve/faults.js';
import { createOpenAIModel, EndpointCallError, type RetryEvent } from '../../../../harness/models/openai/index.js';
import { ModelCallError } from '../../../../harness/errors.js';
import { echoModel, echoReply, request } from '../../../reference/serve/helpers.js';

const instant = async () => {};

async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

const isKind = (kind: string, re?: RegExp) => (e: unknown) =>
  e instanceof ModelCallError && e.kind === kind && (!re || re.test(e.message));

test('completes through the openai client with usage, id and no retries', async () => {
  const server = await startServer({ model: echoModel() });
  try {
    const model = createOpenAIModel({ baseURL: server.url, modelName: 'reference-reader', apiKey: 'unused' });
    assert.equal(model.id, `${server.url}#reference-reader`);
    assert.ok(!model.id.includes('unused'));
    const res = await model.generate(request('red green blue'));
    assert.equal(res.text, echoReply([{ role: 'user', content: 'red green blue' }]));
    assert.deepEqual(res.usage, { promptTokens: 3, completionTokens: 7 });
    assert.equal(res.finishReason, 'stop');
    assert.equal(res.retries, 0);
    assert.equal(res.cached, false);
    const cut = await model.generate(request('red green blue', 2));
    assert.equal(cut.finishReason, 'length');
    assert.equal(cut.usage.completionTokens, 2);
    assert.equal(model.stats().attempts, 2);
  } finally {
    await server.close();
  }
});

test('wrong model name, bad key, context length and other 400s fail at once without retries', async () => {
  const server = await startServer({ model: echoModel(), modelName: 'served-a', apiKey: 'k1', maxContext: 20 });
  try {
    const wrongModel = createOpenAIModel({ baseURL: server.url, modelName: 'nope', apiKey: 'k1', sleep: instant });
    await assert.rejects(
      wrongModel.generate(request('hi')),
      isKind(
        'fatal',
        new RegExp(
          `^endpoint ${server.url} does not serve model 'nope' \\(HTTP 404: The model \`nope\` does not exist\\.\\): check --model-name \\(GET /models lists: served-a\\)$`,
        ),
      ),
    );
    assert.equal(wrongModel.stats().attempts, 1);

    const badKey = createOpenAIModel({ baseURL: server.url, modelName: 'served-a', apiKey: 'k2', sleep: instant });
    await assert.rejects(
      badKey.generate(request('hi')),
      isKind('fatal', /rejected the API key \(HTTP 401: Incorrect API key provided\.\).*--api-key-env/),
    );
    // After a fatal error the endpoint sends nothing more: later calls fail at once with the same words, unsent.
    await assert.rejects(
      badKey.generate(request('again')),
      (e: unknown) =>
        e instanceof EndpointCallError &&
        e.kind === 'fatal' &&
        e.attempts === 0 &&
        /rejected the API key/.test(e.message),
    );
    assert.equal(badKey.stats().attempts, 1);
    assert.equal(badKey.stats().attempts, 1);
    const noKey = createOpenAIModel({ baseURL: server.url, modelName: 'served-a', sleep: instant });
    await assert.rejects(noKey.generate(request('hi')), isKind('fatal', /requires an API key/));

    const good = createOpenAIModel({ baseURL: server.url, modelName: 'served-a', apiKey: 'k1', sleep: instant });
    const long = Array.from({ length: 30 }, (_, i) => `w${i}`).join(' ');
    await assert.rejects(good.generate(request(long, 5)), isKind('context-length', /maximum context length/));
    const bad = { ...request('hi'), params: { maxTokens: 5, temperature: 7, topP: 1 } };
    await assert.rejects(
      good.generate(bad),
      (e: unknown) => e instanceof ModelCallError && e.kind === 'permanent' && e.status === 400,
    );
    assert.equal(good.stats().attempts, 2);
    assert.equal(good.stats().retries, 0);
  } finally {
    await server.close();
  }
});

test('Retry-After is honoured: every wait after a 429 is at least the header value', async () => {
  const server = await startServer({
    model: echoModel(),
    faults: parseFaultSpec({ fail429: 0.6, retryAfterS: 2, seed: 3 }),
  });
  const events: RetryEvent[] = [];
  const slept: number[] = [];
  try {
    const model = createOpenAIModel({
      baseURL: server.url,
      modelName: 'reference-reader',
      maxRetries: 20,
      backoff: { baseMs: 100, maxMs: 1000 },
      sleep: async (ms) => void slept.push(ms),
      onRetry: (e) => events.push(e),
    });
    for (let i = 0; i < 10; i++) {
      const res = await model.generate(request(`q ${i}`));
      assert.equal(res.text, echoReply([{ role: 'user', content: `q ${i}` }]));
    }
    assert.ok(events.length > 0, 'expected some 429s at a 60% rate');
    assert.equal(events.length, server.stats().faults['429']);
    assert.deepEqual(
      slept,
      events.map((e) => e.delayMs),
    );
    for (const e of events) {
      assert.equal(e.reason, 'http-429');
      assert.equal(e.retryAfterMs, 2000);
      assert.ok(e.delayMs >= 2000, `waited ${e.delayMs} ms`);
    }
  } finally {
    await server.close();
  }
});

test('429 retries can be switched off, and the retry time budget caps waiting', async () => {
  const server = await startServer({ model: echoModel(), faults: parseFaultSpec({ fail429: 1, retryAfterS: 5 }) });
  try {
    const noRetry = createOpenAIModel({
      baseURL: server.url,
      modelName: 'reference-reader',
      retryRateLimited: false,
      sleep: instant,
    });
    await assert.rejects(noRetry.generate(request('x')), isKind('rate-limited', /429 retries are off/));
    assert.equal(noRetry.stats().attempts, 1);
    const budget = createOpenAIModel({
      baseURL: server.url,
      modelName: 'reference-reader',
      totalRetryBudgetMs: 1000,
      sleep: instant,
    });
    // Retry-After (5 s) beyond the whole budget: its own line, fatal for the run, not "budget spent".
    await assert.rejects(
      budget.generate(request('x')),
      isKind(
        'fatal',
        /is rate limiting \(HTTP 429\): injected rate limit; the server asks to wait until \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ \(Retry-After\), longer than a call's retry time budget of 1 s: run the same command again after that time$/,
      ),
    );
    assert.equal(budget.stats().attempts, 1);
  } finally {
    await server.close();
  }
});

test('attempt cap, backoff growth, timeouts on hangs, and abort', async () => {
  const failing = await startServer({ model: echoModel(), faults: parseFaultSpec({ fail5xx: 1 }) });
  try {
    const events: RetryEvent[] = [];
    const model = createOpenAIModel({
      baseURL: failing.url,
      modelName: 'reference-reader',
      maxRetries: 4,
      backoff: { baseMs: 100, maxMs: 10_000 },
      random: () => 0.999,
      sleep: instant,
      onRetry: (e) => events.push(e),
    });
    await assert.rejects(
      model.generate(request('x')),
      (e: unknown) =>
        isKind('transient', /gave up after 5 attempts/)(e) && e instanceof EndpointCallError && e.attempts === 5,
    );
    assert.deepEqual(
      events.map((e) => e.delayMs),
      [99, 199, 399, 799],
    );
    assert.deepEqual(
      events.map((e) => e.status),
      [500, 502, 503, 500],
    );
  } finally {
    await failing.close();
  }
  const hanging = await startServer({ model: echoModel(), faults: parseFaultSpec({ failHang: 1 }) });
  try {
    const model = createOpenAIModel({
      baseURL: hanging.url,
      modelName: 'reference-reader',
      maxRetries: 1,
      sleep: instant,
      timeoutPolicy: { baseMs: 150, perPromptCharMs: 0, perMaxTokenMs: 0 },
    });
    // No attempt of the first call was ever answered: the endpoint is dead for the run (fatal), not one slow call.
    await assert.rejects(
      model.generate(request('x')),
      isKind(
        'fatal',
        /within 0.2 s.*gave up after 2 attempts\); the endpoint has answered no call yet: .*raise --request-timeout$/,
      ),
    );
    assert.deepEqual(model.stats().retriesByReason, { timeout: 1 });

    const patient = createOpenAIModel({ baseURL: hanging.url, modelName: 'reference-reader' });
    const ctrl = new AbortController();
    const call = patient.generate(request('y'), ctrl.signal);
    setTimeout(() => ctrl.abort(new Error('user stop')), 50);
    await assert.rejects(call, /user stop/);
  } finally {
    await hanging.close();
  }
});

test('an endpoint that never answered and cannot be reached fails fatally after 3 attempts, naming the URL', async () => {
  const url = `http://127.0.0.1:${await closedPort()}/v1`;
  const model = createOpenAIModel({ baseURL: url, modelName: 'm', maxRetries: 2, sleep: instant });
  await assert.rejects(
    model.generate(request('x')),
    isKind(
      'fatal',
      new RegExp(
        `^cannot reach ${url} \\(connection refused\\) \\(3 attempts, no call has succeeded yet\\): check that the server is up and see its log$`,
      ),
    ),
  );
  assert.deepEqual(model.stats().retriesByReason, { connection: 2 });
});
