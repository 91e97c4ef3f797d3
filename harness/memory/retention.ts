// What a memory agent's memory held over its chunks: which gold answers are in a memory (normalized substring, the
// SQuAD/HotpotQA normalisation of the scorers), which chunks hold evidence, and when the gold entered and left.
import type { EvidenceSpan, MemoryRetention } from '../types.js';
import { normalizeAnswer } from '../scorers/qa.js';

/** Metrics that need every gold string (RULER's string_match_all family): the memory holds the gold only when it
 *  holds them all. Any other metric takes one of its answers (alternatives, e.g. HotpotQA's or LongBench's). */
const ALL_ANSWERS_METRICS = new Set(['string_match_all', 'memagent_niah']);

/** Per gold answer, whether the memory holds it: the normalised answer as whole words of the normalised memory
 *  (so "no" is not in "north"; an answer normalising to '' counts as absent). */
export function goldInMemory(memory: string, answers: readonly string[]): boolean[] {
  const text = ` ${normalizeAnswer(memory)} `;
  return answers.map((a) => {
    const gold = normalizeAnswer(a);
    return gold !== '' && text.includes(` ${gold} `);
  });
}

/**
 * goldInMemory over a memory given as segments (harness/memory/memory-delta.ts), for one sample's memories in turn:
 * each segment is normalised once and kept while the memory keeps it, so a memory that changes a few notes per chunk
 * costs those notes. Segments end at whitespace, so their normalisations joined by a space are the whole text's.
 */
export class GoldMatcher {
  private golds: string[];
  private normalised = new Map<string, string>();
  constructor(answers: readonly string[]) {
    this.golds = answers.map((a) => normalizeAnswer(a));
  }
  flags(segments: readonly string[]): boolean[] {
    const next = new Map<string, string>();
    const parts: string[] = [];
    for (const seg of segments) {
      let n = this.normalised.get(seg) ?? next.get(seg);
      if (n === undefined) n = normalizeAnswer(seg);
      next.set(seg, n);
      if (n !== '') parts.push(n);
    }
    this.normalised = next;
    const text = ` ${parts.join(' ')} `;
    return this.golds.map((gold) => gold !== '' && text.includes(` ${gold} `));
  }
}

/** Whether a memory holding `flags` (goldInMemory) holds the gold under `metric`. */
export function holdsGold(flags: readonly boolean[], metric: string): boolean {
  if (flags.length === 0) return false;
  return ALL_ANSWERS_METRICS.has(metric) ? flags.every(Boolean) : flags.some(Boolean);
}

/** The 0-based windows of `chunkTokens` ids that overlap any span, ascending. */
export function evidenceChunks(spans: readonly EvidenceSpan[], chunkTokens: number): number[] {
  const out = new Set<number>();
  for (const s of spans) {
    if (!(s.end > s.start)) continue;
    for (let c = Math.floor(s.start / chunkTokens); c <= Math.floor((s.end - 1) / chunkTokens); c++) out.add(c);
  }
  return [...out].sort((a, b) => a - b);
}

/** capturedAt: the first '1'; lostAt: the first '0' after it. */
export function retention(holds: string, chunks: number[]): MemoryRetention {
  const first = holds.indexOf('1');
  const lost = first < 0 ? -1 : holds.indexOf('0', first);
  return {
    evidenceChunks: chunks,
    holds,
    capturedAt: first < 0 ? null : first,
    lostAt: lost < 0 ? null : lost,
  };
}
