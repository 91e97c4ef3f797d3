// The one-line prediction `bench run` prints before a run against an endpoint: `bench plan`'s model (the planned
// workload, the default output lengths, the default simulated server), the harness's schedule at the run's
// concurrency only (no concurrency sweep, no lower bound), so it costs one plan and one simulation. Calls no model.
import type { RunConfig } from '../../harness/config/run-config.js';
import type { Catalog } from '../../harness/registry/family.js';
import { planRun } from '../../harness/runner/plan.js';
import { loadTokenizer } from '../../harness/tokenizer/index.js';
import { plural } from '../../harness/util/plural.js';
import { DEFAULT_PRESET, gpuParams, type GpuParams } from '../simulator/gpu-params.js';
import { simulateSweep } from '../simulator/sweep.js';
import { DEFAULT_OUTPUTS, plannedWorkload } from './chains.js';
import { formatDuration } from './predict.js';

export interface RunPreview {
  /** Expected calls of the whole grid (this shard's, with --shard). */
  calls: number;
  /** Predicted wall time on the simulated server, seconds. */
  makespanS: number;
  concurrency: number;
  serverBatch?: number;
  /** The simulated server's preset name. */
  preset: string;
}

/** Plans `config` and simulates the harness's schedule on `params` (default: bench plan's default preset). */
export async function previewRun(
  config: RunConfig,
  catalog: Catalog,
  params: GpuParams = gpuParams(DEFAULT_PRESET),
): Promise<RunPreview> {
  const plan = await planRun(config, loadTokenizer(config.tokenizer), catalog);
  const work = plannedWorkload(plan, config, DEFAULT_OUTPUTS);
  const result = simulateSweep(params, {
    kind: 'ordered',
    name: 'harness',
    order: work.order,
    concurrency: config.concurrency,
    gate: config.serverBatch,
  });
  const calls = work.order.reduce((n, chain) => n + chain.calls.length, 0);
  return {
    calls,
    makespanS: result.makespanS,
    concurrency: config.concurrency,
    ...(config.serverBatch !== undefined ? { serverBatch: config.serverBatch } : {}),
    preset: params.name,
  };
}

/** "predicted: ~1,234 calls, ~2.50 h wall at concurrency 16 on a simulated qwen2.5-7b-h100 (bench plan's model;
 *  --no-plan to skip)". */
export function formatPreview(p: RunPreview): string {
  const at = `concurrency ${p.concurrency}${p.serverBatch !== undefined ? `, --server-batch ${p.serverBatch}` : ''}`;
  return (
    `predicted: ~${plural(p.calls, 'call', 'calls', (k) => k.toLocaleString('en-US'))}, ~${formatDuration(p.makespanS)} wall ` +
    `at ${at} on a simulated ${p.preset} (bench plan's model; --no-plan to skip)`
  );
}
