// Parameters of the simulated continuous-batching GPU server, its presets, and the `--simulate` spec parser.
// Sources and derivations of the preset figures: docs/SIMULATION.md.
import { UserError } from '../../harness/errors.js';

export interface GpuParams {
  /** Preset name or "custom". */
  name: string;
  /** Prefill throughput: prompt tokens per second when the GPU does nothing else. */
  prefillTokensPerS: number;
  /** Fixed cost of one engine step (one forward pass): reading the weights, launch overhead. */
  stepBaseMs: number;
  /** Added to every step per sequence decoding in it (reading that sequence's KV cache). */
  stepPerSeqMs: number;
  /** Most sequences in the running batch (vLLM max_num_seqs, or what the KV cache holds); the rest queue, first come first served. */
  maxBatch: number;
  /** Token budget of one step, shared by decoding sequences (one each) and prefill chunks (vLLM max_num_batched_tokens). */
  prefillChunkTokens: number;
  /** Data-parallel copies of this GPU behind one endpoint; a request goes to the copy with the fewest requests. Default 1. */
  replicas?: number;
}

/** Duration of one step in seconds: base + per-sequence cost × decoding sequences + prefill tokens ÷ prefill rate. */
export function stepSeconds(p: GpuParams, decoding: number, prefillTokens = 0): number {
  return (p.stepBaseMs + p.stepPerSeqMs * decoding) / 1000 + prefillTokens / p.prefillTokensPerS;
}

/** Decode throughput (output tokens per second) with `batch` sequences decoding. */
export function decodeTokensPerS(p: GpuParams, batch: number): number {
  return batch / stepSeconds(p, batch);
}

// Both presets: one H100 SXM 80 GB (3.35 TB/s HBM3, 989 TFLOPS dense BF16), BF16 weights, MemAgent-sized calls
// (~6.2K-token prompts, up to 1,024 output tokens, so ~7K tokens of KV cache per sequence). Estimates; see docs.
export const GPU_PRESETS: Readonly<Record<string, GpuParams>> = {
  'qwen2.5-7b-h100': {
    name: 'qwen2.5-7b-h100',
    prefillTokensPerS: 25_000,
    stepBaseMs: 7,
    stepPerSeqMs: 0.18,
    maxBatch: 128,
    prefillChunkTokens: 8192,
  },
  'qwen2.5-14b-h100': {
    name: 'qwen2.5-14b-h100',
    prefillTokensPerS: 12_500,
    stepBaseMs: 12,
    stepPerSeqMs: 0.55,
    maxBatch: 28,
    prefillChunkTokens: 8192,
  },
  // One 8-GPU node, one 14B copy per GPU (data parallel), as a MemAgent-14B evaluation would likely be run.
  'qwen2.5-14b-8xh100': {
    name: 'qwen2.5-14b-8xh100',
    prefillTokensPerS: 12_500,
    stepBaseMs: 12,
    stepPerSeqMs: 0.55,
    maxBatch: 28,
    prefillChunkTokens: 8192,
    replicas: 8,
  },
};

export const DEFAULT_PRESET = 'qwen2.5-7b-h100';

const KEYS: Record<string, keyof Omit<GpuParams, 'name'>> = {
  'prefill-tps': 'prefillTokensPerS',
  'step-ms': 'stepBaseMs',
  'step-per-seq-ms': 'stepPerSeqMs',
  'max-batch': 'maxBatch',
  'prefill-chunk': 'prefillChunkTokens',
  replicas: 'replicas',
};

/** Throws UserError when a parameter is out of range. */
export function validateGpuParams(p: GpuParams): GpuParams {
  const positive = (v: number, what: string) => {
    if (!Number.isFinite(v) || v <= 0)
      throw new UserError(`simulated server: ${what} must be a positive number, got ${v}`);
  };
  positive(p.prefillTokensPerS, 'prefill-tps');
  positive(p.stepBaseMs, 'step-ms');
  if (!Number.isFinite(p.stepPerSeqMs) || p.stepPerSeqMs < 0)
    throw new UserError(`simulated server: step-per-seq-ms must be >= 0, got ${p.stepPerSeqMs}`);
  if (!Number.isInteger(p.maxBatch) || p.maxBatch < 1)
    throw new UserError(`simulated server: max-batch must be an integer >= 1, got ${p.maxBatch}`);
  if (!Number.isInteger(p.prefillChunkTokens) || p.prefillChunkTokens <= p.maxBatch) {
    throw new UserError(
      `simulated server: prefill-chunk must be an integer above max-batch (${p.maxBatch}), got ${p.prefillChunkTokens}`,
    );
  }
  const r = p.replicas ?? 1;
  if (!Number.isInteger(r) || r < 1 || r > 1024)
    throw new UserError(`simulated server: replicas must be an integer in 1..1024, got ${r}`);
  return p;
}

/** Sequences the whole server runs at once (maxBatch × replicas). */
export function serverSlots(p: GpuParams): number {
  return p.maxBatch * (p.replicas ?? 1);
}

/** A preset by name, with overrides. Throws UserError naming the presets when the name is unknown. */
export function gpuParams(
  preset: string = DEFAULT_PRESET,
  overrides: Partial<Omit<GpuParams, 'name'>> = {},
): GpuParams {
  const base = GPU_PRESETS[preset];
  if (!base)
    throw new UserError(`unknown --simulate preset '${preset}': use one of ${Object.keys(GPU_PRESETS).join(', ')}`);
  const changed = Object.keys(overrides).length > 0;
  return validateGpuParams({ ...base, ...overrides, name: changed ? `${preset}+custom` : preset });
}

/**
 * `--simulate` value → parameters: `PRESET` or `PRESET,key=value,...` with keys prefill-tps, step-ms,
 * step-per-seq-ms, max-batch, prefill-chunk, replicas (e.g. `qwen2.5-7b-h100,max-batch=64`).
 */
export function parseSimulateSpec(spec: string): GpuParams {
  const [preset, ...pairs] = spec.split(',').map((s) => s.trim());
  const overrides: Partial<Record<keyof GpuParams, number>> = {};
  for (const pair of pairs) {
    const m = /^([a-z-]+)=(.+)$/.exec(pair);
    const key = m ? KEYS[m[1]] : undefined;
    if (!m || !key)
      throw new UserError(`--simulate: '${pair}' is not KEY=VALUE with KEY one of ${Object.keys(KEYS).join(', ')}`);
    const v = Number(m[2]);
    if (!Number.isFinite(v)) throw new UserError(`--simulate: ${m[1]} expects a number, got '${m[2]}'`);
    overrides[key] = v;
  }
  return gpuParams(preset || DEFAULT_PRESET, overrides);
}

/** `--time-scale X`: simulated seconds per wall-clock second (1000 replays ~17 simulated minutes per second). */
export function parseTimeScale(raw: string | undefined): number {
  if (raw === undefined) return 1;
  const v = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(v) || v <= 0)
    throw new UserError(`--time-scale expects a positive number (simulated seconds per second), got '${raw}'`);
  return v;
}
