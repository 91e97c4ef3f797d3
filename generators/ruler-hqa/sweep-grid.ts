// MemAgent's RULER-HQA grid as the simulated server's sweep takes it (reference/simulator/workload.ts: SweepLength,
// MemAgentWorkload.lengths): document count, mean context tokens and the spread of samples around it.

export interface DocsSweepLength {
  docs: number;
  meanTokens: number;
  minTokens: number;
  maxTokens: number;
}

/**
 * MemAgent's RULER-HQA grid, docs:50..25600. Up to 6400 documents: context tokens measured upstream (Qwen2.5 tokenizer;
 * MemAgent token_count.ipynb, quoted in docs/PROTOCOLS.md §b); 12800 and 25600 were not measured there: 2× and 4× the 6400 mean, ±1.5%.
 */
export const RULER_HQA_LENGTHS: readonly DocsSweepLength[] = [
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
