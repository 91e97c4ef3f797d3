// A run directory through the real binary (dist/, built by `npm test`): it owns the cells its runs asked for (another
// task, length or method needs --extend), its lock never blocks forever, file-system failures are one line with
// nothing finished lost, and SIGTERM stops a run resumably.
import { beforeAll, test } from 'vitest';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertOneLine, dirFingerprint, runBench, type BenchResult } from '../../helpers/cli.js';
import { BIN } from '../../helpers/bench-serve.js';
import { completion, fakeEndpoint, json } from '../../helpers/fake-endpoint.js';

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
    .split('\n')
    .filter((l) => l.trim() !== '')
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

// ---- 3. file-system failures: one line naming the path and the fix, nothing finished lost ----------------------

test('F1 --out on /proc or /sys is refused with one line within seconds (no endless mkdir)', async () => {
  for (const out of ['/proc/x', '/sys/x/y']) {
    // The guard bounds the wall time: a run still going after 30 s is killed and fails the exit-code assertion.
    const r = await bench(runArgs(out), {}, 30_000);
    assert.equal(r.signal, null, `${out}: killed by the 30 s guard`);
    assertOneLine(
      r,
      2,
      /^bench: --out \/(proc|sys)\/\S+: \/(proc|sys) is on the kernel's (proc|sysfs) file system, not a disk/,
    );
  }
});

/** Checks a run stopped by a full disk, then frees the space (`free`) and checks a rerun finishes every sample once. */
async function fullDiskThenResume(dir: string, r: BenchResult, free: () => void, args: string[]) {
  assertOneLine(
    r,
    2,
    /^bench: no space left on device writing \S+(samples|calls)\.jsonl: free space or use another --out; finished samples are saved$/,
  );
  const saved = existsSync(join(dir, 'samples.jsonl')) ? sampleKeys(dir) : [];
  free();
  const again = await bench(args);
  assert.equal(again.code, 0, again.stderr);
  if (saved.length > 0) assert.match(again.stdout, new RegExp(`resuming: ${saved.length} of 8 samples`));
  const keys = sampleKeys(dir);
  assert.equal(keys.length, 8);
  assert.equal(new Set(keys).size, 8, 'a sample written twice');
  for (const k of saved) assert.ok(keys.includes(k), `${k} lost`);
}

const bigArgs = (out: string) => runArgs(out).map((a) => (a === '1k' ? '1k,2k' : a === '2' ? '4' : a));

test('F2 a full disk (injected ENOSPC after 5 appends) stops the run with one line; a rerun resumes', async () => {
  const dir = join(root, 'enospc');
  const r = await bench(bigArgs(dir), { BENCH_TEST_FAIL_WRITES: 'ENOSPC:5' });
  assert.ok(sampleKeys(dir).length < 8);
  await fullDiskThenResume(dir, r, () => {}, bigArgs(dir));
});

/** A 1 MB tmpfs, where mounting is permitted (root in a sandbox); null elsewhere. */
function smallTmpfs(): string | null {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return null;
  const at = join(root, 'tmpfs');
  mkdirSync(at, { recursive: true });
  return spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', at]).status === 0 ? at : null;
}

test('F3 a real 1 MB tmpfs filled up: one line naming the file, then after freeing space a rerun resumes', async (ctx) => {
  const tmpfs = smallTmpfs();
  if (!tmpfs) return ctx.skip(); // F2 covers the same path with an injected error where no file system can be mounted
  const dir = join(tmpfs, 'run');
  const filler = join(tmpfs, 'filler');
  try {
    // Leave about 12 KB: the manifest and a few samples fit, the 8 samples with their calls (about 40 KB) do not.
    writeFileSync(filler, Buffer.alloc(1024 * 1024 - 12 * 1024));
    const r = await bench(bigArgs(dir));
    await fullDiskThenResume(dir, r, () => rmSync(filler), bigArgs(dir));
  } finally {
    spawnSync('umount', [tmpfs]);
  }
});

// ---- 4. SIGTERM is Ctrl-C -----------------------------------------------------------------------------------------

test('S1 SIGTERM mid-run: exit 130 with the interrupt line, and a rerun resumes', async () => {
  let child: ReturnType<typeof spawn> | undefined;
  const server = await fakeEndpoint((_body, n, res) => {
    if (n === 6) child?.kill('SIGTERM');
    setTimeout(() => json(res, 200, completion('the answer is 42')), 20);
  });
  const dir = join(root, 'sigterm');
  const args = [
    'run',
    'niah_single_1',
    '--lengths',
    '1k',
    '--samples',
    '10',
    '--model',
    server.url,
    '--model-name',
    'm',
    '--concurrency',
    '1',
    '--no-progress',
    '--no-cache',
    '--out',
    dir,
  ];
  try {
    const first = await new Promise<BenchResult>((resolve, reject) => {
      const c = spawn(process.execPath, [BIN, ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
      child = c;
      let stdout = '';
      let stderr = '';
      c.stdout!.on('data', (d) => (stdout += String(d)));
      c.stderr!.on('data', (d) => (stderr += String(d)));
      const guard = setTimeout(() => c.kill('SIGKILL'), 60_000);
      c.on('error', reject);
      c.on('close', (code, signal) => {
        clearTimeout(guard);
        resolve({ code, signal, stdout, stderr });
      });
    });
    assert.equal(first.code, 130, first.stderr);
    assert.match(first.stderr, /interrupt: no new samples start/);
    assert.match(first.stdout, /interrupted: \d+ of 10 samples finished; run the same command again to resume/);
    const saved = sampleKeys(dir);
    assert.ok(saved.length >= 2 && saved.length < 10, `${saved.length} samples saved`);
    const again = await bench(args);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, new RegExp(`resuming: ${saved.length} of 10 samples`));
    assert.equal(new Set(sampleKeys(dir)).size, 10);
    assert.equal(sampleKeys(dir).length, 10);
  } finally {
    await server.close();
  }
});
