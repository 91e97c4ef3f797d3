// A run directory through the real binary (dist/, built by `npm test`): it owns the cells its runs asked for (another
// task, length or method needs --extend), its lock never blocks forever, file-system failures are one line with
// nothing finished lost, and SIGTERM stops a run resumably.
import { beforeAll, test } from 'vitest';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertOneLine, dirFingerprint, runBench, type BenchResult } from '../../../helpers/cli.js';

const root = mkdtempSync(join(tmpdir(), 'bench-rundir-cli-'));
const env = { ...process.env, BENCH_CACHE_DIR: join(root, 'cache') };
const bench = (args: string[], extraEnv: NodeJS.ProcessEnv = {}, timeoutMs = 120_000): Promise<BenchResult> =>
  runBench(args, { cwd: root, env: { ...env, ...extraEnv }, timeoutMs });

/** A small synthetic run: niah_single_1 at 1k, 2 samples, the embedded reference reader. */
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
const manifest = (dir: string) => JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
/** Sample ids (with method) of samples.jsonl, sorted; a resumed run must hold each exactly once. */
const sampleKeys = (dir: string) =>
  readFileSync(join(dir, 'samples.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l))
    .map((r) => `${r.id}#${r.method}`)
    .sort();
let n = 0;
/** A copy of the finished base run, to change without touching it. */
const copyOfBase = () => {
  const dir = join(root, `copy-${++n}`);
  cpSync(BASE, dir, { recursive: true });
  return dir;
};

const BASE = join(root, 'base');
beforeAll(async () => {
  const r = await bench(runArgs(BASE));
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(sampleKeys(BASE), ['niah_single_1/1k/0#memagent', 'niah_single_1/1k/1#memagent']);
});

// ---- 1. an --out holds one run's cells: more needs --extend -----------------------------------------------------

test('R1 reusing an --out with another length, task or method is refused with one line naming what is new', async () => {
  const before = dirFingerprint(BASE);
  const cases: Array<[string[], RegExp]> = [
    [runArgs(BASE).map((a) => (a === '1k' ? '1k,2k' : a)), /this run adds length 2k of niah_single_1: pass --extend/],
    [
      runArgs(BASE).map((a) => (a === 'niah_single_1' ? 'niah_single_2' : a)),
      /this run adds task niah_single_2 \(1k\)/,
    ],
    [runArgs(BASE, '--method', 'rag'), /this run adds method rag: pass --extend .*or use another --out$/],
  ];
  for (const [args, message] of cases) {
    const r = await bench(args);
    assertOneLine(r, 2, message);
    assert.equal(dirFingerprint(BASE), before, `${args.join(' ')} changed the run directory`);
  }
});

test('R2 --extend adds a task, a length and a method: history has 2 entries, the manifest holds the union', async () => {
  const dir = copyOfBase();
  const args = runArgs(dir, '--extend', '--method', 'memagent,rag').map((a) =>
    a === 'niah_single_1' ? 'niah_single_1,niah_single_2' : a === '1k' ? '1k,2k' : a,
  );
  const r = await bench(args);
  assert.equal(r.code, 0, r.stderr);
  const m = manifest(dir);
  assert.equal(m.history.length, 2);
  assert.deepEqual(
    m.history.map((h: { extended: boolean; units: number; resumed: number }) => [h.extended, h.units, h.resumed]),
    [
      [false, 2, 0],
      [true, 16, 2],
    ],
  );
  assert.deepEqual(m.history[1].grid.methods, ['memagent', 'rag']);
  assert.deepEqual(
    m.tasks.map((t: { name: string }) => t.name),
    ['niah_single_1', 'niah_single_2'],
  );
  assert.deepEqual(m.lengths, { niah_single_1: ['1k', '2k'], niah_single_2: ['1k', '2k'] });
  assert.deepEqual(m.methods, ['memagent', 'rag']);
  assert.deepEqual(Object.keys(m.expected).sort(), [
    'niah_single_1/1k',
    'niah_single_1/2k',
    'niah_single_2/1k',
    'niah_single_2/2k',
  ]);
  assert.ok(m.identity.methods.rag && m.identity.methods.memagent, 'identity keeps every method');
  assert.equal(new Set(sampleKeys(dir)).size, 16);
  assert.equal(sampleKeys(dir).length, 16);

  // A subset (the first run's cell) resumes, and the manifest still describes everything the directory holds.
  const subset = await bench(runArgs(dir));
  assert.equal(subset.code, 0, subset.stderr);
  assert.match(subset.stdout, /resuming: 2 of 2 samples already finished/);
  const after = manifest(dir);
  assert.equal(after.history.length, 3);
  assert.equal(after.history[2].extended, false);
  assert.deepEqual([after.methods, after.lengths, after.expected], [m.methods, m.lengths, m.expected]);
  assert.equal(sampleKeys(dir).length, 16);
});

test('R3 a manifest written before history existed gets its first entry recovered, then the new one', async () => {
  const dir = copyOfBase();
  const m = manifest(dir);
  delete m.history;
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(m, null, 2) + '\n');
  const r = await bench(runArgs(dir));
  assert.equal(r.code, 0, r.stderr);
  const after = manifest(dir);
  assert.equal(after.history.length, 2);
  assert.equal(after.history[0].command, m.command);
  assert.equal(after.history[0].time, undefined);
});

// ---- 2. locks never block forever -------------------------------------------------------------------------------

test('L1 an empty run.lock is taken over with a message and the run finishes', async () => {
  const dir = copyOfBase();
  writeFileSync(join(dir, 'run.lock'), '');
  const r = await bench(runArgs(dir, '--lengths', '1k,2k', '--extend'));
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /^taking over a stale lock in .* \(empty .*run\.lock\)$/m);
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.equal(sampleKeys(dir).length, 4);
});

test('L2 a lock whose pid is dead on this host is taken over with a message naming the pid', async () => {
  const dir = copyOfBase();
  const dead = spawnSync(process.execPath, ['-e', '']).pid!;
  writeFileSync(join(dir, 'run.lock'), `${hostname()} ${dead}`);
  const r = await bench(runArgs(dir));
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, new RegExp(`^taking over a stale lock from pid ${dead} \\(not running\\)`, 'm'));
  assert.deepEqual(sampleKeys(dir), sampleKeys(BASE));
});

test('L3 a lock held by a live process is refused with one line, the directory unchanged', async () => {
  const dir = copyOfBase();
  writeFileSync(join(dir, 'run.lock'), `${hostname()} ${process.pid}`);
  const before = dirFingerprint(dir);
  const r = await bench(runArgs(dir));
  assertOneLine(r, 2, /is in use by another bench run .*; wait for it or use another --out$/);
  assert.equal(dirFingerprint(dir), before);
});
