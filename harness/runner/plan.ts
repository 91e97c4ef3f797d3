// Plan a run: which tasks can be prepared, each task's length grid, and every (task, length, sample, method) unit
// with its chain length. Pure apart from preparing the tasks; nothing here calls a model or writes a file.
import type { RunConfig } from '../config/run-config.js';
import { parseLengths, tokenLabel } from '../config/lengths.js';
import { DatasetMissingError, UserError } from '../errors.js';
import { methods as registry } from '../methods/index.js';
import type { Catalog } from '../registry/family.js';
import type { LengthTarget, PreparedTask, TaskDefinition, Tokenizer } from '../types.js';
import { approxTokens, unitKey, type WorkUnit } from './units.js';
import { expectedKey } from '../run-dir/expected.js';
import type { SkippedTask } from '../run-dir/manifest.js';

export const NATIVE_LENGTH: LengthTarget = { kind: 'native', value: 0, label: 'all' };

export interface RunPlan {
  tasks: TaskDefinition[];
  prepared: PreparedTask[];
  /** Per task (same order): its lengths. */
  grids: LengthTarget[][];
  /** Every unit of the run in canonical order (task, length, sample, method). */
  units: WorkUnit[];
  /** Tasks skipped because their data is missing (or none of their lengths is within their limit), with the reason;
   *  recorded in the manifest and shown under the run's summary. */
  skipped: SkippedTask[];
  /** Tasks that have fewer samples than --samples asked for, at the lengths where they fall short. */
  capped: SamplesCapped[];
  /** Lines for the user about the grid: lengths left out of a task above its limit (PreparedTask.maxTokens). */
  notes: string[];
}

export interface SamplesCapped {
  task: string;
  requested: number;
  /** Per length that falls short: how many samples exist there. */
  lengths: { label: string; available: number }[];
}

/** "note: ruler-hqa has only 1,580 samples at 8k, 16k: running 1,580 there (--samples 1000000000)". */
export function samplesCappedNote(c: SamplesCapped): string {
  const fmt = (n: number) => n.toLocaleString('en-US');
  const counts = [...new Set(c.lengths.map((l) => l.available))];
  const native = c.lengths.length === 1 && c.lengths[0].label === NATIVE_LENGTH.label;
  const at =
    counts.length === 1
      ? native
        ? `only ${fmt(counts[0])} sample${counts[0] === 1 ? '' : 's'}: running ${fmt(counts[0])}`
        : `only ${fmt(counts[0])} sample${counts[0] === 1 ? '' : 's'} at ${c.lengths.map((l) => l.label).join(', ')}: running ${fmt(counts[0])} there`
      : `fewer samples than asked at ${c.lengths.map((l) => `${l.label} (${fmt(l.available)})`).join(', ')}: running those`;
  return `note: ${c.task} has ${at} (--samples ${c.requested})`;
}

/** A task's grid: the data's lengths (--lengths selects among them), its one native point, or --lengths / its default. */
export function gridFor(
  task: TaskDefinition,
  prepared: PreparedTask,
  config: Pick<RunConfig, 'lengths' | 'lengthSpec'>,
): LengthTarget[] {
  if (prepared.lengths) return dataGrid(task, prepared.lengths, config);
  if (task.nativeLengths) {
    if (config.lengths) throw new UserError(`task ${task.name} uses its documents' own lengths; drop --lengths`);
    return [NATIVE_LENGTH];
  }
  const grid = config.lengths ?? parseLengths(task.defaultLengths);
  if (!task.acceptsDocCounts && grid.some((l) => l.kind === 'docs'))
    throw new UserError(`task ${task.name} takes token lengths, not docs: counts`);
  if (!task.zeroLength && grid.some((l) => l.kind === 'tokens' && l.value === 0))
    throw new UserError(
      `task ${task.name} has no 0k length (only BABILong's tasks do: their facts alone); start --lengths at 1k or more`,
    );
  return grid;
}

/**
 * Lengths defined by the data (samples read from --data files): the grid is the data's; --lengths only selects among
 * them, and a length the data does not have is refused.
 */
function dataGrid(
  task: TaskDefinition,
  lengths: LengthTarget[],
  config: Pick<RunConfig, 'lengths' | 'lengthSpec'>,
): LengthTarget[] {
  if (!config.lengths) return lengths;
  const has = (l: LengthTarget) => lengths.some((d) => d.kind === l.kind && d.value === l.value);
  const missing = config.lengths.filter((l) => !has(l));
  if (missing.length > 0) {
    throw new UserError(
      `${task.name}: the data defines the lengths ${lengths.map((l) => l.label).join(', ')}; --lengths ${config.lengthSpec ?? ''} asks for ${missing.map((l) => l.label).join(', ')}, which it does not have (with --data, --lengths only selects among the data's lengths)`,
    );
  }
  return lengths.filter((d) => config.lengths!.some((l) => l.kind === d.kind && l.value === d.value));
}

/** The sample indices of a task at a length that this run (or this shard of it) covers; data-defined grids run every row by default. */
export function sampleIndices(
  task: TaskDefinition,
  prepared: PreparedTask,
  length: LengthTarget,
  config: RunConfig,
): number[] {
  const n = Math.min(
    config.samples ?? (prepared.lengths ? Number.POSITIVE_INFINITY : task.defaultSamples),
    prepared.maxSamples(length),
  );
  return [...Array(n).keys()].filter((i) => !config.shard || i % config.shard.count === config.shard.index);
}

/** Prepares each task (looked up in the catalog); a missing dataset skips its task (all missing: a usage error). */
export async function planRun(config: RunConfig, tokenizer: Tokenizer, catalog: Catalog): Promise<RunPlan> {
  const tasks: TaskDefinition[] = [];
  const prepared: PreparedTask[] = [];
  const skipped: RunPlan['skipped'] = [];
  const names = catalog.expandTaskNames(config.tasks);
  for (const name of names) {
    const task = catalog.task(name);
    try {
      prepared.push(await task.prepare({ tokenizer, seed: config.seed, options: config.options }));
      tasks.push(task);
    } catch (err) {
      if (!(err instanceof DatasetMissingError)) throw err;
      skipped.push({ task: name, reason: err.message });
    }
  }
  if (tasks.length === 0)
    throw new UserError(
      `none of the tasks could be prepared (${names.join(', ')}): ${skipped.map((s) => s.reason).join('; ')}`,
    );
  const notes: string[] = [];
  const grids = tasks.map((t, i) => withinLimit(t, prepared[i], gridFor(t, prepared[i], config), names.length, notes));
  // A task none of whose lengths is within its limit runs nowhere: it is skipped like one without data; when that is
  // every task, the lengths asked for are refused.
  if (grids.every((g) => g.length === 0) && prepared.every((p) => p.maxTokens)) {
    const limits = [...new Set(prepared.map(limitLabel))].join('; ');
    throw new UserError(
      `none of ${names.join(', ')} runs at the lengths asked for: they run up to ${limits}; ask for lengths within it`,
    );
  }
  for (let i = tasks.length - 1; i >= 0; i--) {
    if (grids[i].length > 0) continue;
    skipped.push({ task: tasks[i].name, reason: `none of its lengths is within ${limitLabel(prepared[i])}` });
    tasks.splice(i, 1);
    prepared.splice(i, 1);
    grids.splice(i, 1);
  }
  const capped: SamplesCapped[] = [];
  if (config.samples !== undefined) {
    for (let t = 0; t < tasks.length; t++) {
      const short = grids[t]
        .map((l) => ({ label: l.label, available: prepared[t].maxSamples(l) }))
        .filter((x) => x.available < config.samples!);
      if (short.length > 0) capped.push({ task: tasks[t].name, requested: config.samples, lengths: short });
    }
  }
  const units: WorkUnit[] = [];
  for (let t = 0; t < tasks.length; t++) {
    for (const length of grids[t]) {
      for (const index of sampleIndices(tasks[t], prepared[t], length, config)) {
        for (const method of config.methods) {
          // The chain is estimated from the length target, before any sample is built.
          const chain = registry
            .get(method)
            .plan({ contextTokens: approxTokens(length) }, config.methodSettings).length;
          units.push({
            task: tasks[t],
            prepared: prepared[t],
            length,
            index,
            method,
            key: unitKey(tasks[t].name, length, index, method),
            chain,
          });
        }
      }
    }
  }
  return { tasks, prepared, grids, units, skipped, capped, notes };
}

function limitLabel(prepared: PreparedTask): string {
  return prepared.maxTokens ? `${tokenLabel(prepared.maxTokens.tokens)} (${prepared.maxTokens.why})` : '';
}

/**
 * The grid without the token lengths above the task's limit. Asked for alone (the run's only task), such a length is
 * refused; in a list or a group its lengths above the limit are left out with a note.
 */
function withinLimit(
  task: TaskDefinition,
  prepared: PreparedTask,
  grid: LengthTarget[],
  taskCount: number,
  notes: string[],
): LengthTarget[] {
  const limit = prepared.maxTokens;
  if (!limit) return grid;
  const above = grid.filter((l) => l.kind === 'tokens' && l.value > limit.tokens);
  if (above.length === 0) return grid;
  const labels = above.map((l) => l.label).join(', ');
  if (taskCount === 1) refuseBeyondLimit(task, prepared, above);
  notes.push(`note: ${task.name} runs up to ${tokenLabel(limit.tokens)}: skipping it at ${labels} (${limit.why})`);
  return grid.filter((l) => !above.includes(l));
}

/** Refuses (UserError) the lengths of `lengths` above the task's limit, e.g. babilong at 20m. */
export function refuseBeyondLimit(task: TaskDefinition, prepared: PreparedTask, lengths: readonly LengthTarget[]): void {
  const limit = prepared.maxTokens;
  const above = limit ? lengths.filter((l) => l.kind === 'tokens' && l.value > limit.tokens) : [];
  if (!limit || above.length === 0) return;
  throw new UserError(
    `${task.name} runs up to ${tokenLabel(limit.tokens)}, not ${above.map((l) => l.label).join(', ')}: ${limit.why}; ask for lengths up to ${tokenLabel(limit.tokens)}`,
  );
}

/** Samples per method of the whole grid, keyed "task/length label", before --shard: what all shards hold together. */
export function gridCounts(plan: RunPlan, config: RunConfig): Record<string, number> {
  const out: Record<string, number> = {};
  const whole = { ...config, shard: undefined };
  plan.tasks.forEach((task, t) => {
    for (const length of plan.grids[t])
      out[expectedKey(task.name, length.label)] = sampleIndices(task, plan.prepared[t], length, whole).length;
  });
  return out;
}
