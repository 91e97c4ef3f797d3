// fwe, frequent words extraction (NVIDIA/RULER scripts/data/synthetic/freq_words_extraction.py, docs/PROTOCOLS.md
// §c.9): a vocabulary of random 6-letter words whose rank-1 entry is replaced by the noise `...`; word k appears
// int(N · k^-2 / ζ(2)) times; the words, shuffled, are joined by single spaces. The answer is ranks 2–4.
// Vocabulary size: (budget − 50) // 50 (RULER) or budget // 50 (MemAgent's copy). Only ranks with a count of at
// least one are tokenized (about √(0.6·N) of them), so the vocabulary costs nothing at 512K.
import type { EvidenceSpan } from '../../harness/types.js';
import { rngFor } from '../../harness/util/rng.js';
import { fitUnits, type SizingRule } from './sizing.js';
import { checkStreams, frameOf, framedTokens, IdMemo, segmentContext } from './segments.js';
import type { SyntheticBuilder, SyntheticEnv, SyntheticPlan, TooSmall } from './synthetic-plan.js';
import { isTooSmall } from './synthetic-plan.js';
import { FWE_ALPHA, FWE_WORD_LENGTH } from './synthetic-spec.js';
import { syntheticPrompt } from './synthetic-text.js';

/** scipy.special.zeta(2.0) = π²/6. */
const ZETA_2 = Math.PI ** 2 / 6;
const NOISE = '...';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';

/** The vocabulary in rank order (rank 1 first, already the noise `...`): `size` distinct random words, sorted, then
 *  shuffled by a generator seeded with the run seed alone (as RULER's random.Random(seed).shuffle). */
export function fweVocabulary(seed: number, budget: number, index: number, size: number): string[] {
  const rng = rngFor('ruler-fwe', seed, budget, index);
  const set = new Set<string>();
  for (let guard = 0; set.size < size; guard++) {
    if (guard > 100 * size + 1000) throw new Error('could not draw distinct coded words');
    let w = '';
    for (let k = 0; k < FWE_WORD_LENGTH; k++) w += LOWER[rng.below(26)];
    set.add(w);
  }
  const vocab = [...set].sort();
  rngFor('ruler-fwe-vocab-order', seed).shuffle(vocab);
  vocab[0] = NOISE;
  return vocab;
}

/** Occurrences of each rank: int(N · k^-α / ζ(α)), zero-count ranks dropped from the end. */
export function fweCounts(n: number, vocabSize: number): number[] {
  const out: number[] = [];
  for (let k = 1; k <= vocabSize; k++) {
    const c = Math.trunc((n * k ** -FWE_ALPHA) / ZETA_2);
    if (c <= 0) break;
    out.push(c);
  }
  return out;
}

/** The words by rank repeated by count, flattened, shuffled by a generator seeded with the run seed alone. */
export function fweOrder(seed: number, counts: readonly number[]): Int32Array {
  let m = 0;
  for (const c of counts) m += c;
  const list = new Int32Array(m);
  let at = 0;
  counts.forEach((c, k) => list.fill(k, at, (at += c)));
  const rng = rngFor('ruler-fwe-order', seed);
  for (let i = m - 1; i > 0; i--) {
    const j = rng.below(i + 1);
    const t = list[i];
    list[i] = list[j];
    list[j] = t;
  }
  return list;
}

/** Token counts of " word" per rank. */
function spacedLengths(ranks: number, spaced: (k: number) => Uint32Array): Int32Array {
  return Int32Array.from({ length: ranks }, (_, k) => spaced(k).length);
}

/** The answer (ranks 2–4) rests on every occurrence of those words: one span per answer word, from its first
 *  occurrence to its last, in answer order. The text's first word is bare (`firstTokens`), the others spaced. */
function frequentWordSpans(
  order: Int32Array,
  vocab: readonly string[],
  spaced: Int32Array,
  firstTokens: number,
): EvidenceSpan[] {
  const ranks = [1, 2, 3];
  const first = [-1, -1, -1];
  const end = [0, 0, 0];
  const times = [0, 0, 0];
  let at = 0;
  for (let i = 0; i < order.length; i++) {
    const len = i === 0 ? firstTokens : spaced[order[i]];
    const k = order[i] - 1;
    if (k >= 0 && k < 3) {
      if (first[k] < 0) first[k] = at;
      end[k] = at + len;
      times[k]++;
    }
    at += len;
  }
  return ranks
    .map((r, k) => ({
      label: `frequent word "${vocab[r]}" (rank ${r + 1}, ${times[k]} times, first to last)`,
      start: first[k],
      end: end[k],
    }))
    .filter((_, k) => times[k] > 0);
}

export function fweBuilder(env: SyntheticEnv): SyntheticBuilder {
  const { tokenizer, seed, flavour, seams, tokensToGenerate } = env;
  const memo = new IdMemo(tokenizer, 65536);
  const prompt = syntheticPrompt('fwe', flavour);
  const frame = frameOf(prompt.template, prompt.answerPrefix);
  const vocabSize = (budget: number) =>
    Math.max(4, Math.floor((flavour === 'ruler' ? budget - tokensToGenerate : budget) / 50));

  /** One sample's vocabulary and its prompt total as a function of the unit u (N = u + 1). */
  const model = (budget: number, index: number) => {
    const size = vocabSize(budget);
    const vocab = fweVocabulary(seed, budget, index, size);
    const spaced = (k: number) => memo.encode(` ${vocab[k]}`);
    const bare = (k: number) => memo.encode(vocab[k]);
    /** Context tokens and the prompt total when the shuffled text starts with rank `first` and ends with `last`. */
    const framed = (counts: readonly number[], first: number, last: number) => {
      let tokens = 0;
      counts.forEach((c, k) => (tokens += c * spaced(k).length));
      tokens += bare(first).length - spaced(first).length;
      return { tokens, total: framedTokens(seams, frame, tokens, vocab[first], vocab[last]) + tokensToGenerate };
    };
    /** The exact total of the shuffled text (one shuffle). */
    const exact = (u: number) => {
      const counts = fweCounts(u + 1, size);
      const order = fweOrder(seed, counts);
      if (order.length === 0) return { counts, order, tokens: 0, total: Number.POSITIVE_INFINITY };
      return { counts, order, ...framed(counts, order[0], order[order.length - 1]) };
    };
    /** The total for sizing without shuffling: the last word is the shuffle's first draw, the first word is taken
     *  as rank 1 (the seam with the template's trailing space and the word's own leading space cancel when both are
     *  pre-token boundaries; the exact total of the chosen size is checked after). */
    const estimate = (u: number) => {
      const counts = fweCounts(u + 1, size);
      let m = 0;
      for (const c of counts) m += c;
      if (m === 0) return Number.POSITIVE_INFINITY;
      const at = m > 1 ? rngFor('ruler-fwe-order', seed).below(m) : 0;
      let last = 0;
      for (let acc = counts[0]; acc <= at; acc += counts[++last]);
      return framed(counts, 0, last).total;
    };
    return { vocab, spaced, bare, exact, estimate };
  };

  const plan = (budget: number, index: number, sizing: SizingRule): SyntheticPlan | TooSmall => {
    const m = model(budget, index);
    const fixed = seams.count(frame.before) + seams.count(frame.after) + tokensToGenerate;
    let u = fitUnits(m.estimate, budget, Math.max(1, ((budget - fixed) / 1.7) * 0.99), sizing);
    if (u === 0) return { minimumTokens: m.estimate(1) };
    let built = m.exact(u);
    for (let guard = 0; built.total > budget && u > 1 && guard < 1000; guard++) built = m.exact(--u);
    const { counts, order, tokens } = built;
    const segments = {
      ids: (i: number) => (i === 0 ? m.bare(order[i]) : m.spaced(order[i])),
      text: (i: number) => (i === 0 ? m.vocab[order[i]] : ` ${m.vocab[order[i]]}`),
    };
    return {
      prompt,
      answers: m.vocab.slice(1, 4),
      context: segmentContext(order.length, segments, tokens),
      evidence: frequentWordSpans(order, m.vocab, spacedLengths(counts.length, m.spaced), m.bare(order[0]).length),
      promptTokens: built.total - tokensToGenerate,
      units: u,
      metadata: {
        zipf_n: u + 1,
        words: order.length,
        vocabulary: m.vocab.length,
        // Occurrences of ranks 1–5 (rank 1 is the noise "...", ranks 2–4 the answer).
        top_counts: counts.slice(0, 5),
      },
    };
  };

  const probe = plan(1024, -2, { kind: 'exact' });
  if (!isTooSmall(probe)) checkStreams(tokenizer, probe.context, 'fwe');

  // freq_words_extraction.py: the budget less the generation, grown from max_len // 6 by max_len // 32.
  const rulerMax = (budget: number) => budget - tokensToGenerate;
  return {
    unit: 'zipf N − 1',
    plan,
    rulerStep: (budget) => Math.max(1, Math.floor(rulerMax(budget) / 32)),
    rulerStart(budget) {
      const max = rulerMax(budget);
      const inc = Math.max(1, Math.floor(max / 32));
      const { estimate: total } = model(budget, -1);
      // Grown while the prompt is shorter than max_len, then one step back (RULER's first pass, on a probe draw).
      let u = Math.max(1, Math.floor(max / FWE_WORD_LENGTH) - 1);
      for (let guard = 0; total(u) - tokensToGenerate < max; guard++) {
        if (guard > 10_000) throw new Error('fwe sizing did not converge');
        u += inc;
      }
      return Math.max(1, u - inc);
    },
  };
}
