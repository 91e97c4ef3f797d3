// Other runs' files through the real binary (dist/, built by `npm test`): a command writes only into what it owns.
// `bench report A --out <run dir B>` is refused, `bench export` replaces only the files its own run exported there,
// a second `bench merge` into the same --out keeps the user's files, and temporaries of a killed merge are removed.
import { beforeAll, test } from 'vitest';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertOneLine, dirFingerprint, runBench, type BenchResult } from '../../helpers/cli.js';

const root = mkdtempSync(join(tmpdir(), 'bench-other-runs-cli-'));
const env = { ...process.env, BENCH_CACHE_DIR: join(root, 'cache') };
const bench = (args: string[]): Promise<BenchResult> => runBench(args, { cwd: root, env });
const runArgs = (out: string, ...more: string[]) => [
  'run',
  'niah_single_1',
  '--lengths',
  '1k',
  '--samples',
  '2',
  '--no-progress',
  '--out',
  out,
  ...more,
];
const A = join(root, 'a');
const B = join(root, 'b');
const SH0 = join(root, 'sh0');
const SH1 = join(root, 'sh1');
const PRED = join('local_reference-reader-v1__memagent', 'synthetic', '1024', 'pred', 'niah_single_1.jsonl');

beforeAll(async () => {
  for (const args of [runArgs(A), runArgs(SH0, '--shard', '0/2'), runArgs(SH1, '--shard', '1/2')]) {
    const r = await bench(args);
    assert.equal(r.code, 0, r.stderr);
  }
  // B: another run (a copy at another path is another run directory), with a report of its own.
  cpSync(A, B, { recursive: true });
  const r = await bench(['report', B]);
  assert.equal(r.code, 0, r.stderr);
});

test('O1 bench report A --out <run dir B> is refused and B is untouched', async () => {
  const before = dirFingerprint(B);
  assertOneLine(
    await bench(['report', A, '--out', B]),
    2,
    /^bench: --out .* is another run's directory.*use another --out/,
  );
  assert.equal(dirFingerprint(B), before);
});

test('O2 a report of several runs into one of them is refused; a run reported into its own directory is not', async () => {
  const before = dirFingerprint(B);
  assertOneLine(await bench(['report', A, B, '--out', B]), 2, /^bench: --out .* is one of the 2 run directories/);
  assert.equal(dirFingerprint(B), before);
  const own = await bench(['report', B, '--out', B]);
  assert.equal(own.code, 0, own.stderr);
});

test("O3 bench export replaces its own run's files but refuses another run's and a file no export wrote", async () => {
  const out = join(root, 'export-o3');
  const first = await bench(['export', A, '--format', 'ruler', '--out', out]);
  assert.equal(first.code, 0, first.stderr);
  const file = join(out, PRED);
  const before = readFileSync(file, 'utf8');
  // Another run with the same model and method: same <model>__<method> file.
  assertOneLine(
    await bench(['export', B, '--format', 'ruler', '--out', out]),
    2,
    /^bench: --out .* already holds .*niah_single_1\.jsonl exported from another run .*use another --out/,
  );
  assert.equal(readFileSync(file, 'utf8'), before);
  // The same run again replaces what it wrote.
  writeFileSync(file, 'stale\n');
  const again = await bench(['export', A, '--format', 'ruler', '--out', out]);
  assert.equal(again.code, 0, again.stderr);
  assert.equal(readFileSync(file, 'utf8'), before);
  // A file at that path that no export wrote (the user's own) is kept.
  const mine = join(root, 'export-o3-mine');
  mkdirSync(join(mine, PRED, '..'), { recursive: true });
  writeFileSync(join(mine, PRED), 'my own predictions\n');
  assertOneLine(
    await bench(['export', A, '--format', 'ruler', '--out', mine]),
    2,
    /^bench: --out .* already holds .*niah_single_1\.jsonl, not written by bench export of this run; remove it or use another --out/,
  );
  assert.equal(readFileSync(join(mine, PRED), 'utf8'), 'my own predictions\n');
});

test("O4 a second bench merge into the same --out replaces the merge's files and keeps the user's own", async () => {
  const out = join(root, 'merged-o4');
  const first = await bench(['merge', SH0, SH1, '--out', out]);
  assert.equal(first.code, 0, first.stderr);
  writeFileSync(join(out, 'notes.txt'), 'my notes\n');
  mkdirSync(join(out, 'mine'));
  writeFileSync(join(out, 'mine', 'plot.py'), 'print(1)\n');
  const samples = readFileSync(join(out, 'samples.jsonl'), 'utf8');
  const second = await bench(['merge', SH0, SH1, '--out', out]);
  assert.equal(second.code, 0, second.stderr);
  assert.equal(readFileSync(join(out, 'notes.txt'), 'utf8'), 'my notes\n');
  assert.equal(readFileSync(join(out, 'mine', 'plot.py'), 'utf8'), 'print(1)\n');
  assert.equal(readFileSync(join(out, 'samples.jsonl'), 'utf8'), samples);
  assert.ok(!existsSync(join(out, 'run.lock')));
});

test('O5 temporaries left by killed merges are removed by the next merge; a live merge keeps its own', async () => {
  const out = join(root, 'merged-o5');
  // A pid that has exited (its process was waited for), and one that is alive (this test's own).
  const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
  const stale = [
    join(root, `.merged-o5.merge-${hostname()}-${dead}.tmp`),
    join(root, `.merged-o5.merge-${dead}.tmp`), // the name earlier versions used
  ];
  const live = join(root, `.merged-o5.merge-${hostname()}-${process.pid}.tmp`);
  const otherHost = join(root, `.merged-o5.merge-another-host-${dead}.tmp`);
  for (const d of [...stale, live, otherHost]) {
    mkdirSync(d);
    writeFileSync(join(d, 'samples.jsonl'), 'x\n');
  }
  const r = await bench(['merge', SH0, SH1, '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  for (const d of stale) assert.ok(!existsSync(d), `${d} left behind`);
  assert.ok(existsSync(live), 'a live merge lost its staging folder');
  assert.ok(existsSync(otherHost), "another host's merge lost its staging folder");
  assert.match(r.stderr, /removed .*merge-.*\.tmp, a temporary folder left by a merge that was killed/);
  assert.ok(existsSync(join(out, 'manifest.json')));
});
