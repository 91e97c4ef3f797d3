// What a user sees during and after a run, through the built binary (`npm run build` first): progress lines in a CI
// log, the Ctrl-C message, a partial run's report, per-subcommand help, and the gate on missing baseline cells.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SUBCOMMANDS, commandOptions } from '../../../cli/parse.js';
import { BIN } from '../../helpers/bench-serve.js';
import { assertOneLine, runBench, type BenchResult } from '../../helpers/cli.js';
import { record, runDir } from '../../reports/fixtures.js';

const PROGRESS_LINE =
  /^progress: samples \d+\/\d+ · errors \d+ · calls [\d,]+\/[\d,]+ \(\d+%\) · elapsed \S+ · ETA \S+$/;
const env = (extra: NodeJS.ProcessEnv = {}) => ({ ...process.env, BENCH_PROGRESS_INTERVAL: '0.2', ...extra });

test('stderr not a terminal: plain progress lines during the run; none with --no-progress', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-ux-progress-'));
  // In-process (--workers 1): the embedded model keeps the event loop busy, the case a timer alone would miss.
  const args = ['run', 'ruler-hqa', '--lengths', '64k', '--samples', '16', '--workers', '1'];
  const r = await runBench([...args, '--out', join(dir, 'a')], { env: env() });
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stderr.split('\n').filter((l) => l !== '');
  assert.ok(lines.length >= 2, `expected 2 progress lines or more, got:\n${r.stderr}`);
  for (const l of lines) assert.match(l, PROGRESS_LINE);
  assert.match(lines[lines.length - 1], /samples \d+\/16 /);
  assert.doesNotMatch(r.stdout, /progress:/, 'progress goes to stderr only');

  const quiet = await runBench([...args, '--no-progress', '--out', join(dir, 'b')], { env: env() });
  assert.equal(quiet.code, 0, quiet.stderr);
  assert.equal(quiet.stderr, '');
});

/** Starts a run, sends SIGINT once a progress line shows `samples` finished samples, and collects the result. */
function interruptAfter(args: string[], samples: number): Promise<BenchResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let sent = false;
    child.stdout.on('data', (d) => (stdout += String(d)));
    child.stderr.on('data', (d) => {
      stderr += String(d);
      const done = [...stderr.matchAll(/^progress: samples (\d+)\//gm)].map((m) => Number(m[1]));
      if (!sent && done.some((n) => n >= samples)) {
        sent = true;
        child.kill('SIGINT');
      }
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

test('Ctrl-C: the message says what happens to samples in flight; the report of the partial run says "n of N" everywhere', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-ux-interrupt-'));
  const run = join(dir, 'run');
  // One sample at a time, longest first: the 64k samples, then the 32k ones.
  const r = await interruptAfter(
    [
      'run',
      'ruler-hqa',
      '--lengths',
      '32k,64k',
      '--samples',
      '32',
      '--workers',
      '1',
      '--concurrency',
      '1',
      '--out',
      run,
    ],
    2,
  );
  assert.equal(r.code, 130, r.stdout + r.stderr);
  assert.match(
    r.stderr,
    /^interrupt: no new samples start; samples in flight finish or stop at their next call \(a stopped sample resumes on the next run\); finished samples are saved\. Press Ctrl-C again to quit now\.$/m,
  );
  const finished = Number(
    /interrupted: (\d+) of 64 samples finished; run the same command again to resume/.exec(r.stdout)?.[1],
  );
  assert.ok(finished >= 2 && finished < 32, r.stdout);
  // The run's own table.
  assert.match(r.stdout, new RegExp(`^64k\\s+${finished} of 32\\s`, 'm'));
  assert.match(r.stdout, /no sample finished yet: ruler-hqa · memagent at 32k \(0 of 32\)/);

  const out = join(dir, 'report');
  const rep = await runBench(['report', run, '--out', out]);
  assert.equal(rep.code, 0, rep.stderr);
  assert.match(
    rep.stderr,
    /warning: incomplete runs: 1 cell has fewer samples than planned \(shown "n of N"\); 1 planned cell has no finished sample/,
  );
  const md = readFileSync(join(out, 'summary.md'), 'utf8');
  assert.match(md, new RegExp(`\\| 64k \\| sub_em \\| [\\d.]+ \\| [^|]+ \\| [^|]+ \\| ${finished} of 32 \\|`));
  assert.match(md, /no sample finished yet: ruler-hqa · memagent at 32k \(0 of 32\)/);
  const [head, row] = readFileSync(join(out, 'summary.csv'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.split(','));
  const cell = (name: string) => row[head.indexOf(name)];
  assert.deepEqual(
    [cell('length_label'), cell('n'), cell('expected_n'), cell('complete')],
    ['64k', String(finished), '32', 'no'],
  );
  const json = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
  assert.deepEqual([json.rows[0].n, json.rows[0].expected, json.rows[0].complete], [finished, 32, false]);
  assert.deepEqual(
    json.missing.map((m: { lengthLabel: string; expected: number }) => [m.lengthLabel, m.expected]),
    [['32k', 32]],
  );
  const html = readFileSync(join(out, 'report.html'), 'utf8');
  assert.match(html, new RegExp(`<span class="incomplete">${finished} of 32</span>`));
  assert.match(html, new RegExp(`<td>${finished} of 64</td>`), 'the runs table: samples of the units planned');
});

test('every subcommand --help lists each flag its parser accepts; bench help X prints the same', async () => {
  for (const command of SUBCOMMANDS) {
    const a = await runBench([command, '--help']);
    const b = await runBench(['help', command]);
    assert.equal(a.code, 0, a.stderr);
    assert.equal(b.code, 0, b.stderr);
    assert.equal(a.stdout, b.stdout, `bench ${command} --help = bench help ${command}`);
    assert.match(a.stdout, new RegExp(`^Usage: bench ${command}\\b`, 'm'));
    assert.match(a.stdout, /^Exit codes: 0 /m);
    for (const flag of Object.keys(commandOptions(command)))
      assert.match(a.stdout, new RegExp(`^ {2}--${flag}(?![\\w-])`, 'm'), `bench ${command} --help: --${flag}`);
  }
  const gate = (await runBench(['gate', '--help'])).stdout;
  for (const flag of ['--baseline', '--max-drop', '--max-errors', '--z', '--exact', '--allow-missing', '--junit'])
    assert.ok(gate.includes(flag), flag);
  assert.match(gate, /Exit codes: 0 pass, 1 regression/);
  assertOneLine(
    await runBench(['help', 'nope']),
    2,
    /^bench: no help for 'nope': commands are run, plan, tasks, runs, generate, score, export, report, gate, compare, baseline, merge, serve/,
  );
});

test('bench gate: baseline cells missing from the run exit 1; --allow-missing skips them and passes', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-ux-gate-'));
  const at = (lengthLabel: string, length: number) =>
    Array.from({ length: 10 }, (_, index) => record({ index, lengthLabel, length, score: index < 5 ? 1 : 0 }));
  const baseline = join(dir, 'baseline.json');
  const made = await runBench([
    'baseline',
    runDir([...at('7k', 7168), ...at('14k', 14336), ...at('28k', 28672)]),
    '--out',
    baseline,
  ]);
  assert.equal(made.code, 0, made.stderr);
  const partial = runDir(at('7k', 7168));
  const refused = await runBench(['gate', partial, '--baseline', baseline]);
  assert.equal(refused.code, 1, refused.stdout + refused.stderr);
  assert.match(refused.stdout, /ruler-hqa \/ memagent \/ 14k .*MISSING$/m);
  assert.match(
    refused.stdout,
    /gate: FAIL \(0 of 1 key regressed, 2 baseline keys missing from the run \(--allow-missing skips them\)\)/,
  );
  const allowed = await runBench(['gate', partial, '--baseline', baseline, '--allow-missing']);
  assert.equal(allowed.code, 0, allowed.stdout + allowed.stderr);
  assert.match(allowed.stdout, /gate: PASS \(1 key compared, 2 missing keys skipped\)/);
});
