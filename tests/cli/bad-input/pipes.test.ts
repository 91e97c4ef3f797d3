// Closed pipes through the real binary (dist/, built by `npm test`): `bench report RUN | head -1` and
// `bench run ... 2>&1 | head -2`. A reader that has gone is not an error: bench stops writing to that stream, as Unix
// tools do, and the command goes on; a run finishes, releases run.lock and can be resumed (nothing left to do).
// Deterministic: the test closes its read end of the pipe before the child has written anything, so every write
// the child makes meets EPIPE (no race with `head` exiting).
import { beforeAll, test } from 'vitest';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBench } from '../../helpers/cli.js';
import { BIN } from '../../helpers/bench-serve.js';

const root = mkdtempSync(join(tmpdir(), 'bench-pipes-cli-'));
const env = { ...process.env, BENCH_CACHE_DIR: join(root, 'cache') };
const runArgs = (out: string, samples = 2) => [
  'run',
  'niah_single_1',
  '--lengths',
  '1k',
  '--samples',
  String(samples),
  '--out',
  out,
];
const sampleCount = (dir: string) =>
  readFileSync(join(dir, 'samples.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '').length;

/** Runs bench with the reader of stdout (and of stderr when `closeErr`) closed at once; the other is captured. */
function benchClosed(
  args: string[],
  closeErr: boolean,
): Promise<{ code: number | null; signal: string | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    if (closeErr) child.stderr.destroy();
    else child.stderr.on('data', (d) => (stderr += String(d)));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stderr });
    });
  });
}

const BASE = join(root, 'base');
beforeAll(async () => {
  const r = await runBench([...runArgs(BASE), '--no-progress'], { cwd: root, env });
  assert.equal(r.code, 0, r.stderr);
});

test('P1 bench report RUN with its stdout closed (| head -1) writes the report and exits 0 without a stack', async () => {
  const r = await benchClosed(['report', BASE, '--out', join(root, 'report-p1')], false);
  assert.equal(r.code, 0, `exit ${r.code}; stderr: ${r.stderr}`);
  assert.equal(r.stderr.trim(), '', r.stderr);
  assert.ok(existsSync(join(root, 'report-p1', 'report.html')));
});

test('P2 bench report RUN | head -1 in a shell prints the first line and exits 0', () => {
  const r = spawnSync(
    'bash',
    ['-c', `set -o pipefail; "${process.execPath}" "${BIN}" report "${BASE}" --out report-p2 | head -1`],
    { cwd: root, env, encoding: 'utf8', timeout: 120_000 },
  );
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim().split('\n').length, 1);
  assert.match(r.stdout, /summary\.csv/);
  assert.equal(r.stderr.trim(), '', r.stderr);
});

test('P3 bench run with stdout and stderr closed (2>&1 | head -2) finishes, leaves no run.lock, and resumes', async () => {
  const out = join(root, 'run-p3');
  const r = await benchClosed(runArgs(out, 3), true);
  assert.equal(r.code, 0, `exit ${r.code} signal ${r.signal}`);
  assert.ok(!existsSync(join(out, 'run.lock')), 'run.lock left behind');
  assert.equal(sampleCount(out), 3);
  // The same command again: everything is done, nothing is added twice.
  const again = await runBench([...runArgs(out, 3), '--no-progress'], { cwd: root, env });
  assert.equal(again.code, 0, again.stderr);
  assert.equal(sampleCount(out), 3);
});

test('P4 bench run with only stdout closed goes on quietly: exit 0, no stack trace on stderr', async () => {
  const out = join(root, 'run-p4');
  const r = await benchClosed([...runArgs(out), '--no-progress'], false);
  assert.equal(r.code, 0, `exit ${r.code}; stderr: ${r.stderr}`);
  assert.ok(!/EPIPE|\n\s+at .+:\d+:\d+/.test(r.stderr), r.stderr);
  assert.ok(!existsSync(join(out, 'run.lock')));
  assert.equal(sampleCount(out), 2);
});
