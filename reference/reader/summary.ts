// Extractive summaries: the most central sentences (content words shared by many sentences of the text),
// optionally steered by a query (qmsum), written in their original order within a character budget. Used for
// LongBench's own summary prompts and, through summary-memory.ts, for MemAgent on a summarisation problem.

import {
  Vocab,
  contentKeys,
  countSentences,
  makeCand,
  pickCentral,
  proseCost,
  queryIdsOf,
  scoreCands,
  type SumCand,
} from './central.js';
import { splitSummary } from './summary-text.js';

/** "Write a one-page summary", "Summarize the discussion about ...", "summarise". */
const SUMMARY_WORD = /\bsummar(?:y|ies|i[sz]e|i[sz]ed|i[sz]es|i[sz]ing)\b/i;
/** qmsum-style queries about a meeting: "What did the group discuss about ...?", "Why did B disagree ... meeting?" */
const DISCUSSION_QUERY = /^\s*(?:what|why|how)\b[^?]*\b(?:discuss\w*|meetings?|talk(?:ed|ing)? about)\b/i;

/** Words of a summarisation instruction that say nothing about the text's content. */
const INSTRUCTION_WORDS = new Set(
  `you given write one page one-page summary summaries summarize summarise summarized summarised brief short
  report reports government agency news passages passage article articles document documents text transcript
  meeting meetings query instruction question answer sentences sentence whole several all discussion discussions
  discuss discussed talk talked group team what why how did does was were the about`
    .split(/\s+/)
    .filter((w) => w.length > 0),
);

/** Whether a MemAgent problem statement asks for a summary rather than a short answer. */
export function isSummaryProblem(problem: string): boolean {
  return SUMMARY_WORD.test(problem) || DISCUSSION_QUERY.test(problem);
}

/** Content word keys of a query or problem statement, without the instruction's own vocabulary. */
export function summaryQueryKeys(query: string | null): string[] {
  if (query === null) return [];
  const kept = query
    .split(/[^\p{L}\p{N}'-]+/u)
    .filter((w) => w.length > 0 && !INSTRUCTION_WORDS.has(w.toLowerCase()))
    .join(' ');
  return contentKeys(kept);
}

/**
 * The scored candidates' summary within maxChars: the picked sentences joined into one paragraph, without any that
 * holds the phrase MemAgent's answer extraction cuts at; the best sentence cut to size when none fits whole.
 */
export function writeSummary(cands: SumCand[], vocabSize: number, maxChars: number): string {
  const picked = pickCentral(cands, vocabSize, { chars: maxChars, tokens: Infinity, cost: proseCost });
  if (picked.length === 0) {
    let best = cands[0];
    for (const c of cands) if (c.score > best.score) best = c;
    return best.text.slice(0, maxChars);
  }
  return picked
    .map((p) => p.text)
    .filter((t) => !t.includes('the answer is'))
    .join(' ');
}

/** Summary of a whole text within maxChars (LongBench's summary prompts). */
export function summarize(context: string, query: string | null, maxChars: number): string {
  const split = splitSummary(context, { title: null, next: 0 }, true);
  const vocab = new Vocab();
  const cands: SumCand[] = [];
  for (const s of split.sents) {
    const c = makeCand(vocab, s.title, s.idx, s.text, cands.length);
    if (c !== null) cands.push(c);
  }
  if (cands.length === 0) return context.replace(/\s+/g, ' ').trim().slice(0, maxChars);
  const df = new Float64Array(vocab.size);
  countSentences(cands, df);
  const queryKeys = summaryQueryKeys(query);
  scoreCands(cands, df, queryIdsOf(vocab, queryKeys), queryKeys.length);
  return writeSummary(cands, vocab.size, maxChars);
}
