// ROUGE-1/2/L as PyPI `rouge` 1.0.1 (pltrdy) computes them, which is what LongBench's rouge_score calls
// (docs/PROTOCOLS.md §e.3, §e.4). Not textbook ROUGE: sentences are split on '.', words on single spaces, n-grams and LCS
// words are counted as sets, and any exception inside get_scores makes LongBench score the pair 0.
import { pySplit } from '../../harness/protocol/pytext.js';

export interface Prf {
  f: number;
  p: number;
  r: number;
}

export interface PltrdyScores {
  ok: true;
  rouge1: Prf;
  rouge2: Prf;
  rougeL: Prf;
}

/** Why upstream's get_scores would raise (LongBench then scores 0.0). */
export interface PltrdyFailure {
  ok: false;
  reason: 'empty-hypothesis' | 'empty-reference' | 'recursion-limit';
}

export interface PltrdyOptions {
  /**
   * Emulate CPython's recursion limit in the recursive LCS back-track (`_recon`): the most calls one back-track may
   * make; upstream raises RecursionError on the next one and LongBench scores the pair 0. The default, 991, is what
   * LongBench's eval.py leaves (recursion limit 1000 minus 9 frames already on the stack: module, scorer,
   * rouge_score, get_scores, _get_avg_scores, lambda, rouge_l_summary_level, _union_lcs, _recon_lcs). Another caller
   * or Python build can move it by a frame or two. `Infinity` disables the emulation.
   */
  recursionCallLimit?: number;
}

export const DEFAULT_RECURSION_CALL_LIMIT = 1000 - 9;

/** `[" ".join(s.split()) for s in text.split(".") if len(s) > 0]`: a whitespace-only piece becomes ''. */
export function pltrdySentences(text: string): string[] {
  return text
    .split('.')
    .filter((piece) => piece.length > 0)
    .map((piece) => pySplit(piece).join(' '));
}

function words(sentences: readonly string[]): string[] {
  const out: string[] = [];
  for (const s of sentences) for (const w of s.split(' ')) out.push(w);
  return out;
}

function ngramSet(tokens: readonly string[], n: number): Set<string> {
  const set = new Set<string>();
  for (let i = 0; i + n <= tokens.length; i++) set.add(n === 1 ? tokens[i] : JSON.stringify(tokens.slice(i, i + n)));
  return set;
}

function fOf(p: number, r: number): number {
  return 2.0 * ((p * r) / (p + r + 1e-8));
}

function rougeN(hyp: readonly string[], ref: readonly string[], n: number): Prf {
  const hypGrams = ngramSet(words(hyp), n);
  const refGrams = ngramSet(words(ref), n);
  let overlap = 0;
  for (const g of hypGrams) if (refGrams.has(g)) overlap++;
  const p = hypGrams.size === 0 ? 0.0 : overlap / hypGrams.size;
  const r = refGrams.size === 0 ? 0.0 : overlap / refGrams.size;
  return { f: fOf(p, r), p, r };
}

/**
 * Adds the words of the back-tracked LCS of x (reference sentence) and y (hypothesis sentence) to `into`.
 * Tie-breaking is upstream's: match → diagonal; else drop a reference word if that cell is strictly greater.
 * Returns the number of calls upstream's recursive `_recon` would make, or -1 when it would exceed `callLimit`.
 */
function addLcsWords(x: readonly string[], y: readonly string[], into: Set<string>, callLimit: number): number {
  const nx = x.length;
  const ny = y.length;
  // Every call moves i or j down by at most one, so the back-track needs more than min(nx, ny) calls.
  if (Math.min(nx, ny) + 1 > callLimit) return -1;
  const width = ny + 1;
  const size = (nx + 1) * width;
  const table = Math.min(nx, ny) < 0xffff ? new Uint16Array(size) : new Uint32Array(size);
  for (let i = 1; i <= nx; i++) {
    const xi = x[i - 1];
    const row = i * width;
    const up = row - width;
    for (let j = 1; j <= ny; j++) {
      if (xi === y[j - 1]) table[row + j] = table[up + j - 1] + 1;
      else {
        const a = table[up + j];
        const b = table[row + j - 1];
        table[row + j] = a > b ? a : b;
      }
    }
  }
  const found: string[] = [];
  let i = nx;
  let j = ny;
  let calls = 1;
  while (i > 0 && j > 0) {
    if (x[i - 1] === y[j - 1]) {
      found.push(x[i - 1]);
      i--;
      j--;
    } else if (table[(i - 1) * width + j] > table[i * width + j - 1]) i--;
    else j--;
    calls++;
    if (calls > callLimit) return -1;
  }
  for (const w of found) into.add(w);
  return calls;
}

function rougeLSummary(hyp: readonly string[], ref: readonly string[], callLimit: number): Prf | null {
  const m = new Set(words(ref)).size;
  const n = new Set(words(hyp)).size;
  const union = new Set<string>();
  const hypWords = hyp.map((s) => s.split(' '));
  for (const refSentence of ref) {
    const refWords = refSentence.split(' ');
    for (const h of hypWords) if (addLcsWords(refWords, h, union, callLimit) < 0) return null;
  }
  const llcs = union.size;
  const r = llcs / m;
  const p = llcs / n;
  return { f: fOf(p, r), p, r };
}

/** `Rouge().get_scores([hyp], [ref], avg=True)` of pltrdy rouge 1.0.1, or the reason it would raise. */
export function pltrdyRouge(
  hypothesis: string,
  reference: string,
  opts: PltrdyOptions = {},
): PltrdyScores | PltrdyFailure {
  const hyp = pltrdySentences(hypothesis);
  const ref = pltrdySentences(reference);
  if (hyp.length === 0) return { ok: false, reason: 'empty-hypothesis' };
  if (ref.length === 0) return { ok: false, reason: 'empty-reference' };
  const rougeL = rougeLSummary(hyp, ref, opts.recursionCallLimit ?? DEFAULT_RECURSION_CALL_LIMIT);
  if (rougeL === null) return { ok: false, reason: 'recursion-limit' };
  return { ok: true, rouge1: rougeN(hyp, ref, 1), rouge2: rougeN(hyp, ref, 2), rougeL };
}

/** LongBench's rouge_score: ROUGE-L F of pltrdy, 0.0 where upstream raises. */
export function rougeLFLongBench(prediction: string, gold: string, opts: PltrdyOptions = {}): number {
  const scores = pltrdyRouge(prediction, gold, opts);
  return scores.ok ? scores.rougeL.f : 0.0;
}
