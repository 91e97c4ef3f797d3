// Bad input, secrets (issue 17 part 2): a server that quotes the API key, or the whole Authorization header, back in
// its error bodies. Real `bench run` child processes against a real local server that does exactly that; the key must
// reach neither stderr nor any file of the run directory (samples.jsonl, calls.jsonl, manifest, summary).
import { afterAll, expect, test } from 'vitest';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { assertOneLine, runBench } from '../../helpers/cli.js';
import { completion, fakeEndpoint, json, type FakeEndpoint } from '../../helpers/fake-endpoint.js';

const KEY = 'sk-test-ECHOED-secret-0123456789';
const env = { ...process.env, SECRETS_TEST_KEY: KEY };
const root = mkdtempSync(join(tmpdir(), 'bench-secrets-'));
let seq = 0;
const freshDir = () => join(root, `run${seq++}`);
const servers: FakeEndpoint[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/** What a careless server says: the key it was sent, and the Authorization header as received. */
const echo = (req: IncomingMessage) =>
  `Incorrect API key provided: ${KEY}. You sent Authorization: ${req.headers.authorization ?? '(none)'}`;

function runArgs(url: string, out: string, samples: number): string[] {
  return [
    'run',
    'ruler-hqa',
    '--lengths',
    '8k',
    '--samples',
    String(samples),
    '--method',
    'full-context',
    '--model',
    url,
    '--model-name',
    'm',
    '--api-key-env',
    'SECRETS_TEST_KEY',
    '--no-progress',
    '--no-cache',
    '--retry-base-ms',
    '1',
    '--out',
    out,
  ];
}

/** Every file under dir, as text. */
function allText(dir: string): Array<{ file: string; text: string }> {
  if (!existsSync(dir)) return [];
  const out: Array<{ file: string; text: string }> = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...allText(p));
    else out.push({ file: p, text: readFileSync(p, 'utf8') });
  }
  return out;
}

function assertNoKey(where: string, text: string): void {
  assert.ok(!text.includes(KEY), `${where} holds the API key:\n${text.slice(0, 2000)}`);
  assert.ok(!/Bearer sk-/i.test(text), `${where} holds an Authorization value:\n${text.slice(0, 2000)}`);
}

test('a 400 quoting the key and the Authorization header: samples.jsonl, calls.jsonl and stderr hold neither', async () => {
  // The first call and every odd one succeed (so the endpoint is proven), every even one is refused with the echo.
  const server = await fakeEndpoint((_body, n, res: ServerResponse, req) =>
    n % 2 === 0
      ? json(res, 400, { error: { message: echo(req), type: 'invalid_request_error' } })
      : json(res, 200, completion()),
  );
  servers.push(server);
  const out = freshDir();
  const r = await runBench(runArgs(server.url, out, 6), { env });
  assert.equal(r.code, 3, `exit ${r.code}: ${r.stderr}`);
  assertNoKey('stderr', r.stderr);
  assertNoKey('stdout', r.stdout);
  // The line still says what the server said, with the secrets taken out.
  expect(r.stderr).toMatch(
    /^bench: 3 of 6 samples ended as errors \(first: .*Incorrect API key provided: \[redacted\]/m,
  );
  expect(r.stderr).toMatch(/Authorization: Bearer \[redacted\]/);
  const files = allText(out);
  assert.ok(files.some((f) => f.file.endsWith('samples.jsonl')));
  assert.ok(files.some((f) => f.file.endsWith('calls.jsonl')));
  for (const f of files) assertNoKey(f.file, f.text);
  const errors = readFileSync(join(out, 'samples.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .filter((x) => x.status === 'error');
  assert.equal(errors.length, 3);
  for (const e of errors) expect(e.error).toMatch(/Incorrect API key provided: \[redacted\]/);
  const failedCalls = readFileSync(join(out, 'calls.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .filter((c) => c.status === 'error');
  assert.equal(failedCalls.length, 3);
  for (const c of failedCalls) expect(c.error).toMatch(/\[redacted\]/);
});

test('a 401 on every chat call quoting the key: the one stderr line names the refusal, not the key', async () => {
  const server = await fakeEndpoint((_body, _n, res, req) =>
    json(res, 401, { error: { message: echo(req), code: 'invalid_api_key' } }),
  );
  servers.push(server);
  const out = freshDir();
  const r = await runBench(runArgs(server.url, out, 4), { env });
  assertOneLine(r, 2, /rejected the API key \(HTTP 401: Incorrect API key provided: \[redacted\]/);
  assertNoKey('stderr', r.stderr);
  for (const f of allText(out)) assertNoKey(f.file, f.text);
});

test('GET /models answers 401 quoting the key (the probe): stderr holds no key', async () => {
  const server = await fakeEndpoint(
    (_body, _n, res) => json(res, 200, completion()),
    (res) => json(res, 401, { error: { message: `Incorrect API key provided: ${KEY}` } }),
  );
  servers.push(server);
  const out = freshDir();
  const r = await runBench(runArgs(server.url, out, 2), { env });
  assertOneLine(r, 2, /rejected the API key \(HTTP 401: Incorrect API key provided: \[redacted\]\)/);
  assertNoKey('stderr', r.stderr);
  for (const f of allText(out)) assertNoKey(f.file, f.text);
});
