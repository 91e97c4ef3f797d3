// --cost-preset: the simulated GPU whose step costs turn a sample's calls and tokens into estimated GPU-seconds in
// the summary (harness/report/cost.ts); the presets are the simulator's (reference/simulator/gpu-params.ts).
import { UserError } from '../harness/errors.js';
import type { CostModel } from '../harness/report/cost.js';
import { DEFAULT_PRESET, GPU_PRESETS } from '../reference/simulator/gpu-params.js';

export { DEFAULT_PRESET as DEFAULT_COST_PRESET };

export function costModel(preset: string = DEFAULT_PRESET): CostModel {
  const p = GPU_PRESETS[preset];
  if (!p) throw new UserError(`--cost-preset must be one of ${Object.keys(GPU_PRESETS).join(', ')}, got '${preset}'`);
  return {
    preset: p.name,
    prefillTokensPerS: p.prefillTokensPerS,
    stepBaseMs: p.stepBaseMs,
    stepPerSeqMs: p.stepPerSeqMs,
    prefillChunkTokens: p.prefillChunkTokens,
  };
}
