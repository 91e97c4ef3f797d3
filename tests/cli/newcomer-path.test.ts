// What a new user reads, through the real binary: honest reasons, a unit asked for, counts in the right number,
// a "next:" line, a shard's "n of N", the predicted wall time before an endpoint run, and the scripts' usage lines.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertOneLine, runBench } from '../helpers/cli.js';
import { completion, fakeEndpoint, json } from '../helpers/fake-endpoint.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'bench-newcomer-'));
const small = (out: string, lengths = '8k', samples = '2') => [
  'run',
  'niah_single_1',
  '--lengths',
  lengths,
  '--samples',
  samples,
  '--no-progress',
  '--out',
  out,
];

test('--lengths without a unit below 1000 asks for one (run, plan, generate); 1000 and up, or with a unit, are tokens', async () => {
  const out = join(tmp(), 'run');
  for (const args of [
    ['run', 'niah_single_1', '--lengths', '32', '--out', out],
    ['plan', 'niah_single_1', '--lengths', '8k,32'],
    ['generate', 'niah_single_1', '--lengths', '32..64', '--out', join(out, 'x.jsonl')],
  ]) {
    const r = await runBench(args);
    assertOneLine(r, 2, /'32' has no unit; write 32k \(32,768 tokens\) or docs:32 \(32 documents\)/);
  }
  const plain = await runBench(['run', 'niah_single_1', '--lengths', '8192', '--samples', '1', '--dry-run']);
  assert.equal(plain.code, 0, plain.stderr);
  assert.match(plain.stdout, /lengths 8k \(1 point\)/);
});

test('a run says "1 point" and ends with next: bench report DIR; the report ends with where to open it', async () => {
  const out = join(tmp(), 'my run');
  const r = await runBench(small(out));
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^niah_single_1: lengths 8k \(1 point\)$/m);
  assert.doesNotMatch(r.stdout, /\b1 points\b/);
  const lines = r.stdout.trimEnd().split('\n');
  assert.equal(lines.at(-1), `next: bench report '${out}'`);
  const report = await runBench(['report', out]);
  assert.equal(report.code, 0, report.stderr);
  assert.equal(report.stdout.trimEnd().split('\n').at(-1), `next: open ${join(out, 'report.html')} in a browser`);
});

test('a shard says it holds n of the grid N samples', async () => {
  const out = join(tmp(), 'shard1');
  const r = await runBench([...small(out, '8k,16k', '7'), '--shard', '1/4']);
  assert.equal(r.code, 0, r.stderr);
  // Shard 1 of 4 of 7 samples: indices 1 and 5 at each length.
  assert.match(
    r.stdout,
    /^shard 1\/4: this directory holds 4 of the grid's 14 samples per method \(2 of 7 at each length\); bench merge the 4 shards' directories for the whole grid$/m,
  );
  const whole = await runBench(small(join(tmp(), 'whole')));
  assert.doesNotMatch(whole.stdout, /^shard /m);
});

test('--calibrate on an embedded-model run names the embedded model as the reason, not "too few calls"', async () => {
  const out = join(tmp(), 'embedded');
  assert.equal((await runBench(small(out, '8k', '1'))).code, 0);
  const r = await runBench(['plan', '--calibrate', out]);
  assertOneLine(
    r,
    2,
    /^bench: --calibrate: .* ran on the embedded model \(local:reference-reader-v1\), which answers in this process, so its calls\.jsonl holds no server timing to fit; calibrate on a run against an endpoint/,
  );
  assert.doesNotMatch(r.stderr, /too few|only \d+ usable/);
});

test('gate --paired: the FAIL line says that baseline keys are missing from the run', async () => {
  const dir = tmp();
  const base = join(dir, 'base');
  const narrow = join(dir, 'narrow');
  assert.equal((await runBench(small(base, '8k,16k', '3'))).code, 0);
  assert.equal((await runBench(small(narrow, '8k', '3'))).code, 0);
  const r = await runBench(['gate', narrow, '--baseline', base, '--paired']);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(
    r.stdout,
    /^gate: FAIL \(0 of 1 key regressed, 1 baseline key missing from the run \(--allow-missing skips them\); 1 key compared: 1 paired, 0 unpaired\)$/m,
  );
  const allowed = await runBench(['gate', narrow, '--baseline', base, '--paired', '--allow-missing']);
  assert.equal(allowed.code, 0, allowed.stdout);
  assert.match(allowed.stdout, /^gate: PASS \(1 key compared: 1 paired, 0 unpaired, 1 missing key skipped\)$/m);
});

test('before a run against an endpoint: one predicted line from bench plan, no call of its own; --no-plan skips it', async () => {
  const server = await fakeEndpoint((_body, _n, res) => json(res, 200, completion('7654321')));
  try {
    const args = ['niah_single_1', '--lengths', '8k,16k', '--samples', '3', '--method', 'full-context'];
    const endpoint = ['--model', server.url, '--model-name', 'm', '--no-progress'];
    const out = join(tmp(), 'endpoint');
    const r = await runBench(['run', ...args, ...endpoint, '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.split('\n');
    const m =
      /^predicted: ~6 calls, ~(\S+ (?:s|min|h)) wall at concurrency 16 on a simulated qwen2\.5-7b-h100 \(bench plan's model; --no-plan to skip\)$/.exec(
        lines[0],
      );
    assert.ok(m, r.stdout);
    assert.match(lines[1], /^niah_single_1: lengths 8k, 16k/);
    // Every request the server saw is one of the run's own six calls.
    assert.match(r.stdout, /this invocation: 6 model calls/);
    assert.equal(server.chats(), 6);
    // The same number bench plan prints for that command line.
    const plan = await runBench(['plan', ...args, '--json']);
    const makespan = (JSON.parse(plan.stdout) as { plan: { harness: { makespanS: number } } }).plan.harness.makespanS;
    assert.equal(m[1], `${makespan.toFixed(1)} s`);

    const skipped = await runBench(['run', ...args, ...endpoint, '--out', join(tmp(), 'e2'), '--no-plan']);
    assert.equal(skipped.code, 0, skipped.stderr);
    assert.doesNotMatch(skipped.stdout, /predicted:/);
  } finally {
    await server.close();
  }
  // The embedded model gets no prediction: it is no server.
  const local = await runBench(small(join(tmp(), 'local')));
  assert.doesNotMatch(local.stdout + local.stderr, /predicted:/);
});

test('the overview names exit code 3; check-report-html.sh without its argument prints its usage', async () => {
  const help = await runBench(['--help']);
  assert.match(
    help.stdout.replace(/\s+/g, ' '),
    /3 bench run finished with errored samples \(rerun with --retry-errors\)/,
  );
  const script = spawnSync('bash', ['scripts/check-report-html.sh'], { encoding: 'utf8' });
  assertOneLine(
    { code: script.status, signal: null, stdout: script.stdout, stderr: script.stderr },
    2,
    /^usage: bash scripts\/check-report-html\.sh RUN_DIR\/report\.html/,
  );
  const missing = spawnSync('bash', ['scripts/check-report-html.sh', join(tmp(), 'none.html')], { encoding: 'utf8' });
  assertOneLine(
    { code: missing.status, signal: null, stdout: missing.stdout, stderr: missing.stderr },
    2,
    /no file .*none\.html: pass a report\.html written by bench report/,
  );
});
