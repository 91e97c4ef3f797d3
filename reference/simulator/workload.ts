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

/** A length on the RULER-HQA grid: document count, mean context tokens and the spread of samples around it. */
export interface SweepLength {
  docs: number;
  meanTokens: number;
  minTokens: number;
  maxTokens: number;
}

/**
 * MemAgent's RULER-HQA grid, docs:50..25600. Up to 6400 documents: context tokens measured upstream (Qwen2.5 tokenizer;
 * MemAgent token_count.ipynb, quoted in docs/PROTOCOLS.md §b); 12800 and 25600 were not measured there: 2× and 4× the 6400 mean, ±1.5%.
 */
export const RULER_HQA_LENGTHS: readonly SweepLength[] = [
  { docs: 50, meanTokens: 6_999.6, minTokens: 5_821, maxTokens: 8_420 },
  { docs: 100, meanTokens: 14_029.8, minTokens: 12_351, maxTokens: 15_644 },
  { docs: 200, meanTokens: 28_069.4, minTokens: 25_546, maxTokens: 30_832 },
  { docs: 400, meanTokens: 56_152.9, minTokens: 51_695, maxTokens: 60_824 },
  { docs: 800, meanTokens: 112_227.2, minTokens: 108_084, maxTokens: 117_305 },
  { docs: 1600, meanTokens: 225_270.7, minTokens: 217_296, maxTokens: 231_703 },
  { docs: 3200, meanTokens: 451_415.8, minTokens: 438_033, maxTokens: 462_065 },
  { docs: 6400, meanTokens: 903_062.0, minTokens: 890_081, maxTokens: 915_357 },
  { docs: 12800, meanTokens: 1_806_124, minTokens: 1_779_032, maxTokens: 1_833_216 },
  { docs: 25600, meanTokens: 3_612_248, minTokens: 3_558_064, maxTokens: 3_666_432 },
];

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
 *  the same that `bench plan` uses. */
export const DEFAULT_WORKLOAD: MemAgentWorkload = {
  lengths: RULER_HQA_LENGTHS,
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
export function memagentChain(w: MemAgentWorkload, length: SweepLength, index: number): SimChain {
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
export function memagentSweep(w: Partial<MemAgentWorkload> = {}): SimChain[] {
  const full = { ...DEFAULT_WORKLOAD, ...w };
  const out: SimChain[] = [];
  for (const length of full.lengths) for (let i = 0; i < full.samples; i++) out.push(memagentChain(full, length, i));
  return out;
}
