// What a sample costs beside what it scores: calls, tokens, its longest chain of sequential calls, and an estimate
// of GPU-seconds from a simulated server's step costs (reference/simulator presets, named by --cost-preset).

/** The step costs of a simulated GPU server that the estimate needs (reference/simulator/gpu-params.ts GpuParams). */
export interface CostModel {
  /** The preset's name, recorded in every row as cost_preset. */
  preset: string;
  prefillTokensPerS: number;
  stepBaseMs: number;
  stepPerSeqMs: number;
  prefillChunkTokens: number;
}

/**
 * GPU-seconds of a sample run alone on an idle server, from its totals: each call's prompt prefilled in chunks of
 * prefillChunkTokens (a step's base cost each, plus the prompt at the prefill rate), then one decode step per output
 * token with one sequence in the batch. Calls are taken as equal in size (only totals are stored per sample).
 */
export function loneSampleGpuSeconds(
  m: CostModel,
  calls: number,
  promptTokens: number,
  completionTokens: number,
): number {
  if (calls <= 0) return 0;
  const prefillSteps = calls * Math.ceil(promptTokens / calls / m.prefillChunkTokens);
  return (
    (prefillSteps * m.stepBaseMs) / 1000 +
    promptTokens / m.prefillTokensPerS +
    (completionTokens * (m.stepBaseMs + m.stepPerSeqMs)) / 1000
  );
}

/** A summary row's cost columns (means over the row's samples; longestChain the most calls of one sample). */
export interface RowCost {
  callsPerSample: number;
  promptTokensPerSample: number;
  completionTokensPerSample: number;
  longestChain: number;
  /** null when the summary was made without a cost model. */
  estGpuSecondsPerSample: number | null;
  costPreset: string | null;
  /** Mean measured seconds per sample (record.elapsedMs): a real endpoint's; null for the embedded reader. */
  wallSecondsPerSample: number | null;
}
