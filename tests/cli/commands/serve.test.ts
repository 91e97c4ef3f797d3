import { test } from 'vitest';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { serveCommand } from '../../../cli/commands/serve.js';
import { serveOptionsFromFlags } from '../../../reference/serve/index.js';
import { UserError } from '../../../harness/errors.js';
import { echoModel } from '../../reference/serve/helpers.js';

test('serveOptionsFromFlags: defaults, parsing and one-line errors', () => {
  const d = serveOptionsFromFlags({}, {});
  assert.equal(d.host, '127.0.0.1');
  assert.equal(d.port, 8000);
  assert.equal(d.modelName, 'reference-reader');
  assert.equal(d.apiKey, undefined);
  assert.equal(d.faults.fail5xx, 0);
  const o = serveOptionsFromFlags(
    {
      port: '0',
      'model-name': 'qwen',
      'api-key-env': 'MY_KEY',
      'max-context': '32768',
      'fail-5xx': '10%',
      'fail-hang': '0.01',
      seed: '3',
      'retry-after': '2',
    },
    { MY_KEY: 'abc' },
  );
  assert.equal(o.port, 0);
  assert.equal(o.apiKey, 'abc');
  assert.equal(o.apiKeyEnv, 'MY_KEY');
  assert.equal(o.maxContext, 32768);
  assert.equal(o.faults.fail5xx, 0.1);
  assert.equal(o.faults.failHang, 0.01);
  assert.equal(o.faults.seed, 3);
  assert.equal(o.faults.retryAfterS, 2);
  const bad = (flags: Record<string, string>, re: RegExp, env = {}) =>
    assert.throws(
      () => serveOptionsFromFlags(flags, env),
      (e: unknown) => e instanceof UserError && re.test(e.message) && !e.message.includes('\n'),
    );
  bad({ port: '70000' }, /--port expects an integer in 0\.\.65535/);
  bad({ 'max-context': '12k' }, /--max-context expects an integer/);
  bad({ 'api-key-env': 'MY_KEY' }, /environment variable MY_KEY \(from --api-key-env\) is empty/);
  bad({ 'api-key-env': 'sk-live-123' }, /takes the NAME of an environment variable/);
  bad({ 'fail-429': '2' }, /--fail-429 must be a rate/);
});

test('serveCommand prints one line with the URL, serves, and stops when told', async () => {
  const lines: string[] = [];
  let stop!: () => void;
  const until = new Promise<void>((r) => (stop = r));
  let url = '';
  const done = serveCommand(serveOptionsFromFlags({ port: '0', 'model-name': 'm1' }, {}), {
    model: echoModel(),
    print: (l) => lines.push(l),
    until,
    onListening: (s) => (url = s.url),
  });
  while (!url) await new Promise((r) => setTimeout(r, 5));
  assert.equal(lines.length, 1);
  assert.match(lines[0], /^bench serve: model m1 at http:\/\/127\.0\.0\.1:\d+\/v1$/);
  assert.ok(lines[0].endsWith(url));
  assert.equal((await fetch(`${url}/models`)).status, 200);
  stop();
  assert.equal(await done, 0);
  await assert.rejects(fetch(`${url}/models`), /fetch failed/);
});

test('serveCommand: a port in use is a UserError', async () => {
  let stop!: () => void;
  let url = '';
  const first = serveCommand(serveOptionsFromFlags({ port: '0' }, {}), {
    model: echoModel(),
    print: () => {},
    until: new Promise<void>((r) => (stop = r)),
    onListening: (s) => (url = s.url),
  });
  while (!url) await new Promise((r) => setTimeout(r, 5));
  const port = new URL(url).port;
  await assert.rejects(
    serveCommand(serveOptionsFromFlags({ port }, {}), {
      model: echoModel(),
      print: () => {},
      until: Promise.resolve(),
    }),
    (e: unknown) => e instanceof UserError && new RegExp(`port ${port} on 127.0.0.1 is in use`).test(e.message),
  );
  stop();
  await first;
});

test('a serving process exits 0 on SIGTERM and never prints the key', async () => {
  const root = fileURLToPath(new URL('../../..', import.meta.url));
  const script = `
    import { serveCommand } from './cli/commands/serve.js';
    import { serveOptionsFromFlags, modelFromReply } from './reference/serve/index.js';
    const code = await serveCommand(serveOptionsFromFlags({ port: '0', 'api-key-env': 'T_KEY' }), { model: modelFromReply(() => 'ok') });
    console.log('exited ' + code);
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: root,
    env: { ...process.env, T_KEY: 'key-7c1e' },
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  while (!out.includes('/v1')) {
    if (child.exitCode !== null) assert.fail(`server exited early: ${out}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const url = out.match(/(http:\/\/\S+\/v1)/)![1];
  const res = await fetch(`${url}/models`, { headers: { authorization: 'Bearer key-7c1e' } });
  assert.equal(res.status, 200);
  child.kill('SIGTERM');
  const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
  assert.equal(code, 0, out);
  assert.match(out, /exited 0/);
  assert.ok(!out.includes('key-7c1e'));
  assert.match(out, /key from \$T_KEY/);
});
