// The documents' timings and memory figures: not checkable exactly (they depend on the machine and its load), so
// each <!-- measured: ID --> marker names how it was measured and `npx tsx scripts/check-readme.ts --measure ID`
// measures it again and prints the numbers to write (on an idle 2-core machine, as the README states them).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { QUICKSTART } from './claims.js';

export interface Measurement {
  /** What the documents state. */
  what: string;
  /** How it is measured (and re-measured). */
  method: string;
  /** Measures it now and returns the lines to print; absent where it is measured by hand. */
  run?: (root: string, opts: MeasureOptions) => Promise<string[]>;
}

export interface MeasureOptions {
  /** Start with an empty cache (BENCH_CACHE_DIR), as a new user's first run does. */
  cold: boolean;
}

export interface Timed {
  code: number | null;
  wallS: number;
  userS: number;
  sysS: number;
  maxRssMb?: number;
}

/** Runs argv under /usr/bin/time -v (bash's `time` where it is missing), output going to this terminal. */
export function timed(
  root: string,
  argv: string[],
  env: NodeJS.ProcessEnv,
  gnu = existsSync('/usr/bin/time'),
): Promise<Timed> {
  const [cmd, args] = gnu
    ? ['/usr/bin/time', ['-v', ...argv]]
    : ['bash', ['-c', `TIMEFORMAT='bash-time %R %U %S'; time "$@"`, 'bash', ...argv]];
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: root, env, stdio: ['ignore', 'inherit', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => {
      err += String(d);
      process.stderr.write(d);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const field = (name: string) => new RegExp(`${name}: (.+)`).exec(err)?.[1].trim();
      if (gnu) {
        const wall = field('Elapsed \\(wall clock\\) time \\(h:mm:ss or m:ss\\)') ?? '0';
        const wallS = wall.split(':').reduce((acc, part) => acc * 60 + Number(part), 0);
        resolve({
          code,
          wallS,
          userS: Number(field('User time \\(seconds\\)')),
          sysS: Number(field('System time \\(seconds\\)')),
          maxRssMb: Number(field('Maximum resident set size \\(kbytes\\)')) / 1024,
        });
      } else {
        const m = /bash-time ([\d.]+) ([\d.]+) ([\d.]+)/.exec(err);
        resolve({ code, wallS: Number(m?.[1]), userS: Number(m?.[2]), sysS: Number(m?.[3]) });
      }
    });
  });
}

const mmss = (s: number) => `${Math.floor(s / 60)}m${String(Math.round(s % 60)).padStart(2, '0')}s`;

async function measureQuickstart(root: string, opts: MeasureOptions): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'readme-quickstart-'));
  const env = { ...process.env };
  if (opts.cold) env.BENCH_CACHE_DIR = join(dir, 'cache');
  const before = loadavg()[0];
  const date = new Date().toISOString().slice(0, 16) + 'Z';
  const argv = [
    process.execPath,
    join(root, 'bin', 'bench.js'),
    ...QUICKSTART,
    '--no-progress',
    '--out',
    join(dir, 'run'),
  ];
  const t = await timed(root, argv, env);
  const after = loadavg()[0];
  rmSync(dir, { recursive: true, force: true });
  if (t.code !== 0) throw new Error(`the quick start exited ${t.code}`);
  const cpu = t.userS + t.sysS;
  const lines = [
    `quick start: bench ${QUICKSTART.join(' ')} (npm ci and the build not included), ${date}, ` +
      `${availableParallelism()} CPUs, load average ${before.toFixed(2)} before and ${after.toFixed(2)} after, ` +
      `${opts.cold ? 'empty cache (a first run)' : "the working directory's .bench-cache"}, measured with ${existsSync('/usr/bin/time') ? '/usr/bin/time -v' : "bash's time"}`,
    `  wall ${t.wallS.toFixed(1)} s (${mmss(t.wallS)}), CPU ${cpu.toFixed(1)} s (user ${t.userS.toFixed(1)} + sys ${t.sysS.toFixed(1)})` +
      (t.maxRssMb ? `, peak RSS ${t.maxRssMb.toFixed(0)} MB` : ''),
  ];
  if (availableParallelism() !== 2 || before > 0.5)
    lines.push('  note: the README states the time on an idle 2-core machine; this machine is not one, or was busy');
  return lines;
}

interface PlanResult {
  measuredMakespanS: number;
  predicted: { presetMeasuredOutputs: number; calibrated: number; presetAssumedOutputs: number };
}

async function measurePlan(root: string): Promise<string[]> {
  const out = join(mkdtempSync(join(tmpdir(), 'readme-plan-')), 'plan.json');
  const before = loadavg()[0];
  const t = await timed(root, ['npx', 'tsx', 'bench/plan.ts', '--out', out], process.env);
  if (t.code !== 0) throw new Error(`bench/plan.ts exited ${t.code}`);
  const { results } = JSON.parse(readFileSync(out, 'utf8')) as { results: PlanResult[] };
  const range = (pick: (r: PlanResult) => number) => {
    const ratios = results.map((r) => pick(r) / r.measuredMakespanS);
    const lo = Math.min(...ratios).toFixed(2);
    const hi = Math.max(...ratios).toFixed(2);
    return lo === hi ? lo : `${lo}–${hi}`;
  };
  return [
    `bench:plan (npm run bench:plan), ${new Date().toISOString().slice(0, 10)}, ${availableParallelism()} CPUs, load average ${before.toFixed(2)} before:`,
    `  prediction ÷ measured makespan over the ${results.length} servers: ${range((r) => r.predicted.presetMeasuredOutputs)} with the run's output lengths, ` +
      `${range((r) => r.predicted.calibrated)} calibrated, ${range((r) => r.predicted.presetAssumedOutputs)} with the preset's assumed output lengths`,
  ];
}

async function measureGenerate(root: string): Promise<string[]> {
  const t = await timed(root, ['npx', 'tsx', 'bench/generate.ts'], process.env);
  if (t.code !== 0) throw new Error(`bench/generate.ts exited ${t.code}`);
  return [`bench:generate: see its ruler-hqa 3.5m line above (build + ids, with the pool's ids cached)`];
}

export const MEASUREMENTS: Record<string, Measurement> = {
  'quickstart-time': {
    what: "the Quick start's wall time on an idle 2-core machine",
    method: '/usr/bin/time -v around `bench run ruler-hqa --lengths 32k..3.5m` (wall; CPU = user + sys)',
    run: measureQuickstart,
  },
  'plan-accuracy': {
    what: "bench plan's predicted makespan ÷ the measured one, per way of predicting, over bench:plan's servers",
    method: '`npm run bench:plan` (bench/plan.ts): live runs against `bench serve --simulate`',
    run: (root) => measurePlan(root),
  },
  'context-build-time': {
    what: 'the time to build a 3.5M-token RULER-HQA context once the pool is cached',
    method: '`npm run bench:generate` (bench/generate.ts), its ruler-hqa 3.5m line',
    run: (root) => measureGenerate(root),
  },
  'index-pool-rss': {
    what: 'peak RSS of a 25,600-document sample in index form over the bundled pool',
    method:
      'by hand: `bench run ruler-hqa --data eval_25600.json --pool <HotpotQA file>` on a one-item index-form file; ' +
      'the "this invocation" line prints the peak RSS',
  },
  'memory-trace-size': {
    what: "memory.jsonl's bytes for a MemAgent sweep on the embedded reader, the main sweep's at that rate, and the trace's CPU",
    method:
      'by hand: `bench run ruler-hqa --lengths 512k,1m --samples 16 --method memagent` and `--lengths ' +
      "32k,128k,256k --samples 8`, then the size of memory.jsonl and its line count; the main sweep's updates from " +
      '`bench run ruler-hqa --method memagent --dry-run` (calls − 128 final calls per length); the CPU from ' +
      '`/usr/bin/time -v` over the 512k × 8 run with and without --no-memory-trace, in turn, each in a fresh --out',
  },
  'view-load': {
    what: "bench view's page times on a generated 3.5m cell",
    method:
      '`npm run bench:view` and `npm run bench:view -- --samples 128` (bench/view.ts); the real run by hand: ' +
      '`bench view` on `bench run ruler-hqa --lengths 3.5m --samples 1 --method memagent`, its sample page at ' +
      'from=0, 350 and 725 over HTTP',
  },
  'babilong-reader': {
    what: "the embedded reader's BABILong accuracy per task with MemAgent",
    method:
      'by hand: `bench run babilong --method memagent --lengths 0k..10m --samples 8` and `bench run qa6 --method memagent ' +
      '--lengths 0k,8k,128k,1m --samples 8`, their per-length tables',
  },
  'babilong-memory': {
    what: 'wall, CPU and peak RSS of generating and running BABILong samples at 8k and 10m, and of the 0k..10m sweep',
    method:
      'by hand: `/usr/bin/time -v` around each command of the README table (wall; CPU = user + sys; maximum resident set size)',
  },
};
