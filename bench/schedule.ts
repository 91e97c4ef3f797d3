// Scheduling benchmark: `npx tsx bench/schedule.ts [--preset P] [--samples N] [--concurrency C] [--seed S]`;
// `--sweep babilong`: the makespan of BABILong's qa1–qa5 at 0k..10m instead (./schedule-babilong.ts).
// The full RULER-HQA docs:50..25600 × 128 MemAgent sweep against the simulated continuous-batching server
// (reference/simulator/index.ts), as a discrete-event simulation: no sleeping, all times are simulated seconds.
// Prints the makespan of each schedule against the lower bound, then the same for other server scenarios, and
// writes bench-out/schedule.json. Model and assumptions: docs/SIMULATION.md.
import { mkdirSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { DEFAULT_WORKLOAD, memagentSweep, type SimChain } from '../reference/simulator/workload.js';
import { RULER_HQA_LENGTHS } from '../generators/ruler-hqa/sweep-grid.js';
import {
  simulateSweep,
  sweepLowerBound,
  type LowerBound,
  type SweepResult,
  type SweepSchedule,
} from '../reference/simulator/sweep.js';
import { gpuParams, serverSlots, type GpuParams } from '../reference/simulator/gpu-params.js';
import { longestChainFirst } from '../harness/runner/schedule-policy.js';
import { infMemPlan } from '../harness/methods/infmem.js';
import { DEFAULT_OUTPUTS, expectedCalls } from '../reference/plan/chains.js';
import { rngFor } from '../harness/util/rng.js';
import { babilongSchedule } from './schedule-babilong.js';

const { values } = parseArgs({
  options: {
    preset: { type: 'string', default: 'qwen2.5-7b-h100' },
    samples: { type: 'string' },
    concurrency: { type: 'string', default: '256' },
    seed: { type: 'string', default: '0' },
    out: { type: 'string', default: 'bench-out/schedule.json' },
    sweep: { type: 'string', default: 'ruler-hqa' },
  },
});
if (values.sweep === 'babilong') {
  await babilongSchedule(values);
  process.exit(0);
}
if (values.sweep !== 'ruler-hqa') throw new Error(`--sweep ${values.sweep}: use ruler-hqa or babilong`);
const samples = Number(values.samples ?? DEFAULT_WORKLOAD.samples);
const concurrency = Number(values.concurrency);
const seed = Number(values.seed);

/** The schedules compared, all with the same samples-in-flight limit. */
function schedules(chains: readonly SimChain[], params: GpuParams, c: number): SweepSchedule[] {
  const groups = new Map<string, SimChain[]>();
  for (const ch of chains) groups.set(ch.group, [...(groups.get(ch.group) ?? []), ch]);
  const lcf = longestChainFirst(chains, (ch) => ch.calls.length);
  return [
    // upstream: one length after another (each its own run), `c` samples in flight
    { kind: 'phased', name: 'length-by-length', phases: [...groups.values()], concurrency: c },
    // harness/runner today: scheduleUnits order (longest chain first, ties canonical), `c` lanes
    { kind: 'ordered', name: 'longest-chain-first', order: lcf, concurrency: c },
    // proposal: the same, plus a call gate of the server's batch size (CallGate, schedule-policy.ts)
    { kind: 'ordered', name: 'lcf + call gate', order: lcf, concurrency: c, gate: serverSlots(params) },
  ];
}

interface Scenario {
  label: string;
  params: GpuParams;
  samples: number;
  concurrency: number;
  bound: LowerBound;
  results: (SweepResult & { ratio: number; strictRatio: number })[];
  wallMs: number;
}

function runScenario(label: string, params: GpuParams, n: number, c: number): Scenario {
  const t0 = performance.now();
  const chains = memagentSweep({ samples: n, seed, lengths: RULER_HQA_LENGTHS });
  const bound = sweepLowerBound(params, chains);
  const results = schedules(chains, params, c).map((s) => {
    const r = simulateSweep(params, s);
    return { ...r, ratio: r.makespanS / bound.boundS, strictRatio: r.makespanS / bound.strictS };
  });
  return { label, params, samples: n, concurrency: c, bound, results, wallMs: performance.now() - t0 };
}

const hours = (s: number) => `${(s / 3600).toFixed(2)} h`;

function printTable(rows: string[][]): void {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  for (const r of rows)
    console.log(r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  '));
}

const main = runScenario('main', gpuParams(values.preset), samples, concurrency);
const p = main.params;
const calls = main.results[0].calls;
console.log(
  `RULER-HQA docs:50..25600 × ${samples} MemAgent (${calls} calls), ${concurrency} samples in flight, simulated ${p.name}: ` +
    `prefill ${p.prefillTokensPerS} tok/s, step ${p.stepBaseMs} ms + ${p.stepPerSeqMs} ms/seq, max batch ${p.maxBatch}` +
    `${(p.replicas ?? 1) > 1 ? ` × ${p.replicas} replicas` : ''}`,
);
const b = main.bound;
console.log(
  `lower bound ${hours(b.boundS)} = max(work ÷ capacity ${hours(b.workS)}, longest chain × per-call latency at full batch ${hours(b.chainS)});` +
    ` strict bound ${hours(b.strictS)} (chain alone ${hours(b.chainAloneS)})`,
);
printTable([
  ['schedule', 'makespan', 'ratio to bound', 'mean decode batch', 'full-batch share'],
  ...main.results.map((r) => [
    r.name,
    hours(r.makespanS),
    r.ratio.toFixed(3),
    r.meanBatch.toFixed(1),
    `${(r.fullBatchShare * 100).toFixed(1)}%`,
  ]),
]);
const [lbl, lcf] = main.results;
console.log(
  `length-by-length ÷ longest-chain-first: ${(lbl.makespanS / lcf.makespanS).toFixed(3)} (${hours(lbl.makespanS - lcf.makespanS)} saved)`,
);

// Other servers and sweep sizes: where the schedule matters (several GPUs, oversubscription, small sweeps).
const others: [string, GpuParams, number, number][] = [
  ['14B, 1×H100', gpuParams('qwen2.5-14b-h100'), 128, 256],
  ['14B, 8×H100 (DP)', gpuParams('qwen2.5-14b-8xh100'), 128, 256],
  ['14B, 8×H100 (DP), 512 in flight', gpuParams('qwen2.5-14b-8xh100'), 128, 512],
  ['7B, 1×H100, max batch 256, 512 in flight', gpuParams('qwen2.5-7b-h100', { maxBatch: 256 }), 128, 512],
  ['7B, 8×H100 (DP)', gpuParams('qwen2.5-7b-h100', { replicas: 8 }), 128, 256],
  ['7B, 1×H100, 16 samples', gpuParams('qwen2.5-7b-h100'), 16, 256],
];
const scenarios = others.map(([label, params, n, c]) => runScenario(label, params, n, c));
console.log('');
console.log('other scenarios (ratio to bound; strict ratio in brackets):');
printTable([
  ['scenario', 'bound', 'length-by-length', 'longest-chain-first', 'lcf + call gate'],
  ...scenarios.map((s) => [
    s.label,
    hours(s.bound.boundS),
    ...s.results.map((r) => `${r.ratio.toFixed(3)} (${r.strictRatio.toFixed(3)})`),
  ]),
]);

// InfMem's early stop (docs/PROTOCOLS.md §j.1): the same samples as the MemAgent sweep, each an InfMem chain from its
// own plan (per window a planner and a writer, each two requests with thinking; then the final answer, two), cut
// where the stop comes: stopping at window k leaves 2(k - 1) + 2 logical calls. InfMem's README reports early
// stopping cuts inference time ~3.9x (against InfMem reading every window); where the planner says STOP is the
// model's, so the stop is a parameter here: never (the plan's maximum), after a share of the windows, or at the
// earliest (window 3, three STOP votes in a row).
const INFMEM = { chunkTokens: 5000, memoryTokens: 1024, topK: 8, unitTokens: 500, think: true, thinkTokens: 1024 };
function infmemChains(base: readonly SimChain[], stopWindow: (windows: number) => number): SimChain[] {
  return base.map((ch) => {
    const planned = infMemPlan({ contextTokens: ch.contextTokens }, INFMEM);
    const windows = (planned.length - 2) / 4;
    const k = Math.max(1, Math.min(windows, stopWindow(windows)));
    const cut = k < windows ? [...planned.slice(0, 4 * (k - 1) + 2), ...planned.slice(-2)] : planned;
    const calls = expectedCalls(cut, DEFAULT_OUTPUTS, rngFor('bench-schedule-infmem', seed, ch.key));
    return { ...ch, calls };
  });
}
const memChains = memagentSweep({ samples, seed, lengths: RULER_HQA_LENGTHS });
const lcfOf = (chains: readonly SimChain[]) =>
  simulateSweep(p, {
    kind: 'ordered',
    name: 'longest-chain-first',
    order: longestChainFirst(chains, (ch) => ch.calls.length),
    concurrency,
  });
const memagentRun = lcfOf(memChains);
const stops: [string, (n: number) => number][] = [
  ['never (plan maximum)', (n) => n],
  ['after half the windows', (n) => Math.ceil(n / 2)],
  ['after a quarter', (n) => Math.ceil(n / 4)],
  ['after a tenth', (n) => Math.ceil(n / 10)],
  ['at window 3 (earliest)', () => 3],
];
const infmemRuns = stops.map(([label, at]) => ({ label, result: lcfOf(infmemChains(memChains, at)) }));
console.log('');
console.log(
  `InfMem's early stop, same samples as MemAgent, longest-chain-first, ${concurrency} in flight (InfMem's README: ~3.9x less time than without it):`,
);
const never = infmemRuns[0].result.makespanS;
printTable([
  ['method / stop', 'calls', 'makespan', 'GPU busy', '÷ memagent', 'infmem never ÷ this'],
  ['memagent', String(memagentRun.calls), hours(memagentRun.makespanS), hours(memagentRun.busyS), '1.000', ''],
  ...infmemRuns.map(({ label, result }) => [
    `infmem, stop ${label}`,
    String(result.calls),
    hours(result.makespanS),
    hours(result.busyS),
    (result.makespanS / memagentRun.makespanS).toFixed(3),
    (never / result.makespanS).toFixed(2),
  ]),
]);

const round = (x: number) => Math.round(x * 1000) / 1000;
const dump = (s: Scenario) => ({
  label: s.label,
  server: s.params,
  samples: s.samples,
  concurrency: s.concurrency,
  lowerBound: Object.fromEntries(Object.entries(s.bound).map(([k, v]) => [k, typeof v === 'number' ? round(v) : v])),
  schedules: s.results.map((r) => ({
    name: r.name,
    makespanS: round(r.makespanS),
    ratio: round(r.ratio),
    strictRatio: round(r.strictRatio),
    gpuBusyS: round(r.busyS),
    meanBatch: round(r.meanBatch),
    fullBatchShare: round(r.fullBatchShare),
    calls: r.calls,
    samples: r.samples,
    lengthDoneS: Object.fromEntries(Object.entries(r.groupDoneS).map(([k, v]) => [k, round(v)])),
  })),
  simWallMs: Math.round(s.wallMs),
});
mkdirSync('bench-out', { recursive: true });
writeFileSync(
  values.out,
  JSON.stringify(
    {
      workload: { lengths: RULER_HQA_LENGTHS.map((l) => `docs:${l.docs}`), ...DEFAULT_WORKLOAD, samples, seed },
      main: dump(main),
      scenarios: scenarios.map(dump),
      infmemEarlyStop: {
        memagent: {
          calls: memagentRun.calls,
          makespanS: round(memagentRun.makespanS),
          gpuBusyS: round(memagentRun.busyS),
        },
        infmem: infmemRuns.map(({ label, result }) => ({
          stop: label,
          calls: result.calls,
          makespanS: round(result.makespanS),
          gpuBusyS: round(result.busyS),
          ratioToMemagent: round(result.makespanS / memagentRun.makespanS),
          speedupOverNoStop: round(never / result.makespanS),
        })),
      },
    },
    null,
    2,
  ) + '\n',
);
console.log(`wrote ${values.out}`);
