// Bad input, endpoint side (issue 11): real `bench run` child processes against small local servers that misbehave
// the way real endpoints do. Each case asserts the exit code, the one-line message on stderr, how many chat calls the
// server saw, and that the run directory resumes against a healthy server (`bench serve`) afterwards.
import { afterAll, beforeAll, test } from 'vitest';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { assertResumes, records, runArgs } from './endpoint-run.js';
import { assertOneLine, dirFingerprint, runBench } from '../../helpers/cli.js';
import { startBenchServe } from '../../helpers/bench-serve.js';
import {
  NGINX_PAGE,
  NOT_FOUND_PAGE,
  completion,
  fakeEndpoint,
  json,
  send,
  type ChatHandler,
} from '../../helpers/fake-endpoint.js';

let healthy: { url: string; child: ChildProcess };
const root = mkdtempSync(join(tmpdir(), 'bench-endpoint-'));
let seq = 0;
const freshDir = () => join(root, `run${seq++}`);

beforeAll(async () => {
  healthy = await startBenchServe(['--model-name', 'm']);
});
afterAll(() => {
  healthy?.child.kill('SIGTERM');
});

interface StopCase {
  name: string;
  chat: ChatHandler;
  message: RegExp;
  /** Most chat requests the server may see. Default 5. */
  maxChats?: number;
  samples?: number;
  extra?: string[];
  env?: NodeJS.ProcessEnv;
}

const RUN_STOPPED =
  /; run stopped: 0 of (\d+) samples finished and saved in .+; once fixed, run the same command again to resume$/;

const stopCases: StopCase[] = [
  {
    name: "the issue's repro: chat answers 401 for 40 samples (no key given)",
    chat: (_b, _n, res) => json(res, 401, { error: { message: 'Invalid API key' } }),
    message:
      /^bench: endpoint http:\/\/127\.0\.0\.1:\d+\/v1 requires an API key \(HTTP 401: Invalid API key\): pass --api-key-env/,
    samples: 40,
  },
  {
    name: 'chat answers 401 to the key given',
    chat: (_b, _n, res) =>
      json(res, 401, { error: { message: 'Invalid API key', type: 'invalid_request_error', code: 'invalid_api_key' } }),
    message:
      /rejected the API key \(HTTP 401: Invalid API key\): set the variable named by --api-key-env to a valid key/,
    extra: ['--api-key-env', 'ENDPOINT_TEST_KEY'],
    env: { ...process.env, ENDPOINT_TEST_KEY: 'sk-endpoint-test-SECRET-42' },
  },
  {
    name: 'chat answers 403 (no access to the model)',
    chat: (_b, _n, res) => json(res, 403, { error: { message: 'You do not have access to model m' } }),
    message: /refused access \(HTTP 403: You do not have access to model m\)/,
  },
  {
    name: 'chat answers 404 "The model `m` does not exist." although /models lists it',
    chat: (_b, _n, res) =>
      json(res, 404, { object: 'error', message: 'The model `m` does not exist.', type: 'NotFoundError', code: 404 }),
    message:
      /does not serve model 'm' \(HTTP 404: The model `m` does not exist\.\): check --model-name \(GET \/models lists: m\)/,
  },
  {
    name: 'chat route 404s with an HTML page (wrong base URL behind nginx)',
    chat: (_b, _n, res) => send(res, 404, 'text/html', NOT_FOUND_PAGE),
    message:
      /has no POST \/chat\/completions route \(HTTP 404: an HTML page titled "404 Not Found"\): check the base URL given to --model \(it usually ends in \/v1\)/,
  },
  {
    name: 'chat route answers 405 Method Not Allowed',
    chat: (_b, _n, res) => send(res, 405, 'text/plain', 'Method Not Allowed'),
    message: /has no POST \/chat\/completions route \(HTTP 405: Method Not Allowed\)/,
  },
  {
    name: 'chat answers 200 with an HTML page',
    chat: (_b, _n, res) => send(res, 200, 'text/html', NGINX_PAGE),
    message:
      /answered POST \/chat\/completions with an HTML page titled "Welcome to nginx!" \(HTTP 200\), not a chat completion \(2 attempts\): check that --model is the base URL of an OpenAI-compatible API/,
  },
  {
    name: 'chat answers 200 with a body that is not JSON',
    chat: (_b, _n, res) => send(res, 200, 'text/plain', 'OK'),
    message: /answered POST \/chat\/completions with a body that is not JSON \(HTTP 200: "OK"\), not a chat completion/,
  },
  {
    name: 'chat answers 200 with empty choices',
    chat: (_b, _n, res) =>
      json(res, 200, {
        id: 'x',
        object: 'chat.completion',
        choices: [],
        usage: { prompt_tokens: 0, completion_tokens: 0 },
      }),
    message: /answered POST \/chat\/completions with an empty "choices" list \(HTTP 200\), not a chat completion/,
  },
  {
    name: 'chat answers 200 with an error object instead of a completion',
    chat: (_b, _n, res) => json(res, 200, { error: { message: 'upstream model crashed' } }),
    // The server's error is quoted, with no advice about the base URL (issue 17, part 10).
    message:
      /answered POST \/chat\/completions with an error inside a 200 body: "upstream model crashed" \(\d+ (calls, \d+ )?attempts, no call has succeeded yet\): the server reports an error, not a wrong address: see its log/,
  },
  {
    name: 'chat resets every connection (never answers)',
    chat: (_b, _n, res, req) => {
      void res;
      req.socket.destroy();
    },
    // Folded into the run-level rule (issue 17): three attempts, not nine.
    message:
      /(lost the connection to|cannot reach) .*\(3 calls, 3 attempts, no call has succeeded yet\): check that the server is up/,
    maxChats: 3,
  },
];

for (const c of stopCases) {
  test(`stops at once: ${c.name}`, async () => {
    const server = await fakeEndpoint(c.chat);
    const out = freshDir();
    const samples = c.samples ?? 8;
    try {
      const r = await runBench(runArgs(server.url, out, samples, c.extra ?? []), { env: c.env });
      assertOneLine(r, 2, c.message);
      assert.match(r.stderr.trim(), RUN_STOPPED);
      assert.equal(Number(RUN_STOPPED.exec(r.stderr.trim())![1]), samples);
      assert.ok(server.chats() >= 1 && server.chats() <= (c.maxChats ?? 5), `${server.chats()} chat calls`);
      if (c.env?.ENDPOINT_TEST_KEY)
        assert.ok(!(r.stderr + r.stdout).includes(c.env.ENDPOINT_TEST_KEY), 'the key was printed');
      // Nothing recorded as a result: the cut-off samples are not errors to retry, just not done yet.
      assert.deepEqual(records(out), []);
    } finally {
      await server.close();
    }
    await assertResumes(healthy.url, out, samples);
  });
}

test('a chat route that never answers, with --request-timeout 2: ends within its retry budget with one line', async () => {
  const server = await fakeEndpoint(() => {});
  const out = freshDir();
  try {
    // The message shows the call ended on its 16 s retry budget. The guard only catches a run that never ends: 16 s of
    // attempts plus a start-up that busy CPUs can stretch to tens of seconds must fit under it.
    const r = await runBench(runArgs(server.url, out, 1, ['--request-timeout', '2']), { timeoutMs: 120_000 });
    assert.equal(r.signal, null, 'killed by the 120 s guard');
    assertOneLine(
      r,
      2,
      /gave no complete answer within 2 s \(gave up after \d attempts: retry time budget of 16 s spent\); the endpoint has answered no call yet: check that the server is up and not stuck, or raise --request-timeout; run stopped: 0 of 1 samples/,
    );
    assert.ok(server.chats() <= 8, `${server.chats()} attempts`);
  } finally {
    await server.close();
  }
  await assertResumes(healthy.url, out, 1, ['--request-timeout', '2']);
});

test('a server that answers nothing at all, with --request-timeout 2: the probe names it, nothing written', async () => {
  const server = await fakeEndpoint(
    () => {},
    () => {},
  );
  const out = freshDir();
  try {
    const r = await runBench(runArgs(server.url, out, 4, ['--request-timeout', '2']), { timeoutMs: 30_000 });
    assertOneLine(
      r,
      2,
      /^bench: http:\/\/127\.0\.0\.1:\d+\/v1 did not answer GET \/models within 2 s: is the server up and the address right\?$/,
    );
    assert.equal(dirFingerprint(out), 'absent');
    assert.equal(server.chats(), 0);
  } finally {
    await server.close();
  }
});

const probeCases: Array<{ name: string; models: (res: ServerResponse) => void; message: RegExp }> = [
  {
    name: 'GET /models answers an HTML page (a web site, not an API)',
    models: (res) => send(res, 200, 'text/html; charset=utf-8', NGINX_PAGE),
    message:
      /^bench: http:\/\/127\.0\.0\.1:\d+\/v1 answered GET \/models with an HTML page titled "Welcome to nginx!", not an OpenAI-compatible API: point --model at the API's base URL \(for vLLM, SGLang, llama\.cpp and OpenAI it ends in \/v1\)$/,
  },
  {
    name: 'GET /models answers plain text',
    models: (res) => send(res, 200, 'text/plain', 'it works'),
    message:
      /answered GET \/models with a body that is not JSON \("it works"\), not a model list: is it an OpenAI-compatible server\?/,
  },
  {
    name: 'GET /models answers JSON without a model list',
    models: (res) => json(res, 200, { status: 'ok' }),
    message: /did not return a model list from GET \/models \(JSON without a "data" list of models\)/,
  },
];

for (const c of probeCases) {
  test(`refused before any work: ${c.name}`, async () => {
    const server = await fakeEndpoint((_b, _n, res) => json(res, 200, completion()), c.models);
    const out = freshDir();
    try {
      const r = await runBench(runArgs(server.url, out, 4));
      assertOneLine(r, 2, c.message);
      assert.doesNotMatch(r.stderr, /not found|available: \(none\)/);
      assert.equal(dirFingerprint(out), 'absent');
      assert.equal(server.chats(), 0);
    } finally {
      await server.close();
    }
    await assertResumes(healthy.url, out, 4);
  });
}

/** 500 "permanently" for about a third of the calls, chosen by the request body, so the same samples always fail. */
const failsSome: ChatHandler = (body, _n, res) => {
  if (createHash('sha256').update(body).digest()[0] < 85)
    return json(res, 500, { error: { message: 'CUDA error: an illegal memory access was encountered' } });
  json(res, 200, completion());
};

test("a server failing some samples' calls with 500: the run finishes, exit 3, the line counts them and names --retry-errors", async () => {
  const server = await fakeEndpoint(failsSome);
  const out = freshDir();
  try {
    const r = await runBench(runArgs(server.url, out, 8));
    const m =
      /^bench: (\d+) of 8 samples ended as errors \(first: endpoint http:\/\/127\.0\.0\.1:\d+\/v1 failed \(HTTP 500\): CUDA error: an illegal memory access was encountered \(gave up after 9 attempts\)\); results in .+; run the same command with --retry-errors to run those samples again$/.exec(
        r.stderr.trim(),
      );
    assertOneLine(r, 3, /ended as errors/);
    assert.ok(m, r.stderr);
    const errored = records(out).filter((x) => x.status === 'error').length;
    assert.ok(errored > 0 && errored < 8, `${errored} errored`);
    assert.equal(Number(m[1]), errored);
    assert.equal(records(out).length, 8, 'every sample recorded');
    // Resumed without --retry-errors, the errors are still there: still exit 3, same advice.
    const again = await runBench(runArgs(healthy.url, out, 8));
    assertOneLine(again, 3, new RegExp(`^bench: ${errored} of 8 samples ended as errors .*--retry-errors`));
    assert.match(again.stdout, /resuming: 8 of 8 samples already finished/);
  } finally {
    await server.close();
  }
  await assertResumes(healthy.url, out, 8, ['--retry-errors']);
});

test('a key revoked mid-run: finished samples stay saved, the run stops with exit 2, and resumes from there', async () => {
  // --concurrency 1: samples run one after another (3 calls each at 8k), so calls 1-6 finish samples 0 and 1.
  const server = await fakeEndpoint((_b, n, res) =>
    n <= 7 ? json(res, 200, completion()) : json(res, 401, { error: { message: 'API key revoked' } }),
  );
  const out = freshDir();
  try {
    const r = await runBench(runArgs(server.url, out, 6, ['--concurrency', '1']));
    assertOneLine(
      r,
      2,
      /requires an API key \(HTTP 401: API key revoked\).*; run stopped: 2 of 6 samples finished and saved in /,
    );
    assert.equal(server.chats(), 8);
    const saved = records(out);
    assert.equal(saved.length, 2);
    assert.ok(saved.every((x) => x.status === 'ok'));
  } finally {
    await server.close();
  }
  const resumed = await runBench(runArgs(healthy.url, out, 6, ['--concurrency', '1']));
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.match(resumed.stdout, /resuming: 2 of 6 samples already finished/);
  assert.equal(records(out).filter((x) => x.status === 'ok').length, 6);
});

test('bench gate fails a run with errored samples against a clean baseline unless --max-errors allows them', async () => {
  const server = await fakeEndpoint(failsSome);
  const bad = freshDir();
  const good = freshDir();
  try {
    assert.equal((await runBench(runArgs(server.url, bad, 4))).code, 3);
  } finally {
    await server.close();
  }
  const errored = records(bad).filter((x) => x.status === 'error').length;
  assert.ok(errored > 0);
  assert.equal((await runBench(runArgs(healthy.url, good, 4))).code, 0);
  const baseline = join(root, 'baseline.json');
  assert.equal((await runBench(['baseline', good, '--out', baseline])).code, 0);
  const gate = await runBench(['gate', bad, '--baseline', baseline, '--max-drop', '100']);
  assert.equal(gate.code, 1, gate.stdout + gate.stderr);
  assert.match(
    gate.stdout,
    new RegExp(`errors: ${errored} — TOO MANY: the baseline had 0; pass --max-errors ${errored} to allow them`),
  );
  assert.match(gate.stdout, /gate: FAIL \(.*too many errors\)/);
  const allowed = await runBench([
    'gate',
    bad,
    '--baseline',
    baseline,
    '--max-drop',
    '100',
    '--max-errors',
    String(errored),
  ]);
  assert.equal(allowed.code, 0, allowed.stdout + allowed.stderr);
});
