// Synthetic MemAgent sweep for the simulated server: per sample, the sequence of (prompt, output) token counts of its
// calls. Seeded per sample, so every schedule replays the same calls. Assumptions are documented in docs/SIMULATION.md.
import { rngFor, type Rng } from '../../harness/util/rng.js';
import type { OutputLength } from '../../harness/methods/index.js';
import { FINAL_CALL, memAgentPlan, UPDATE_CALL } from '../../harness/methods/memagent.js';

export interface SimCall {
  prompt: number;
  output: number;
}

/** One sample's chain of dependent calls. */
export interface SimChain {
  /** `${group}/${index}`. */
  key: string;
  /** Length label, e.g. "docs:25600". */
  group: string;
  index: number;
  /** Context tokens of the sample. */
  contextTokens: number;
  calls: SimCall[];
}

/** A length of the sweep: document count, mean context tokens and the spread of samples around it (a family's grid,
 *  e.g. generators/ruler-hqa/sweep-grid.ts, passed in as MemAgentWorkload.lengths). */
export interface SweepLength {
  docs: number;
  meanTokens: number;
  minTokens: number;
  maxTokens: number;
}

/** Output length: log-normal with this median and sigma, rounded and clamped to [min, max]. */
export type LengthDist = OutputLength;

export interface MemAgentWorkload {
  lengths: readonly SweepLength[];
  samples: number;
  seed: number;
  chunkTokens: number;
  /** Prompt tokens of an update call besides chunk and memory: instructions (96), question (~25), chat template (~30). */
  updateOverhead: number;
  /** Same for the final call (instructions 60 + question + template). */
  finalOverhead: number;
  /** Tokens of "No previous memory". */
  initialMemory: number;
  /** Update-call output (the new memory; max_tokens 1024). */
  updateOutput: LengthDist;
  /** Final-answer output. */
  finalOutput: LengthDist;
}

/** Overheads, initial memory and output lengths are what MemAgent's call kinds declare (harness/methods/memagent.ts),
 *  the same that `bench plan` uses. The lengths are the caller's (a family's grid). */
export const DEFAULT_WORKLOAD: Omit<MemAgentWorkload, 'lengths'> = {
  samples: 128,
  seed: 0,
  chunkTokens: 5000,
  updateOverhead: UPDATE_CALL.overheadTokens,
  finalOverhead: FINAL_CALL.overheadTokens,
  initialMemory: UPDATE_CALL.readsMemory!.initialTokens,
  updateOutput: UPDATE_CALL.output,
  finalOutput: FINAL_CALL.output,
};

/** One output length from the distribution (also used by `bench plan` for its completion-length assumption). */
export function drawLength(rng: Rng, d: LengthDist): number {
  // Box–Muller; 1 - u keeps the log argument in (0, 1].
  const z = Math.sqrt(-2 * Math.log(1 - rng.float())) * Math.cos(2 * Math.PI * rng.float());
  return Math.min(d.max, Math.max(d.min, Math.round(d.median * Math.exp(d.sigma * z))));
}

/** The calls of one sample, shaped by MemAgent's own plan (harness/methods/memagent.ts): a window per update (the last
 *  one is the remainder), then the final answer; outputs drawn from the workload's distributions. */
export function memagentChain(w: Omit<MemAgentWorkload, 'lengths'>, length: SweepLength, index: number): SimChain {
  const rng = rngFor('sim-workload', w.seed, length.docs, index);
  const contextTokens = Math.round(length.minTokens + (length.maxTokens - length.minTokens) * rng.float());
  const calls: SimCall[] = [];
  let memory = w.initialMemory;
  for (const step of memAgentPlan(
    { contextTokens },
    { chunkTokens: w.chunkTokens, memoryTokens: w.updateOutput.max },
  )) {
    if (step.kind.writesMemory) {
      const output = drawLength(rng, w.updateOutput);
      calls.push({ prompt: w.updateOverhead + memory + step.contextTokens, output });
      memory = output;
    } else {
      calls.push({ prompt: w.finalOverhead + memory, output: drawLength(rng, w.finalOutput) });
    }
  }
  const group = `docs:${length.docs}`;
  return { key: `${group}/${index}`, group, index, contextTokens, calls };
}

/** Every sample of every length, in canonical order (length by length, then index). */
export function memagentSweep(w: Partial<MemAgentWorkload> & Pick<MemAgentWorkload, 'lengths'>): SimChain[] {
  const full = { ...DEFAULT_WORKLOAD, ...w };
  const out: SimChain[] = [];
  for (const length of full.lengths) for (let i = 0; i < full.samples; i++) out.push(memagentChain(full, length, i));
  return out;
}
