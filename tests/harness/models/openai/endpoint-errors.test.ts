// Endpoints that cannot serve a run (issue 11): what the client makes of each misbehaviour, how many calls it costs,
// and the helpers behind the messages. The CLI side is tests/cli/bad-input/endpoint.test.ts.
import { test, vi } from 'vitest';
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import {
  createOpenAIModel,
  EndpointCallError,
  probeEndpoint,
  attemptTimeoutMs,
  DEFAULT_TIMEOUT_POLICY,
} from '../../../../harness/models/openai/index.js';
import { explainMissing, isModelMissingMessage, serverWords } from '../../../../harness/models/openai/classify.js';
import { readChatCompletion } from '../../../../harness/models/openai/chat-wire.js';
import { readTextCompletion } from '../../../../harness/models/openai/text-wire.js';
import { timeoutSettings } from '../../../../harness/models/factory.js';
import { withWaitingNotice } from '../../../../harness/models/waiting.js';
import { ModelCallError, UserError } from '../../../../harness/errors.js';
import type { Model, ModelResponse } from '../../../../harness/types.js';
import { request } from '../../../reference/serve/helpers.js';
import { NGINX_PAGE, completion, fakeEndpoint, json, send } from '../../../helpers/fake-endpoint.js';

const instant = async () => {};
const fakeServer = fakeEndpoint;
const NGINX = NGINX_PAGE;

/** Starts n calls at once (as a run's samples would) and waits for all of them to settle. */
async function burst(model: Model, n: number): Promise<PromiseSettledResult<ModelResponse>[]> {
  return Promise.allSettled(Array.from({ length: n }, (_, i) => model.generate(request(`q ${i}`))));
}

function fatalOf(results: PromiseSettledResult<ModelResponse>[]): EndpointCallError[] {
  return results.map((r) => {
    assert.equal(r.status, 'rejected');
    const e = (r as PromiseRejectedResult).reason;
    assert.ok(e instanceof EndpointCallError && e.kind === 'fatal', String(e));
    return e;
  });
}

/** What a reader says of a 200 body: 'ok', 'syntax' (a cut-short JSON body) or the error's message. */
function judged(read: (text: string) => unknown) {
  return (text: string) => {
    try {
      read(text);
    } catch (e) {
      return e instanceof SyntaxError ? 'syntax' : (e as Error).message;
    }
    return 'ok';
  };
}

test('readChatCompletion names what came back instead of a chat completion; a body cut short stays a retryable SyntaxError', () => {
  const what = judged(readChatCompletion);
  assert.equal(what(NGINX), 'an HTML page titled "Welcome to nginx!" (HTTP 200)');
  assert.equal(what('OK'), 'a body that is not JSON (HTTP 200: "OK")');
  assert.equal(what(''), 'an empty body (HTTP 200)');
  assert.equal(what('{"choices": []}'), 'an empty "choices" list (HTTP 200)');
  assert.equal(what('{"object": "list"}'), 'JSON without "choices" (HTTP 200)');
  assert.equal(what('{"error": {"message": "upstream crashed"}}'), 'an error inside a 200 body (upstream crashed)');
  assert.equal(what('[1, 2]'), 'JSON that is not an object (HTTP 200)');
  assert.equal(what('{"id":"x","choices":[{"index":0,"message":{"role":"assis'), 'syntax');
  assert.equal(what(JSON.stringify(completion())), 'ok');
  assert.equal(what('{"choices":[{"message":{"content":7}}]}'), 'message.content is not text');
});

test('readTextCompletion refuses the same bodies and reads choices[0].text', () => {
  const what = judged(readTextCompletion);
  assert.equal(what(NGINX), 'an HTML page titled "Welcome to nginx!" (HTTP 200)');
  assert.equal(what('{"choices": []}'), 'an empty "choices" list (HTTP 200)');
  assert.equal(what('{"id":"x","choices":[{"index":0,"text":"Par'), 'syntax');
  assert.equal(what('{"choices":[{"text":["a"]}]}'), 'choices[0].text is not text');
  assert.deepEqual(
    readTextCompletion(
      '{"choices":[{"text":" Paris","finish_reason":"length"}],"usage":{"prompt_tokens":5,"completion_tokens":1}}',
    ),
    { text: ' Paris', usage: { promptTokens: 5, completionTokens: 1 }, finishReason: 'length' },
  );
  // A server that leaves usage and finish_reason out: the counts are named as missing (the caller counts them).
  assert.deepEqual(readTextCompletion('{"choices":[{}]}'), {
    text: '',
    usage: {
      promptTokens: 0,
      completionTokens: 0,
      problems: ['the server sent no usage'],
      uncounted: ['promptTokens', 'completionTokens'],
    },
    finishReason: 'unknown',
  });
});

test('404s: the server saying the model does not exist is a model error, anything else a missing route', () => {
  for (const t of [
    'The model `m` does not exist.',
    'The model `gpt-x` does not exist or you do not have access to it.',
    'model "llama3" not found, try pulling it first',
    'Invalid model name passed in model=x',
  ]) {
    assert.ok(isModelMissingMessage(t), t);
  }
  for (const t of ['Not Found', 'no route POST /chat/completions', '']) assert.ok(!isModelMissingMessage(t), t);
  assert.equal(
    explainMissing('http://h/v1', 'm', 404, 'The model `m` does not exist.', ['m', 'n']),
    "endpoint http://h/v1 does not serve model 'm' (HTTP 404: The model `m` does not exist.): check --model-name (GET /models lists: m, n)",
  );
  assert.equal(
    explainMissing('http://h/v1', 'x', 404, 'Not Found', ['m']),
    "endpoint http://h/v1 does not serve model 'x' (HTTP 404: Not Found): check --model-name (GET /models lists: m)",
  );
  assert.equal(
    explainMissing('http://h', 'm', 404, serverWords('<html><title>404 Not Found</title></html>'), ['m']),
    'endpoint http://h has no POST /chat/completions route (HTTP 404: an HTML page titled "404 Not Found"): check the base URL given to --model (it usually ends in /v1)',
  );
  assert.equal(
    explainMissing('http://h', 'm', 405, '', undefined),
    'endpoint http://h has no POST /chat/completions route (HTTP 405): check the base URL given to --model (it usually ends in /v1)',
  );
  assert.equal(serverWords('a\n  b\tc'), 'a b c');
  assert.equal(serverWords('x'.repeat(300)).length, 201);
});

test("a chat route answering 401 costs one call however many are in flight, and every call fails with the server's words", async () => {
  const server = await fakeServer((_b, _n, res) => json(res, 401, { error: { message: 'Invalid API key' } }));
  try {
    const model = createOpenAIModel({ baseURL: server.url, modelName: 'm', apiKey: 'k', sleep: instant });
    const errors = fatalOf(await burst(model, 8));
    assert.equal(server.chats(), 1);
    for (const e of errors) assert.match(e.message, /rejected the API key \(HTTP 401: Invalid API key\)/);
    assert.equal(errors.filter((e) => e.attempts === 0).length, 7, 'seven never sent');
    assert.equal(model.stats().attempts, 1);
  } finally {
    await server.close();
  }
});

test('403 and a 404 "model does not exist" are fatal at once, with the server\'s words', async () => {
  const forbidden = await fakeServer((_b, _n, res) =>
    json(res, 403, { error: { message: 'You do not have access to model m' } }),
  );
  const missing = await fakeServer((_b, _n, res) =>
    json(res, 404, { object: 'error', message: 'The model `m` does not exist.' }),
  );
  try {
    const a = fatalOf(await burst(createOpenAIModel({ baseURL: forbidden.url, modelName: 'm', sleep: instant }), 4));
    assert.match(
      a[0].message,
      /refused access \(HTTP 403: You do not have access to model m\): if it needs an API key, pass --api-key-env/,
    );
    const b = fatalOf(await burst(createOpenAIModel({ baseURL: missing.url, modelName: 'm', sleep: instant }), 4));
    assert.match(
      b[0].message,
      /does not serve model 'm' \(HTTP 404: The model `m` does not exist\.\): check --model-name \(GET \/models lists: m\)$/,
    );
    assert.deepEqual([forbidden.chats(), missing.chats()], [1, 1]);
  } finally {
    await Promise.all([forbidden.close(), missing.close()]);
  }
});

test('a body that is not a chat completion gets one retry before any call has succeeded, then is fatal', async () => {
  const server = await fakeServer((_b, _n, res) => send(res, 200, 'text/html', NGINX));
  try {
    const model = createOpenAIModel({ baseURL: server.url, modelName: 'm', sleep: instant });
    const errors = fatalOf(await burst(model, 6));
    assert.equal(server.chats(), 2);
    assert.match(
      errors[0].message,
      /answered POST \/chat\/completions with an HTML page titled "Welcome to nginx!" \(HTTP 200\), not a chat completion \(2 attempts\): check that --model is the base URL/,
    );
  } finally {
    await server.close();
  }
});

test('once the endpoint has answered properly, an odd body is retried like any malformed answer', async () => {
  // Call 2 gets an HTML page once, then a completion.
  const server = await fakeServer((_b, n, res) =>
    n === 2 ? send(res, 200, 'text/html', NGINX) : json(res, 200, completion(`reply ${n}`)),
  );
  try {
    const model = createOpenAIModel({ baseURL: server.url, modelName: 'm', sleep: instant });
    assert.equal((await model.generate(request('a'))).text, 'reply 1');
    const second = await model.generate(request('b'));
    assert.equal(second.text, 'reply 3');
    assert.equal(second.retries, 1);
    assert.deepEqual(model.stats().retriesByReason, { 'not-a-completion': 1 });
  } finally {
    await server.close();
  }
});

test('a first call that fails for its own reason (5xx for its prompt) lets the other calls go', async () => {
  const server = await fakeServer((body, _n, res) =>
    body.includes('q 0') ? json(res, 500, { error: { message: 'boom' } }) : json(res, 200, completion()),
  );
  try {
    const model = createOpenAIModel({ baseURL: server.url, modelName: 'm', maxRetries: 2, sleep: instant });
    const results = await burst(model, 4);
    assert.equal(results[0].status, 'rejected');
    const e = (results[0] as PromiseRejectedResult).reason;
    assert.ok(e instanceof ModelCallError && e.kind === 'transient', String(e));
    assert.deepEqual(
      results.slice(1).map((r) => r.status),
      ['fulfilled', 'fulfilled', 'fulfilled'],
    );
  } finally {
    await server.close();
  }
});

test('--request-timeout S is exactly S per attempt and 8 × S per call; without it the limit grows with size', () => {
  const set = timeoutSettings(2000);
  assert.equal(attemptTimeoutMs({ ...DEFAULT_TIMEOUT_POLICY, ...set.timeoutPolicy }, 4_000_000, 4096), 2000);
  assert.equal(set.totalRetryBudgetMs, 16_000);
  assert.deepEqual(timeoutSettings(undefined), {});
  assert.ok(attemptTimeoutMs(DEFAULT_TIMEOUT_POLICY, 32_000, 1024) > 60_000);
});

test('a server that never answers chat: the first call ends within its retry budget as a fatal, one-line error', async () => {
  const server = await fakeServer(() => {});
  try {
    const model = createOpenAIModel({ baseURL: server.url, modelName: 'm', sleep: instant, ...timeoutSettings(150) });
    const [e] = fatalOf(await burst(model, 3));
    assert.match(
      e.message,
      /gave no complete answer within 0\.2 s \(gave up after \d attempts: retry time budget of 1\.2 s spent\); the endpoint has answered no call yet: .*raise --request-timeout$/,
    );
    assert.ok(!e.message.includes('\n'));
    assert.ok(server.chats() <= 8);
  } finally {
    await server.close();
  }
});

test('GET /models answering HTML, plain text or other JSON: the probe says it is not an OpenAI-compatible API', async () => {
  const cases: [(res: ServerResponse) => void, RegExp][] = [
    [
      (res) => send(res, 200, 'text/html', NGINX),
      /answered GET \/models with an HTML page titled "Welcome to nginx!", not an OpenAI-compatible API: point --model at the API's base URL/,
    ],
    [
      (res) => send(res, 200, 'text/plain', 'hello'),
      /answered GET \/models with a body that is not JSON \("hello"\), not a model list/,
    ],
    [
      (res) => json(res, 200, { models: ['m'] }),
      /did not return a model list from GET \/models \(JSON without a "data" list/,
    ],
  ];
  for (const [models, re] of cases) {
    const server = await fakeServer(() => {}, models);
    try {
      await assert.rejects(probeEndpoint({ baseURL: server.url, modelName: 'm' }), (e: unknown) => {
        assert.ok(e instanceof UserError, String(e));
        assert.ok(!e.message.includes('\n'));
        assert.match(e.message, re);
        assert.doesNotMatch(e.message, /not found|available/);
        return true;
      });
    } finally {
      await server.close();
    }
  }
});

test('waiting notice: a line while calls are out and none finishes, none once they finish', async () => {
  // Fake timers and clock: the notice's interval and its "last 0.1 s" figures run on test time, not the wall clock.
  vi.useFakeTimers();
  try {
    await waitingNotice();
  } finally {
    vi.useRealTimers();
  }
});

async function waitingNotice(): Promise<void> {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const slow: Model = {
    id: 'slow',
    isReferenceReader: false,
    async generate() {
      await gate;
      return {
        text: 'x',
        usage: { promptTokens: 0, completionTokens: 0 },
        latencyMs: 0,
        finishReason: 'stop',
        cached: false,
        retries: 0,
      };
    },
  };
  const lines: string[] = [];
  const model = withWaitingNotice(slow, 'http://h/v1', (l) => lines.push(l), {
    quietMs: 300,
    tickMs: 50,
    now: () => Date.now(),
  });
  const calls = [model.generate(request('a')), model.generate(request('b'))];
  vi.advanceTimersByTime(250);
  assert.deepEqual(lines, [], 'quiet for less than quietMs');
  vi.advanceTimersByTime(400); // t = 650 ms: lines at 300 and 600
  assert.deepEqual(lines, [
    'waiting on 2 calls to http://h/v1: longest 0.3 s, none finished in the last 0.3 s',
    'waiting on 2 calls to http://h/v1: longest 0.6 s, none finished in the last 0.6 s',
  ]);
  release();
  await Promise.all(calls);
  vi.advanceTimersByTime(2_000);
  assert.equal(lines.length, 2, 'no line once nothing is outstanding');
  await model.close?.();
}
