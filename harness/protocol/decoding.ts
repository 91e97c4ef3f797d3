// Decoding per protocol (docs/PROTOCOLS.md §a.5, §c.8, §e.6): each task carries the sampling its upstream evaluation
// uses; --temperature / --top-p override it for every task of a run.
import type { Decoding, Sample } from '../types.js';

/**
 * MemAgent's evaluation driver: ruler_hqa.py, ruler_hqa_over1m.py and ruler_general.py all call
 * async_query_llm(item, ..., temperature=0.7, top_p=0.95), for the MemAgent method and for its full-context baselines
 * alike, on RULER-HQA and on the RULER tasks (NIAH included).
 */
export const MEMAGENT_DECODING: Readonly<Decoding> = Object.freeze({ temperature: 0.7, topP: 0.95 });

/** The user's overrides (--temperature / --top-p); an undefined field means "the task's default". */
export interface DecodingOverride {
  temperature?: number;
  topP?: number;
}

/** The decoding a call uses: the override where given, else the task's (sample.prompt.decoding), else MemAgent's. */
export function resolveDecoding(override: DecodingOverride, taskDefault: Decoding | undefined): Decoding {
  const base = taskDefault ?? MEMAGENT_DECODING;
  return { temperature: override.temperature ?? base.temperature, topP: override.topP ?? base.topP };
}

/** resolveDecoding for one sample. */
export function sampleDecoding(override: DecodingOverride, sample: Sample): Decoding {
  return resolveDecoding(override, sample.prompt?.decoding);
}
