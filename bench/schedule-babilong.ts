// `npm run bench:schedule -- --sweep babilong [--samples N] [--concurrency C] [--preset P]`: the makespan of a BABILong
// MemAgent sweep, qa1–qa5 at 0k..10m with N samples per task and length (BABILong's 100 by default), on the simulated
// server (docs/SIMULATION.md). Contexts above 0k are exactly their budget (BABILong's length less 300 tokens); 0k
// contexts are the facts alone, measured from the bundled bAbI samples. Writes bench-out/schedule-babilong.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { parseLengths } from '../harness/config/lengths.js';
import { longestChainFirst } from '../harness/runner/schedule-policy.js';
import { loadTokenizer } from '../harness/tokenizer/index.js';
import { gpuParams } from '../reference/simulator/gpu-params.js';
import { simulateSweep, sweepLowerBound } from '../reference/simulator/sweep.js';
import { memagentSweep, type SweepLength } from '../reference/simulator/workload.js';
import { BABILONG_SAMPLES, BABILONG_TASK_DEFINITIONS } from '../generators/babilong/index.js';
import { messageTokens } from '../generators/babilong/lengths.js';
import { LEADERBOARD_TASKS } from '../generators/babilong/tasks.js';

const SPEC = '0k..10m';

/** Context tokens of the 0k samples (the facts alone) of the leaderboard tasks, first 20 of each. */
async function zeroKTokens(): Promise<number[]> {
  const tokenizer = loadTokenizer('qwen2.5');
  const zero = parseLengths('0k')[0];
  const out: number[] = [];
  for (const task of BABILONG_TASK_DEFINITIONS.filter((t) => LEADERBOARD_TASKS.includes(t.name))) {
    const prepared = await task.prepare({ tokenizer, seed: 42, options: {} });
    for (let i = 0; i < 20; i++) out.push(prepared.build(zero, i).context.tokenCount);
  }
  return out;
}

export async function babilongSchedule(values: { preset?: string; samples?: string; concurrency?: string; seed?: string }) {
  const perTask = values.samples === undefined ? BABILONG_SAMPLES : Number(values.samples);
  const samples = perTask * LEADERBOARD_TASKS.length;
  const concurrency = Number(values.concurrency);
  const zero = await zeroKTokens();
  const lengths: SweepLength[] = parseLengths(SPEC).map((l) => {
    if (l.value === 0) {
      const mean = zero.reduce((a, b) => a + b, 0) / zero.length;
      return { docs: 0, meanTokens: mean, minTokens: Math.min(...zero), maxTokens: Math.max(...zero) };
    }
    const t = messageTokens(l);
    return { docs: l.value, meanTokens: t, minTokens: t, maxTokens: t };
  });
  const params = gpuParams(values.preset ?? 'qwen2.5-7b-h100');
  const chains = memagentSweep({ samples, seed: Number(values.seed ?? 0), lengths });
  const bound = sweepLowerBound(params, chains);
  const order = longestChainFirst(chains, (ch) => ch.calls.length);
  const results = [...new Set([concurrency, 128, 16])].map((c) => ({
    concurrency: c,
    ...simulateSweep(params, { kind: 'ordered', name: 'longest-chain-first', order, concurrency: c }),
  }));
  const h = (s: number) => `${(s / 3600).toFixed(1)} h`;
  console.log(
    `BABILong qa1–qa5 ${SPEC} × ${perTask} samples per task and length (${samples} chains per length), MemAgent, simulated ${params.name}`,
  );
  console.log(`lower bound ${h(bound.boundS)} (work ÷ capacity ${h(bound.workS)}, longest chain ${h(bound.chainS)})`);
  for (const r of results)
    console.log(
      `longest-chain-first, ${r.concurrency} in flight: makespan ${h(r.makespanS)} (${r.calls} calls, ratio to bound ${(r.makespanS / bound.boundS).toFixed(3)})`,
    );
  mkdirSync('bench-out', { recursive: true });
  const file = 'bench-out/schedule-babilong.json';
  writeFileSync(
    file,
    JSON.stringify(
      {
        lengths: SPEC,
        perTask,
        tasks: LEADERBOARD_TASKS,
        server: params,
        lowerBoundS: Math.round(bound.boundS),
        runs: results.map((r) => ({ concurrency: r.concurrency, makespanS: Math.round(r.makespanS), calls: r.calls })),
      },
      null,
      2,
    ) + '\n',
  );
  console.log(`wrote ${file}`);
}
