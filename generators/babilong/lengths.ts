// BABILong's lengths. Its names count 1k as 1,000 and 1M as 1,000,000 tokens of the whole prompt, and create_tasks.py
// leaves 300 of them to the prompt: a '4k' context is 3,700 tokens (BABILong counted GPT-2 tokens; we count in the
// run's tokenizer). Our grid keeps its own labels (k = 1024) and BABILong's meaning of each label.
import { MAX_TOKENS, tokenLabel } from '../../harness/config/lengths.js';
import type { LengthTarget } from '../../harness/types.js';

/** create_tasks.py: `message_lengths = [ml - 300 for ml in message_lengths]`. */
export const PROMPT_RESERVE = 300;

const M = 1024 * 1024;
/** The longest length the bundled background is drawn for: BABILong's longest, 10M. */
export const MAX_BABILONG_TOKENS = 10 * M;

/** BABILong's name of a length: 0k, 1k … 512k, 1M, 2M, 10M (its file names and collect_results.py spell them so). */
export function babilongLengthName(l: LengthTarget): string {
  const label = l.kind === 'tokens' ? tokenLabel(l.value) : l.label;
  return label.endsWith('m') ? `${label.slice(0, -1)}M` : label;
}

/** Tokens of the whole BABILong input at a length: the number before k × 1,000, before M × 1,000,000. */
export function babilongTokens(l: LengthTarget): number {
  const m = /^(\d+(?:\.\d+)?)([kM]?)$/.exec(babilongLengthName(l));
  if (!m) return l.value;
  return Math.round(Number(m[1]) * (m[2] === 'k' ? 1000 : m[2] === 'M' ? 1_000_000 : 1));
}

/** Tokens of facts and background together (0 at 0k: the facts alone). */
export function messageTokens(l: LengthTarget): number {
  return Math.max(0, babilongTokens(l) - PROMPT_RESERVE);
}

/** get_dataset_df's max_n_facts at a length: a bAbI sample with more rows (facts and question) is left out. */
export function maxRows(l: LengthTarget): number | undefined {
  const m = babilongTokens(l) - PROMPT_RESERVE;
  return m > 0 ? Math.floor(m / 8) : undefined;
}

export const BABILONG_LIMIT_WHY = `BABILong's longest length is 10M; past it the two bundled books would be repeated more than 20 times over (lengths up to ${tokenLabel(MAX_TOKENS)} are for tasks that generate their own text)`;
