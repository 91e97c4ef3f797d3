// Bad input, endpoint side, round two (issue 17, parts 1 and 10): real `bench run` child processes against local
// servers that fail every call in a way no single answer marks as fatal. One run-level rule: before any success, a few
// calls failing the same way stop the run (exit 2, the server's own words); after successes, a long run of failed
// calls in a row does, cleanly and resumably. Each case asserts the exit code, the one stderr line, how many chat
// requests the server saw, what was saved, and that the same command resumes against a healthy server.
import { afterAll, beforeAll, test } from 'vitest';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertResumes, records, runArgs } from './endpoint-run.js';
import { assertOneLine, runBench } from '../../helpers/cli.js';
import { startBenchServe } from '../../helpers/bench-serve.js';
import { completion, fakeEndpoint, json, send, type ChatHandler } from '../../helpers/fake-endpoint.js';

let healthy: { url: string; child: ChildProcess };
const root = mkdtempSync(join(tmpdir(), 'bench-endpoint-rule-'));
let seq = 0;
const freshDir = () => join(root, `run${seq++}`);

beforeAll(async () => {
  healthy = await startBenchServe(['--model-name', 'm']);
});
afterAll(() => {
  healthy?.child.kill('SIGTERM');
});

const BAD_GATEWAY = '<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>';
const STOPPED = (done: number, of: number, errors = 0) =>
  new RegExp(
    `; run stopped: ${done} of ${of} samples finished and saved in \\S+${errors ? ` \\(${errors} of them as errors\\)` : ''}; once fixed, run the same command ${errors ? 'with --retry-errors' : 'again'} to resume$`,
  );

interface Case {
  name: string;
  chat: ChatHandler;
  message: RegExp;
  /** Samples that end as errors before the rule stops the run (refused requests are not sent twice). */
  errors?: number;
  samples?: number;
}

const cases: Case[] = [
  {
    name: "the issue's repro: 502 HTML forever, 20 samples (180 requests before)",
    chat: (_b, _n, res) => send(res, 502, 'text/html', BAD_GATEWAY),
    message:
      /^bench: endpoint http:\/\/127\.0\.0\.1:\d+\/v1 failed \(HTTP 502\): an HTML page titled "502 Bad Gateway" \(3 calls, 3 attempts, no call has succeeded yet\): the server is failing: see its log, and run again once it answers/,
    samples: 20,
  },
  {
    name: '503 JSON forever',
    chat: (_b, _n, res) => json(res, 503, { error: { message: 'no healthy upstream' } }),
    message: /failed \(HTTP 503\): no healthy upstream \(3 calls, 3 attempts, no call has succeeded yet\)/,
  },
  {
    name: 'a body cut off mid-JSON',
    chat: (_b, _n, res) => send(res, 200, 'application/json', '{"id":"x","object":"chat.completion","choices":[{"ind'),
    message:
      /sent a malformed response \(.*\) \(3 calls, 3 attempts, no call has succeeded yet\): the server \(or a proxy in front of it\) sends broken answers: see its log/,
  },
  {
    name: 'malformed JSON',
    chat: (_b, _n, res) => send(res, 200, 'application/json', '{"choices": [}'),
    message: /sent a malformed response \(.*\) \(3 calls, 3 attempts, no call has succeeded yet\)/,
  },
  {
    name: 'a 4xx other than 401/403/404 (422) for every request',
    chat: (_b, _n, res) => json(res, 422, { error: { message: 'unsupported parameter: top_p' } }),
    message:
      /refused the request \(HTTP 422\): unsupported parameter: top_p \(3 calls, 3 attempts, no call has succeeded yet\): the server refuses these requests: fix what it names/,
    errors: 2,
  },
  {
    name: 'a 200 whose body is an out-of-memory error (quoted, no "check the base URL")',
    chat: (_b, _n, res) =>
      json(res, 200, { error: { message: 'CUDA out of memory. Tried to allocate 2.00 GiB', code: 500 } }),
    message:
      /answered POST \/chat\/completions with an error inside a 200 body: "CUDA out of memory\. Tried to allocate 2\.00 GiB" \(3 calls, 3 attempts, no call has succeeded yet\): the server reports an error, not a wrong address: see its log, then run again/,
  },
  {
    name: 'a Retry-After date far in the future',
    chat: (_b, _n, res) => {
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': 'Wed, 21 Oct 2099 07:28:00 GMT' });
      res.end(JSON.stringify({ error: { message: 'down for maintenance' } }));
    },
    message:
      /failed \(HTTP 503\): down for maintenance; the server asks to wait until 2099-10-21T07:28:00Z \(Retry-After\), longer than a call's retry time budget of 900 s: run the same command again after that time/,
  },
];

for (const c of cases) {
  test(`stops at once: ${c.name}`, async () => {
    const server = await fakeEndpoint(c.chat);
    const out = freshDir();
    const samples = c.samples ?? 8;
    try {
      const r = await runBench(runArgs(server.url, out, samples));
      assertOneLine(r, 2, c.message);
      assert.match(r.stderr.trim(), STOPPED(c.errors ?? 0, samples, c.errors ?? 0));
      assert.doesNotMatch(r.stderr, /base URL|budget of 900 s spent/);
      assert.ok(server.chats() >= 1 && server.chats() <= 3, `${server.chats()} chat requests`);
      const saved = records(out);
      assert.equal(saved.length, c.errors ?? 0);
      assert.ok(saved.every((x) => x.status === 'error'));
    } finally {
      await server.close();
    }
    await assertResumes(healthy.url, out, samples, c.errors ? ['--retry-errors'] : []);
  });
}

test('after successes, 8 failed calls in a row across samples stop the run cleanly; --retry-errors resumes it', async () => {
  // --concurrency 1: samples run one after another, 3 calls each at 8k, so calls 1-6 finish samples 0 and 1. Then
  // 502 forever: samples 2-8 each end as an error after 9 attempts, and sample 9's call is the 8th failed in a row.
  const server = await fakeEndpoint((_b, n, res) =>
    n <= 6 ? json(res, 200, completion()) : send(res, 502, 'text/html', BAD_GATEWAY),
  );
  const out = freshDir();
  try {
    const r = await runBench(runArgs(server.url, out, 20, ['--concurrency', '1']));
    assertOneLine(
      r,
      2,
      /failed \(HTTP 502\): an HTML page titled "502 Bad Gateway" \(gave up after 9 attempts\); 8 calls in a row have failed, after 6 had succeeded: the server seems to be down or failing every call \(see its log\)/,
    );
    assert.match(r.stderr.trim(), STOPPED(9, 20, 7));
    assert.equal(server.chats(), 6 + 8 * 9);
    const saved = records(out);
    assert.equal(saved.filter((x) => x.status === 'ok').length, 2);
    assert.equal(saved.filter((x) => x.status === 'error').length, 7);
  } finally {
    await server.close();
  }
  await assertResumes(healthy.url, out, 20, ['--concurrency', '1', '--retry-errors']);
});

test('every sample rejected as too long (a 4,096-token window, below one MemAgent chunk): exit 2, one line', async () => {
  const server = await fakeEndpoint((_b, _n, res) =>
    json(res, 400, {
      object: 'error',
      message:
        "This model's maximum context length is 4096 tokens. However, you requested 6290 tokens (5266 in the messages, 1024 in the completion). Please reduce the length of the messages or completion.",
      type: 'BadRequestError',
      code: 400,
    }),
  );
  const out = freshDir();
  try {
    const r = await runBench(runArgs(server.url, out, 4));
    assertOneLine(
      r,
      2,
      /^bench: the server rejected every sample \(4 of 4\) as too long: its context window is 4,096 tokens, and memagent needs at least 6,290 tokens per call \(prompt and answer\); nothing was scored: serve the model with a longer context window \(vLLM: --max-model-len\), or make its calls smaller \(--chunk-tokens, --memory-tokens\)$/,
    );
    assert.equal(server.chats(), 4, 'one call per sample, none retried');
    const saved = records(out);
    assert.equal(saved.length, 4);
    assert.ok(saved.every((x) => x.status === 'truncated'));
  } finally {
    await server.close();
  }
});

test('some samples rejected as too long, others answered: truncation by design, exit 0, nothing on stderr', async () => {
  // The first sample's first call is answered; every later call is rejected as too long.
  const server = await fakeEndpoint((_b, n, res) =>
    n === 1
      ? json(res, 200, completion())
      : json(res, 400, { object: 'error', message: "This model's maximum context length is 4096 tokens." }),
  );
  const out = freshDir();
  try {
    const r = await runBench(runArgs(server.url, out, 3, ['--concurrency', '1']));
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr.trim(), '');
  } finally {
    await server.close();
  }
});
