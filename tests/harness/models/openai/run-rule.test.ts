// The run-level rule for endpoints that fail every call in a way no single answer marks as fatal (issue 17, part 1):
// before any success, a few calls failing the same way are fatal (a call failing for its own prompt lets the others
// go); after successes, FAILED_CALLS_IN_A_ROW failed calls in a row are; a Retry-After beyond the retry budget is.
// The CLI side is tests/cli/bad-input/endpoint-rule.test.ts.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { createOpenAIModel, EndpointCallError } from '../../../../harness/models/openai/index.js';
import { FAILED_CALLS_IN_A_ROW, UNPROVEN_SAME_FAILURES } from '../../../../harness/models/openai/retry-loop.js';
import type { Model, ModelResponse } from '../../../../harness/types.js';
import { request } from '../../../reference/serve/helpers.js';
import { completion, fakeEndpoint, json, send, type ChatHandler } from '../../../helpers/fake-endpoint.js';

const instant = async () => {};
const BAD_GATEWAY = '<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>';

async function burst(model: Model, n: number): Promise<PromiseSettledResult<ModelResponse>[]> {
  return Promise.allSettled(Array.from({ length: n }, (_, i) => model.generate(request(`q ${i}`))));
}

const reasons = (results: PromiseSettledResult<ModelResponse>[]) =>
  results.map((r) => {
    assert.equal(r.status, 'rejected');
    const e = (r as PromiseRejectedResult).reason;
    assert.ok(e instanceof EndpointCallError, String(e));
    return e;
  });

async function withServer(chat: ChatHandler, body: (url: string, chats: () => number) => Promise<void>) {
  const server = await fakeEndpoint(chat);
  try {
    await body(server.url, server.chats);
  } finally {
    await server.close();
  }
}

const cases: Array<{ name: string; chat: ChatHandler; message: RegExp; permanent?: number }> = [
  {
    name: '502 HTML forever',
    chat: (_b, _n, res) => send(res, 502, 'text/html', BAD_GATEWAY),
    message:
      /failed \(HTTP 502\): an HTML page titled "502 Bad Gateway" \(3 calls, 3 attempts, no call has succeeded yet\): the server is failing: see its log/,
  },
  {
    name: '503 JSON forever',
    chat: (_b, _n, res) => json(res, 503, { error: { message: 'Service Unavailable: no healthy upstream' } }),
    message:
      /failed \(HTTP 503\): Service Unavailable: no healthy upstream \(3 calls, 3 attempts, no call has succeeded/,
  },
  {
    name: 'a body cut off mid-JSON',
    chat: (_b, _n, res) => send(res, 200, 'application/json', '{"id":"x","choices":[{"index":0,"mess'),
    message: /sent a malformed response .*\(3 calls, 3 attempts, no call has succeeded yet\): the server \(or a proxy/,
  },
  {
    name: 'a 422 for every request (not 401/403/404)',
    chat: (_b, _n, res) => json(res, 422, { error: { message: 'unsupported parameter: top_p' } }),
    message:
      /refused the request \(HTTP 422\): unsupported parameter: top_p \(3 calls, 3 attempts, no call has succeeded yet\): the server refuses these requests/,
    permanent: 2,
  },
  {
    name: 'every connection reset before the headers',
    chat: (_b, _n, _res, req) => req.socket.destroy(),
    message:
      /(lost the connection to|cannot reach) .*\(3 calls, 3 attempts, no call has succeeded yet\): check that the server is up/,
  },
  {
    name: 'a 200 whose body is an out-of-memory error',
    chat: (_b, _n, res) =>
      json(res, 200, { error: { message: 'CUDA out of memory. Tried to allocate 2.00 GiB', type: 'InternalError' } }),
    message:
      /answered POST \/chat\/completions with an error inside a 200 body: "CUDA out of memory\. Tried to allocate 2\.00 GiB" \(3 calls, 3 attempts, no call has succeeded yet\): the server reports an error, not a wrong address/,
  },
];

for (const c of cases) {
  test(`before any success, ${UNPROVEN_SAME_FAILURES} calls failing the same way are fatal: ${c.name}`, async () => {
    await withServer(c.chat, async (url, chats) => {
      const model = createOpenAIModel({ baseURL: url, modelName: 'm', sleep: instant });
      const errors = reasons(await burst(model, 20));
      assert.equal(chats(), UNPROVEN_SAME_FAILURES, 'requests for 20 calls');
      const fatal = errors.filter((e) => e.kind === 'fatal');
      // Refused requests are not sent twice: the calls before the verdict end as their own errors.
      assert.equal(errors.length - fatal.length, c.permanent ?? 0);
      assert.match(fatal[0].message, c.message);
      assert.doesNotMatch(fatal[0].message, /base URL/);
      assert.ok(fatal.every((e) => e.message === fatal[0].message));
    });
  });
}

test('a lone call (nothing else waiting) is fatal after the same number of attempts', async () => {
  await withServer(
    (_b, _n, res) => send(res, 502, 'text/html', BAD_GATEWAY),
    async (url, chats) => {
      const model = createOpenAIModel({ baseURL: url, modelName: 'm', sleep: instant });
      await assert.rejects(
        model.generate(request('only')),
        (e: unknown) =>
          e instanceof EndpointCallError && e.kind === 'fatal' && /\(3 attempts, no call has/.test(e.message),
      );
      assert.equal(chats(), 3);
    },
  );
});

test('failures that differ (502 then 503) are not "the same way": calls go on retrying', async () => {
  await withServer(
    (_b, n, res) =>
      n <= 4 ? json(res, n % 2 ? 502 : 503, { error: { message: 'flaky' } }) : json(res, 200, completion()),
    async (url) => {
      const model = createOpenAIModel({ baseURL: url, modelName: 'm', sleep: instant });
      const results = await burst(model, 3);
      assert.deepEqual(
        results.map((r) => r.status),
        ['fulfilled', 'fulfilled', 'fulfilled'],
      );
    },
  );
});

test(`after successes, ${FAILED_CALLS_IN_A_ROW} failed calls in a row are fatal; a success in between resets the count`, async () => {
  // Calls 1-4 succeed, then every odd call after fails until call 20, then everything fails.
  await withServer(
    (_b, n, res) =>
      n <= 4 || (n <= 20 && n % 2 === 0)
        ? json(res, 200, completion(`reply ${n}`))
        : json(res, 502, { error: { message: 'upstream connect error' } }),
    async (url, chats) => {
      const model = createOpenAIModel({ baseURL: url, modelName: 'm', maxRetries: 0, sleep: instant });
      const kinds: string[] = [];
      for (let i = 0; i < 40; i++) {
        try {
          await model.generate(request(`s ${i}`));
          kinds.push('ok');
        } catch (e) {
          assert.ok(e instanceof EndpointCallError);
          kinds.push(e.kind);
          if (e.kind === 'fatal') {
            assert.match(
              e.message,
              /failed \(HTTP 502\): upstream connect error \(gave up after 1 attempts\); 8 calls in a row have failed, after 12 had succeeded: the server seems to be down/,
            );
            break;
          }
        }
      }
      // 4 ok, 8 alternating pairs (fail, ok), then 7 transient failures and the 8th fatal.
      assert.deepEqual(kinds, [
        ...['ok', 'ok', 'ok', 'ok'],
        ...Array.from({ length: 8 }, () => ['transient', 'ok']).flat(),
        ...Array.from({ length: FAILED_CALLS_IN_A_ROW - 1 }, () => 'transient'),
        'fatal',
      ]);
      assert.equal(chats(), 4 + 16 + FAILED_CALLS_IN_A_ROW);
      // Nothing more is sent.
      await assert.rejects(
        model.generate(request('later')),
        (e: unknown) => e instanceof EndpointCallError && e.attempts === 0,
      );
      assert.equal(chats(), 4 + 16 + FAILED_CALLS_IN_A_ROW);
    },
  );
});

test('a Retry-After date beyond the retry budget gets its own line and stops the run', async () => {
  await withServer(
    (_b, _n, res) => {
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': 'Wed, 21 Oct 2099 07:28:00 GMT' });
      res.end(JSON.stringify({ error: { message: 'maintenance' } }));
    },
    async (url, chats) => {
      const model = createOpenAIModel({ baseURL: url, modelName: 'm', sleep: instant });
      const errors = reasons(await burst(model, 4));
      assert.ok(errors.every((e) => e.kind === 'fatal'));
      assert.match(
        errors[0].message,
        /failed \(HTTP 503\): maintenance; the server asks to wait until 2099-10-21T07:28:00Z \(Retry-After\), longer than a call's retry time budget of 900 s: run the same command again after that time$/,
      );
      assert.doesNotMatch(errors[0].message, /budget of 900 s spent/);
      assert.equal(chats(), 1);
    },
  );
});

test('once the first call succeeds, the calls that queued for turns behind it go out together', async () => {
  // The first request is answered at once; the next ones are held until three are in flight together. Calls still
  // queued one after another would each be held alone: the fallback answers them, and the count shows it.
  const held: Array<() => void> = [];
  let inFlight = 0;
  let most = 0;
  await withServer(
    (_b, n, res) => {
      if (n === 1) return json(res, 200, completion());
      inFlight++;
      most = Math.max(most, inFlight);
      const answer = () => {
        inFlight--;
        json(res, 200, completion());
      };
      held.push(answer);
      const fallback = setTimeout(() => held.splice(held.indexOf(answer), 1) && answer(), 30_000);
      res.on('close', () => clearTimeout(fallback));
      if (held.length === 3) for (const a of held.splice(0)) a();
    },
    async (url) => {
      const model = createOpenAIModel({ baseURL: url, modelName: 'm', sleep: instant });
      const results = await burst(model, 4);
      assert.deepEqual(
        results.map((r) => r.status),
        ['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled'],
      );
      assert.equal(most, 3, 'requests in flight together after the first success');
    },
  );
});
