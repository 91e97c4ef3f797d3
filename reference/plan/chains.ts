// The calls a run would make, per sample, as the simulator replays them: each method's own plan() of each real
// (built) sample, with prompt tokens estimated from the plan and completion tokens drawn from an assumed
// distribution per call kind. Used by `bench plan` (cli/commands/plan.ts).
//
// Dependency edge: reference/plan/ and cli/commands/plan.ts import reference/simulator (the timing model, its
// workload types and presets), as cli/commands/serve.ts does; nothing else in harness/ does.
import { UserError } from '../../harness/errors.js';
import { methods as registry, type PlannedCall } from '../../harness/methods/index.js';
import type { RunConfig } from '../../harness/config/run-config.js';
import { dryRunRows, type BuiltSampleSize, type DryRunRow } from '../../harness/runner/dry-run.js';
import type { RunPlan } from '../../harness/runner/plan.js';
import { scheduleUnits } from '../../harness/runner/units.js';
import { rngFor, type Rng } from '../../harness/util/rng.js';
import { drawLength, type LengthDist, type SimCall, type SimChain } from '../simulator/workload.js';

/** Completion-length assumption per call kind (memagent: update, final; full-context and rag: answer). */
export type OutputAssumption = Readonly<Record<string, LengthDist>>;

/** What each registered method's call kinds declare (CallKind.output; MemAgent's are docs/SIMULATION.md's "Output
 *  lengths"): no public trace of RL-MemAgent outputs exists, so these are assumptions; `bench plan --calibrate`
 *  measures them on a finished run. */
export const DEFAULT_OUTPUTS: OutputAssumption = Object.fromEntries(
  registry.callKinds().map((k) => [k.name, k.output]),
);

/** `--output-tokens update=400:0.5,final=60` → distributions (sigma defaults to 0: every call exactly MEDIAN),
 *  on top of the defaults; the upper clamp is each call's own max_tokens. */
export function parseOutputTokens(
  spec: string | undefined,
  base: OutputAssumption = DEFAULT_OUTPUTS,
): OutputAssumption {
  if (spec === undefined) return base;
  const out: Record<string, LengthDist> = { ...base };
  for (const part of spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const m = /^([a-z][a-z0-9_-]*)=(\d+(?:\.\d+)?)(?::(\d+(?:\.\d+)?))?$/.exec(part);
    if (!m || Number(m[2]) < 1)
      throw new UserError(
        `--output-tokens: '${part}' is not KIND=MEDIAN[:SIGMA] (e.g. update=400:0.5,final=60) with MEDIAN >= 1`,
      );
    out[m[1]] = {
      median: Number(m[2]),
      sigma: m[3] === undefined ? 0 : Number(m[3]),
      min: Math.min(base[m[1]]?.min ?? 1, Number(m[2])),
      max: Number.MAX_SAFE_INTEGER,
    };
  }
  return out;
}

/** The reusable flag value for an assumption, e.g. `update=400:0.5,final=60:0.6`. */
export function formatOutputTokens(o: OutputAssumption): string {
  return Object.entries(o)
    .map(([k, d]) => `${k}=${Math.round(d.median * 10) / 10}:${Math.round(d.sigma * 1000) / 1000}`)
    .join(',');
}

/** One sample's planned calls → (prompt, completion) tokens, from each call's declared kind: its overhead, its
 *  context and, for a kind that reads memory, the output of the last memory-writing call; never more than the
 *  call's prompt bound. An --output-tokens entry for the kind replaces its assumed output length. */
export function expectedCalls(planned: readonly PlannedCall[], outputs: OutputAssumption, rng: Rng): SimCall[] {
  let memory: number | undefined;
  return planned.map((c) => {
    const dist = outputs[c.kind.name] ?? c.kind.output;
    const output = Math.max(1, Math.min(c.maxNewTokens, drawLength(rng, dist)));
    const carried = c.kind.readsMemory ? (memory ?? c.kind.readsMemory.initialTokens) : 0;
    const prompt = Math.min(c.promptTokensMax, c.kind.overheadTokens + carried + c.contextTokens);
    if (c.kind.writesMemory) memory = output;
    return { prompt, output };
  });
}

export interface PlannedWorkload {
  /** --dry-run's rows: calls and upper bounds on tokens per task × length × method. */
  rows: DryRunRow[];
  /** Every unit's chain in the runner's schedule order (longest estimated chain first, scheduleUnits). */
  order: SimChain[];
  /** The same chains one (task, length) after another, canonical order within each: the length-by-length schedule. */
  phases: SimChain[][];
  /** Expected tokens under the output assumption. */
  promptTokens: number;
  completionTokens: number;
}

const sampleKey = (task: string, length: string, index: number) => JSON.stringify([task, length, index]);

/** Builds every sample of the run once and turns each unit into a chain of calls. Outputs are seeded per unit. */
export function plannedWorkload(plan: RunPlan, config: RunConfig, outputs: OutputAssumption): PlannedWorkload {
  const sizes = new Map<string, BuiltSampleSize>();
  const rows = dryRunRows(plan.tasks, plan.prepared, plan.grids, config, (s) =>
    sizes.set(sampleKey(s.task, s.length.label, s.index), s),
  );
  const chains = new Map<string, SimChain>();
  const phases = new Map<string, SimChain[]>();
  let promptTokens = 0;
  let completionTokens = 0;
  for (const u of plan.units) {
    const size = sizes.get(sampleKey(u.task.name, u.length.label, u.index));
    if (!size) throw new Error(`bench plan: sample ${u.key} was not built`);
    const planned = registry.get(u.method).plan(size, config.methodSettings);
    const calls = expectedCalls(
      planned,
      outputs,
      rngFor('bench-plan-outputs', config.seed, u.task.name, u.length.label, u.index, u.method),
    );
    for (const c of calls) {
      promptTokens += c.prompt;
      completionTokens += c.output;
    }
    const group = `${u.task.name} ${u.length.label}`;
    const chain: SimChain = { key: u.key, group, index: u.index, contextTokens: size.contextTokens, calls };
    chains.set(u.key, chain);
    let phase = phases.get(group);
    if (!phase) phases.set(group, (phase = []));
    phase.push(chain);
  }
  const order = scheduleUnits(plan.units).map((u) => chains.get(u.key)!);
  return { rows, order, phases: [...phases.values()], promptTokens, completionTokens };
}
