// Sweep benchmark: `npx tsx bench/sweep.ts [--lengths 32k..256k] [--samples 16] [--keep] [-- BENCH-RUN-ARGS]`
// (needs `npm run build`).
// Runs the README's main command, `bench run ruler-hqa --lengths ...`, end to end in a child process under node's
// --cpu-prof (one profile per thread: the main thread and each worker), then splits the CPU time by what the
// sampled code was doing. Each sample goes to the deepest frame on its stack that lies in a known part of the
// harness, so a tokenizer call made while building a sample counts as tokenize:
//   tokenize = harness/tokenizer and tiktoken (incl. its WASM), build = generators and datasets (loading the data),
//   read = reference/reader, score = harness/scorers and harness/protocol (answer extraction, Python text rules),
//   write = harness/runner and harness/run-dir (run-dir I/O, records, scheduling), other = the rest (methods, CLI, node
//   internals, GC). Idle time is left out.
// Prints wall time, CPU time, peak RSS and the split; writes bench-out/sweep.json. Full job: --lengths 32k..3.5m --samples 128.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, availableParallelism, cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));

const CATEGORIES = ['tokenize', 'build', 'read', 'score', 'write', 'other'] as const;
type Category = (typeof CATEGORIES)[number];

/** Category of one stack frame by its script URL, or undefined when the frame says nothing (node internals, GC). */
export function frameCategory(url: string): Category | undefined {
  const u = url.replace(/\\/g, '/');
  if (u.startsWith('wasm://') || u.includes('/node_modules/tiktoken/') || u.includes('/harness/tokenizer/'))
    return 'tokenize';
  if (u.includes('/generators/') || u.includes('/datasets/')) return 'build';
  if (u.includes('/reference/reader/')) return 'read';
  if (u.includes('/harness/scorers/') || u.includes('/harness/protocol/')) return 'score';
  if (u.includes('/harness/runner/') || u.includes('/harness/run-dir/')) return 'write';
  return undefined;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface ProfileSplit {
  /** Sampled thread time outside (idle), in ms (a thread waiting for the CPU still collects samples). */
  cpuMs: number;
  idleMs: number;
  byCategory: Record<Category, number>;
  /** Self time by script (relative to the package), for a look inside "other". */
  byFile: Record<string, number>;
}

/** Self time of each sampled stack, attributed to the deepest categorised frame (see the header). */
export function splitProfile(profile: CpuProfile, into?: ProfileSplit): ProfileSplit {
  const out: ProfileSplit = into ?? {
    cpuMs: 0,
    idleMs: 0,
    byCategory: Object.fromEntries(CATEGORIES.map((c) => [c, 0])) as Record<Category, number>,
    byFile: {},
  };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const memo = new Map<number, Category>();
  const categoryOf = (id: number): Category => {
    const hit = memo.get(id);
    if (hit) return hit;
    const own = frameCategory(byId.get(id)!.callFrame.url);
    const p = parent.get(id);
    const cat = own ?? (p === undefined ? 'other' : categoryOf(p));
    memo.set(id, cat);
    return cat;
  };
  // Sample i covers the time until the next sample: timeDeltas[i + 1] (the last sample runs to endTime).
  for (let i = 0; i < profile.samples.length; i++) {
    const next = i + 1 < profile.timeDeltas.length ? profile.timeDeltas[i + 1] : 0;
    const ms = Math.max(0, next) / 1000;
    const node = byId.get(profile.samples[i])!;
    if (node.callFrame.functionName === '(idle)') {
      out.idleMs += ms;
      continue;
    }
    out.cpuMs += ms;
    out.byCategory[categoryOf(node.id)] += ms;
    const url = node.callFrame.url;
    const file = url ? url.replace(/^file:\/\//, '').replace(root + '/', '') : node.callFrame.functionName;
    out.byFile[file] = (out.byFile[file] ?? 0) + ms;
  }
  return out;
}

const PRELOAD = `import { isMainThread } from 'node:worker_threads';
import { writeFileSync } from 'node:fs';
if (isMainThread && process.env.SWEEP_STATS) {
  process.on('exit', () => {
    const r = process.resourceUsage();
    writeFileSync(process.env.SWEEP_STATS, JSON.stringify({ maxRssKb: r.maxRSS, userUs: r.userCPUTime, systemUs: r.systemCPUTime }));
  });
}
`;

async function main(): Promise<void> {
  // Arguments after `--` go to `bench run` as they are (e.g. `-- --model URL --model-name NAME --concurrency 128`).
  const argv = process.argv.slice(2);
  const sep = argv.indexOf('--');
  const extra = sep < 0 ? [] : argv.slice(sep + 1);
  const { values } = parseArgs({
    args: sep < 0 ? argv : argv.slice(0, sep),
    options: {
      lengths: { type: 'string', default: '32k..256k' },
      samples: { type: 'string', default: '16' },
      workers: { type: 'string' },
      out: { type: 'string', default: 'bench-out/sweep.json' },
      keep: { type: 'boolean', default: false },
    },
  });
  const bin = join(root, 'bin', 'bench.js');
  if (!existsSync(join(root, 'dist', 'cli', 'main.js'))) {
    console.error('bench/sweep.ts runs the compiled CLI: run `npm run build` first');
    process.exitCode = 2;
    return;
  }
  const tmp = mkdtempSync(join(tmpdir(), 'bench-sweep-'));
  const profDir = join(tmp, 'prof');
  const statsFile = join(tmp, 'stats.json');
  const preload = join(tmp, 'preload.mjs');
  writeFileSync(preload, PRELOAD);
  const args = [
    'run',
    'ruler-hqa',
    '--lengths',
    values.lengths!,
    '--samples',
    values.samples!,
    '--no-progress',
    '--out',
    join(tmp, 'run'),
  ];
  if (values.workers) args.push('--workers', values.workers);
  args.push(...extra);
  const command = `bench ${args.join(' ').replace(join(tmp, 'run'), '<tmp>')}`;
  console.log(`running: ${command}`);
  const t0 = performance.now();
  const code = await new Promise<number>((done, fail) => {
    const child = spawn(
      process.execPath,
      ['--cpu-prof', '--cpu-prof-dir', profDir, '--import', preload, bin, ...args],
      {
        cwd: root,
        env: { ...process.env, SWEEP_STATS: statsFile },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let tail = '';
    child.stdout.on('data', (d: Buffer) => (tail = (tail + d.toString()).slice(-4000)));
    child.on('error', fail);
    child.on('exit', (c) => {
      if (c !== 0) process.stderr.write(tail);
      done(c ?? 1);
    });
  });
  const wallS = (performance.now() - t0) / 1000;
  if (code !== 0) {
    console.error(`bench run exited with ${code}`);
    process.exitCode = 1;
    return;
  }
  const stats = JSON.parse(readFileSync(statsFile, 'utf8')) as { maxRssKb: number; userUs: number; systemUs: number };
  const profiles = readdirSync(profDir).filter((f) => f.endsWith('.cpuprofile'));
  let split: ProfileSplit | undefined;
  for (const f of profiles)
    split = splitProfile(JSON.parse(readFileSync(join(profDir, f), 'utf8')) as CpuProfile, split);
  if (!split) throw new Error('no CPU profile was written');
  const samples = readFileSync(join(tmp, 'run', 'samples.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean).length;
  const calls = readFileSync(join(tmp, 'run', 'calls.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean).length;
  if (!values.keep) rmSync(tmp, { recursive: true, force: true });

  const processCpuS = (stats.userUs + stats.systemUs) / 1e6;
  const pct = (ms: number) => `${((ms / split!.cpuMs) * 100).toFixed(1)}%`;
  console.log(`${samples} samples, ${calls} model calls; ${profiles.length} threads profiled`);
  console.log(
    `wall ${wallS.toFixed(1)} s, CPU ${processCpuS.toFixed(1)} s (user + system, all threads), peak RSS ${(stats.maxRssKb / 1024).toFixed(0)} MB`,
  );
  // Profiles sample on a timer, so a thread the OS has descheduled still collects samples: take the shares from the
  // profiles and the total from the process's CPU time.
  const cpuOf = (c: Category) => (split!.byCategory[c] / split!.cpuMs) * processCpuS;
  console.log('where the CPU time goes (share of profiled samples × process CPU):');
  const rows = CATEGORIES.map((c) => [c, `≈${cpuOf(c).toFixed(2)} s`, pct(split!.byCategory[c])]);
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i].length)));
  for (const r of rows)
    console.log(`  ${r[0].padEnd(widths[0])}  ${r[1].padStart(widths[1])}  ${r[2].padStart(widths[2])}`);
  const topFiles = Object.entries(split.byFile)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 15);
  const round = (x: number) => Math.round(x * 10) / 10;
  mkdirSync(join(root, 'bench-out'), { recursive: true });
  writeFileSync(
    resolve(root, values.out!),
    JSON.stringify(
      {
        command,
        lengths: values.lengths,
        samples,
        calls,
        wallS: round(wallS),
        processCpuS: round(processCpuS),
        profiledCpuS: round(split.cpuMs / 1000),
        peakRssMb: Math.round(stats.maxRssKb / 1024),
        threads: profiles.length,
        profiledMsByCategory: Object.fromEntries(CATEGORIES.map((c) => [c, Math.round(split!.byCategory[c])])),
        cpuSByCategory: Object.fromEntries(CATEGORIES.map((c) => [c, Math.round(cpuOf(c) * 100) / 100])),
        shareByCategory: Object.fromEntries(
          CATEGORIES.map((c) => [c, round((split!.byCategory[c] / split!.cpuMs) * 100)]),
        ),
        topSelfMsByFile: Object.fromEntries(topFiles.map(([f, ms]) => [f, Math.round(ms)])),
        node: process.version,
        cpu: cpus()[0]?.model ?? 'unknown',
        cores: availableParallelism(),
      },
      null,
      2,
    ) + '\n',
  );
  console.log(`wrote ${values.out}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
