import { test } from 'vitest';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { BIN, startBenchServe } from '../../helpers/bench-serve.js';
import { runBench } from '../../helpers/cli.js';
import { completion, fakeEndpoint, json } from '../../helpers/fake-endpoint.js';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function lines(file: string): Array<Record<string, any>> {
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath ?? (e as any).path, e.name));
}

test('a run against a faulty server ends with the same scores as against a clean one', async () => {
  const clean = await startBenchServe([]);
  const faulty = await startBenchServe([
    '--fail-5xx',
    '0.1',
    '--fail-429',
    '0.05',
    '--retry-after',
    '1',
    '--fail-reset',
    '0.02',
    '--fail-malformed',
    '0.01',
    '--fail-hang',
    '0.01',
    '--seed',
    '3',
  ]);
  try {
    const dir = mkdtempSync(join(tmpdir(), 'bench-faults-'));
    // The per-attempt timeout only has to end the injected hangs; it is far above any real call's time so that a busy
    // machine never turns a slow call into a retry (the clean run must make none).
    const run = (url: string, out: string, extra: string[] = []) =>
      spawnSync(
        process.execPath,
        [
          BIN,
          'run',
          'ruler-hqa',
          '--lengths',
          '8k,16k',
          '--samples',
          '6',
          '--model',
          url,
          '--model-name',
          'reference-reader',
          '--concurrency',
          '4',
          '--no-progress',
          '--no-cache',
          '--request-timeout',
          '15',
          '--retry-base-ms',
          '50',
          '--out',
          join(dir, out),
          ...extra,
        ],
        { encoding: 'utf8', timeout: 240_000 },
      );
    const a = run(clean.url, 'clean', ['--store-prompts']);
    assert.equal(a.status, 0, a.stderr);
    const b = run(faulty.url, 'faulty');
    assert.equal(b.status, 0, b.stderr);
    const score = (rs: Array<Record<string, any>>) =>
      Object.fromEntries(rs.map((r) => [r.id, [r.status, r.score, r.prediction]]));
    const ra = lines(join(dir, 'clean', 'samples.jsonl'));
    const rb = lines(join(dir, 'faulty', 'samples.jsonl'));
    assert.equal(rb.length, 12);
    assert.deepEqual(score(rb), score(ra));
    const retries = lines(join(dir, 'faulty', 'calls.jsonl')).reduce((n, c) => n + c.retries, 0);
    console.log(
      `retries against the faulty server: ${retries}; ${b.stdout.split('\n').find((l) => l.includes('retries'))}`,
    );
    assert.ok(retries > 0);
    const cleanCalls = lines(join(dir, 'clean', 'calls.jsonl'));
    assert.equal(
      cleanCalls.reduce((n, c) => n + c.retries, 0),
      0,
    );
    // Prompts are stored once each, by content hash, and every call refers to one.
    const stored = new Set(
      filesUnder(join(dir, 'clean', 'prompts')).map((f) => f.split('/').pop()!.replace('.json', '')),
    );
    for (const c of cleanCalls) assert.ok(stored.has(c.promptHash), c.promptHash);
    assert.ok(stored.size <= cleanCalls.length);
  } finally {
    clean.child.kill('SIGTERM');
    faulty.child.kill('SIGTERM');
  }
});

test('endpoint down, wrong model, bad key: one clear line, exit 2, and the key never reaches the run directory', async () => {
  const secret = 'sk-test-DO-NOT-LEAK-1234567890';
  const server = await startBenchServe(['--api-key-env', 'SERVE_KEY'], { ...process.env, SERVE_KEY: secret });
  try {
    const dir = mkdtempSync(join(tmpdir(), 'bench-bad-'));
    const base = ['run', 'ruler-hqa', '--lengths', '8k', '--samples', '2', '--no-progress', '--no-cache'];
    const cases: Array<{ args: string[]; env: NodeJS.ProcessEnv; expect: RegExp }> = [
      { args: ['--model', 'http://127.0.0.1:9/v1', '--model-name', 'x'], env: process.env, expect: /cannot reach/ },
      {
        args: ['--model', server.url, '--model-name', 'no-such-model', '--api-key-env', 'K'],
        env: { ...process.env, K: secret },
        expect: /not found/,
      },
      {
        args: ['--model', server.url, '--model-name', 'reference-reader', '--api-key-env', 'K'],
        env: { ...process.env, K: 'wrong' },
        expect: /API key/,
      },
      {
        args: ['--model', server.url, '--model-name', 'reference-reader', '--api-key-env', 'UNSET_VAR_X'],
        env: process.env,
        expect: /not set/,
      },
    ];
    for (const [i, c] of cases.entries()) {
      const r = spawnSync(process.execPath, [BIN, ...base, ...c.args, '--out', join(dir, `bad${i}`)], {
        encoding: 'utf8',
        env: c.env,
        timeout: 60_000,
      });
      assert.equal(r.status, 2, `${c.args.join(' ')}: ${r.stderr}`);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
      assert.match(r.stderr, c.expect);
      assert.doesNotMatch(r.stderr + r.stdout, new RegExp(secret));
    }
    const ok = spawnSync(
      process.execPath,
      [
        BIN,
        ...base,
        '--model',
        server.url,
        '--model-name',
        'reference-reader',
        '--api-key-env',
        'K',
        '--out',
        join(dir, 'good'),
      ],
      { encoding: 'utf8', env: { ...process.env, K: secret }, timeout: 120_000 },
    );
    assert.equal(ok.status, 0, ok.stderr);
    for (const f of filesUnder(dir)) assert.ok(!readFileSync(f, 'utf8').includes(secret), `${f} contains the key`);
  } finally {
    server.child.kill('SIGTERM');
  }
});

test('samples that ended as errors are kept as errors, and --retry-errors reruns them against a working endpoint', async () => {
  // The first call is answered, every later one gets a 500: a server failing every call before any success would stop
  // the run instead (the run-level rule, tests/cli/bad-input/endpoint-rule.test.ts).
  const broken = await fakeEndpoint(
    (_b, n, res) => (n === 1 ? json(res, 200, completion()) : json(res, 500, { error: { message: 'injected' } })),
    (res) => json(res, 200, { object: 'list', data: [{ id: 'reference-reader', object: 'model' }] }),
  );
  const clean = await startBenchServe([]);
  try {
    const dir = join(mkdtempSync(join(tmpdir(), 'bench-retry-')), 'run');
    const base = [
      'run',
      'ruler-hqa',
      '--lengths',
      '8k',
      '--samples',
      '3',
      '--model-name',
      'reference-reader',
      '--no-progress',
      '--no-cache',
      '--retry-base-ms',
      '1',
      '--out',
      dir,
    ];
    const first = await runBench([...base, '--model', broken.url]);
    // Finished with errored samples: exit 3, and the closing line says how to run them again.
    assert.equal(first.code, 3, first.stderr);
    assert.match(first.stderr, /3 of 3 samples ended as errors .*--retry-errors/);
    const errored = lines(join(dir, 'samples.jsonl'));
    assert.deepEqual(
      errored.map((r) => r.status),
      ['error', 'error', 'error'],
    );
    assert.ok(errored.every((r) => r.score === 0 && /HTTP 5\d\d/.test(r.error)));
    assert.match(first.stdout, /errors/);
    // Without the flag a rerun keeps them; with it they run again and the new lines supersede the old.
    const kept = spawnSync(process.execPath, [BIN, ...base, '--model', clean.url], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    assert.match(kept.stdout, /resuming: 3 of 3/);
    const again = spawnSync(process.execPath, [BIN, ...base, '--model', clean.url, '--retry-errors'], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    assert.equal(again.status, 0, again.stderr);
    const all = lines(join(dir, 'samples.jsonl'));
    assert.equal(all.length, 6);
    assert.deepEqual(
      all.slice(3).map((r) => r.status),
      ['ok', 'ok', 'ok'],
    );
    const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));
    assert.equal(summary.rows[0].errors, 0);
    assert.equal(summary.rows[0].n, 3);
  } finally {
    await broken.close();
    clean.child.kill('SIGTERM');
  }
});
