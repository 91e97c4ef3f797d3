import { test } from 'vitest';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';

const BIN = join(process.cwd(), 'bin', 'bench.js');

function bench(args: string[], cwd = process.cwd()) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function lines(file: string) {
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
}

test('bench run on a short length: grid printed, table, run directory, identical scores on a second run', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-run-'));
  const args = ['run', 'ruler-hqa', '--lengths', '8k,16k', '--samples', '6', '--no-progress'];
  const first = bench([...args, '--out', join(dir, 'a')]);
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, /ruler-hqa: lengths 8k, 16k \(2 points\)/);
  assert.match(first.stdout, /8k/);
  assert.match(first.stdout, /16k/);
  assert.match(first.stdout, /not an LLM/);
  for (const f of ['manifest.json', 'samples.jsonl', 'summary.csv', 'calls.jsonl'])
    assert.ok(existsSync(join(dir, 'a', f)), f);
  const a = lines(join(dir, 'a', 'samples.jsonl'));
  assert.equal(a.length, 12);
  assert.ok(a.every((r) => r.status === 'ok' && typeof r.score === 'number' && r.builtTokens <= r.length));
  const manifest = JSON.parse(readFileSync(join(dir, 'a', 'manifest.json'), 'utf8'));
  assert.equal(manifest.seed, 42);
  assert.equal(manifest.tokenizer, 'qwen2.5');
  assert.deepEqual(manifest.lengths['ruler-hqa'], ['8k', '16k']);
  // Calls = ceil(tokens / 5000) + 1 per sample.
  for (const r of a) assert.equal(r.calls, Math.ceil(r.builtTokens / 5000) + 1);

  const second = bench([...args, '--out', join(dir, 'b')]);
  assert.equal(second.code, 0, second.stderr);
  const b = lines(join(dir, 'b', 'samples.jsonl'));
  const key = (r: { id: string; score: number; prediction: string }) => `${r.id} ${r.score} ${r.prediction}`;
  assert.deepEqual(b.map(key).sort(), a.map(key).sort());

  // Rerunning into the same directory resumes: nothing left to do, nothing duplicated.
  const again = bench([...args, '--out', join(dir, 'a')]);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /resuming: 12 of 12/);
  assert.equal(lines(join(dir, 'a', 'samples.jsonl')).length, 12);
});

test('bad input: one clear line and exit code 2', () => {
  for (const args of [
    ['run', 'ruler-hqa', '--lengths', '3.5m..32k'],
    ['run', 'no-such-task'],
    ['run', 'ruler-hqa', '--samples', '0'],
    ['run', 'ruler-hqa', '--frobnicate'],
  ]) {
    const r = bench(args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    const errLines = r.stderr.trim().split('\n');
    assert.equal(errLines.length, 1, r.stderr);
    assert.match(errLines[0], /^bench: /);
    assert.doesNotMatch(r.stderr, /at .*\.js:\d+/);
  }
});

test('--dry-run counts calls and tokens without a model or a run directory', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-dry-'));
  const r = bench([
    'run',
    'ruler-hqa',
    '--lengths',
    '8k,16k',
    '--samples',
    '3',
    '--method',
    'memagent,full-context',
    '--dry-run',
    '--model',
    'http://127.0.0.1:9/v1',
    '--model-name',
    'x',
    '--out',
    join(dir, 'never'),
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /dry run: no model was called/);
  const memagent8k = r.stdout.split('\n').find((l) => /ruler-hqa\s+8k\s+memagent/.test(l))!;
  const cols = memagent8k.trim().split(/\s{2,}/);
  assert.equal(cols[3], '3');
  // 8k contexts need ceil(tokens/5000) = 2 updates + 1 final call each.
  assert.equal(cols[5], '9');
  assert.ok(!existsSync(join(dir, 'never')));
});

test('a run directory in use by a live run is refused with one line, and left as it was', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-lock-'));
  // This test process stands in for the other, still running, bench run.
  writeFileSync(join(dir, 'run.lock'), `${hostname()} ${process.pid}`);
  const r = bench(['run', 'ruler-hqa', '--lengths', '8k', '--samples', '1', '--no-progress', '--out', dir]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /in use by another bench run/);
  assert.ok(!existsSync(join(dir, 'samples.jsonl')));
  assert.equal(readFileSync(join(dir, 'run.lock'), 'utf8'), `${hostname()} ${process.pid}`);
});

test('bench tasks and --help', () => {
  const t = bench(['tasks']);
  assert.equal(t.code, 0);
  assert.match(t.stdout, /ruler-hqa/);
  // Each task's own protocol decoding, which --temperature / --top-p's help points to.
  assert.match(t.stdout, /^ruler-hqa .*, temperature 0\.7, top-p 0\.95\]$/m);
  assert.match(t.stdout, /^longbench\/hotpotqa .*, temperature 0, top-p 1\]$/m);
  const h = bench(['--help']);
  assert.equal(h.code, 0);
  assert.match(h.stdout, /bench <command> --help/);
  const r = bench(['run', '--help']);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /--lengths SPEC/);
});
