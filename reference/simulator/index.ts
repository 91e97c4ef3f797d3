// Simulated continuous-batching GPU server: one timing model used two ways.
//  (a) `bench serve --simulate PRESET [--time-scale X]`: simulateFromFlags() → a LiveSimulator whose `delay` is
//      passed to startServer; answers are the embedded model's, timed like the simulated server.
//  (b) benchmarks: createGpuSimulator() → a pure discrete-event engine on simulated time (bench/schedule.ts).
// The model and the presets' sources: docs/SIMULATION.md.
import { UserError } from '../../harness/errors.js';
import { createGpuServer } from './cluster.js';
import type { GpuServer } from './engine.js';
import { createLiveSimulator, type LiveSimulator } from './live.js';
import { DEFAULT_PRESET, gpuParams, parseSimulateSpec, parseTimeScale, type GpuParams } from './gpu-params.js';

export { GpuEngine, type Completion, type EngineStats, type GpuServer, type SimRequest } from './engine.js';
export { GpuCluster, createGpuServer } from './cluster.js';
export { createLiveSimulator, type DelayFn, type LiveSimulator, type LiveSimulatorOptions } from './live.js';
export {
  GPU_PRESETS,
  DEFAULT_PRESET,
  decodeTokensPerS,
  gpuParams,
  parseSimulateSpec,
  parseTimeScale,
  serverSlots,
  stepSeconds,
  validateGpuParams,
  type GpuParams,
} from './gpu-params.js';

/** A discrete-event model of the server for a preset name (default qwen2.5-7b-h100) or explicit parameters:
 *  one GpuEngine, or a GpuCluster when replicas > 1. */
export function createGpuSimulator(params: GpuParams | string = DEFAULT_PRESET): GpuServer {
  return createGpuServer(typeof params === 'string' ? gpuParams(params) : params);
}

/** Flags of `bench serve` that concern the simulation (values as typed). */
export interface SimulateFlags {
  simulate?: string | boolean;
  'time-scale'?: string | boolean;
}

/** `--simulate SPEC [--time-scale X]` → a live simulator, or undefined without --simulate. Throws UserError. */
export function simulateFromFlags(flags: SimulateFlags, clock?: () => number): LiveSimulator | undefined {
  const spec = flags.simulate;
  const scale = flags['time-scale'];
  if (typeof spec === 'boolean' || typeof scale === 'boolean')
    throw new UserError('--simulate and --time-scale need a value');
  if (spec === undefined) {
    if (scale !== undefined) throw new UserError('--time-scale only applies with --simulate PRESET');
    return undefined;
  }
  return createLiveSimulator(parseSimulateSpec(spec), { timeScale: parseTimeScale(scale), clock });
}

/** One line for the `bench serve` banner. */
export function describeSimulation(sim: LiveSimulator): string {
  const p = sim.engine.params;
  return `simulating ${p.name}: prefill ${p.prefillTokensPerS} tok/s, step ${p.stepBaseMs} ms + ${p.stepPerSeqMs} ms/seq, max batch ${p.maxBatch}, time x${sim.timeScale}`;
}
