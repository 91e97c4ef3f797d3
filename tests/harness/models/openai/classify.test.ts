import { test } from 'vitest';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import {
  attemptTimeoutMs,
  createOpenAIModel,
  DEFAULT_TIMEOUT_POLICY,
  isContextLengthMessage,
  isRetryableStatus,
  parseRetryAfter,
} from '../../../../harness/models/openai/index.js';
import { backoffDelayMs, retryDelayMs, seededRandom } from '../../../../harness/models/openai/policy.js';
import { ModelCallError } from '../../../../harness/errors.js';
import { request } from '../../../reference/serve/helpers.js';

test('parseRetryAfter reads retry-after-ms, seconds and HTTP dates', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  assert.equal(parseRetryAfter(new Headers({ 'retry-after': '3' }), now), 3000);
  assert.equal(parseRetryAfter(new Headers({ 'retry-after': '0.5' }), now), 500);
  assert.equal(parseRetryAfter(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now), 250);
  assert.equal(parseRetryAfter(new Headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:07 GMT' }), now), 7000);
  assert.equal(parseRetryAfter(new Headers({ 'retry-after': 'Tue, 31 Dec 2024 23:00:00 GMT' }), now), 0);
  assert.equal(parseRetryAfter(new Headers({ 'retry-after': 'soon' }), now), undefined);
  assert.equal(parseRetryAfter(new Headers(), now), undefined);
});

test('retryable statuses and context-length texts', () => {
  for (const s of [408, 409, 429, 500, 502, 503, 504]) assert.ok(isRetryableStatus(s), String(s));
  for (const s of [400, 401, 403, 404, 413, 422]) assert.ok(!isRetryableStatus(s), String(s));
  assert.ok(
    isContextLengthMessage("This model's maximum context length is 32768 tokens. However, you requested 40000 tokens"),
  );
  assert.ok(
    isContextLengthMessage("The input (40000 tokens) is longer than the model's context length (32768 tokens)."),
  );
  assert.ok(isContextLengthMessage('Input validation error: `inputs` tokens + `max_new_tokens` must be <= 32768'));
  assert.ok(!isContextLengthMessage("'temperature' must be a number between 0 and 2"));
});

test('per-attempt timeout grows with prompt size and max_tokens, capped', () => {
  const p = DEFAULT_TIMEOUT_POLICY;
  assert.equal(attemptTimeoutMs(p, 0, 0), p.baseMs);
  assert.ok(attemptTimeoutMs(p, 20_000, 1024) > attemptTimeoutMs(p, 0, 1024));
  assert.ok(attemptTimeoutMs(p, 20_000, 1024) > attemptTimeoutMs(p, 20_000, 16));
  assert.equal(attemptTimeoutMs(p, 1e12, 1024), p.maxMs);
});

test('full-jitter backoff stays under the doubling ceiling and never undercuts Retry-After', () => {
  const rnd = seededRandom(9);
  for (let i = 0; i < 12; i++) {
    const d = backoffDelayMs({ baseMs: 100, maxMs: 5000 }, i, rnd);
    assert.ok(d >= 0 && d < Math.min(5000, 100 * 2 ** i), `${i}: ${d}`);
  }
  assert.equal(
    retryDelayMs({ baseMs: 100, maxMs: 5000 }, 0, () => 0.5, 4000),
    4000,
  );
  assert.equal(
    retryDelayMs({ baseMs: 100, maxMs: 5000 }, 10, () => 0.9, 10),
    4500,
  );
  const a = seededRandom(1),
    b = seededRandom(1);
  assert.deepEqual([a(), a()], [b(), b()]);
});

/** A server speaking older vLLM's flat error shape: {"object":"error","message":...}. */
async function flatErrorServer(
  status: number,
  message: string,
): Promise<{ url: string; server: Server; hits: () => number }> {
  let hits = 0;
  const server = createServer((req, res) => {
    hits++;
    req.resume();
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ object: 'error', message, type: 'BadRequestError', param: null, code: status }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`, server, hits: () => hits };
}

test('flat (older vLLM) error bodies keep their text: context length is recognised, other 400s are not retried', async () => {
  const ctx = await flatErrorServer(
    400,
    "This model's maximum context length is 8192 tokens. However, you requested 9000 tokens.",
  );
  try {
    const model = createOpenAIModel({ baseURL: ctx.url, modelName: 'm', sleep: async () => {} });
    await assert.rejects(
      model.generate(request('x')),
      (e: unknown) => e instanceof ModelCallError && e.kind === 'context-length' && /8192/.test(e.message),
    );
    assert.equal(ctx.hits(), 1);
  } finally {
    ctx.server.close();
  }
  const other = await flatErrorServer(400, 'top_p must be in (0, 1]');
  try {
    const model = createOpenAIModel({ baseURL: other.url, modelName: 'm', sleep: async () => {} });
    await assert.rejects(
      model.generate(request('x')),
      (e: unknown) => e instanceof ModelCallError && e.kind === 'permanent' && /top_p must be/.test(e.message),
    );
    assert.equal(other.hits(), 1);
  } finally {
    other.server.close();
  }
});
