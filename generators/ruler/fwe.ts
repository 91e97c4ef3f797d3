// fwe, frequent words extraction (NVIDIA/RULER scripts/data/synthetic/freq_words_extraction.py, docs/PROTOCOLS.md
// §c.9): a vocabulary of random 6-letter words whose rank-1 entry is replaced by the noise `...`; word k appears
// int(N · k^-2 / ζ(2)) times; the words, shuffled, are joined by single spaces. The answer is ranks 2–4.
// Vocabulary size: (budget − 50) // 50 (RULER) or budget // 50 (MemAgent's copy). Only ranks with a count of at
// least one are tokenized (about √(0.6·N) of them), so the vocabulary costs nothing at 512K.
import { rngFor } from '../../harness/util/rng.js';
import { fitUnits, type SizingRule } from './sizing.js';
import { checkStreams, frameOf, framedTokens, IdMemo, segmentContext, type Segment } from './segments.js';
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

export function fweBuilder(env: SyntheticEnv): SyntheticBuilder {
  const { tokenizer, seed, flavour, seams, tokensToGenerate } = env;
  const memo = new IdMemo(tokenizer, 65536);
  const prompt = syntheticPrompt('fwe', flavour);
  const frame = frameOf(prompt.template, prompt.answerPrefix);
  const vocabSize = (budget: number) =>
    Math.max(4, Math.floor((flavour === 'ruler' ? budget - tokensToGenerate : budget) / 50));

  /** One sample's vocabulary and its exact prompt total as a function of the unit u (N = u + 1). */
  const model = (budget: number, index: number) => {
    const size = vocabSize(budget);
    const vocab = fweVocabulary(seed, budget, index, size);
    const spaced = (k: number) => memo.encode(` ${vocab[k]}`);
    const bare = (k: number) => memo.encode(vocab[k]);
    const layout = (u: number) => {
      const counts = fweCounts(u + 1, size);
      const order = fweOrder(seed, counts);
      let tokens = 0;
      counts.forEach((c, k) => (tokens += c * spaced(k).length));
      if (order.length > 0) tokens += bare(order[0]).length - spaced(order[0]).length;
      return { counts, order, tokens };
    };
    const total = (u: number) => {
      const { order, tokens } = layout(u);
      if (order.length === 0) return Number.POSITIVE_INFINITY;
      const head = vocab[order[0]];
      const tail = vocab[order[order.length - 1]];
      return framedTokens(seams, frame, tokens, head, tail) + tokensToGenerate;
    };
    return { vocab, spaced, bare, layout, total };
  };

  const plan = (budget: number, index: number, sizing: SizingRule): SyntheticPlan | TooSmall => {
    const m = model(budget, index);
    const fixed = seams.count(frame.before) + seams.count(frame.after) + tokensToGenerate;
    const u = fitUnits(m.total, budget, Math.max(1, ((budget - fixed) / 1.7) * 0.99), sizing);
    if (u === 0) return { minimumTokens: m.total(1) };
    const { counts, order, tokens } = m.layout(u);
    const segAt = (i: number): Segment => {
      const k = order[i];
      return i === 0 ? { text: m.vocab[k], ids: m.bare(k) } : { text: ` ${m.vocab[k]}`, ids: m.spaced(k) };
    };
    return {
      prompt,
      answers: m.vocab.slice(1, 4),
      context: segmentContext(order.length, segAt, tokens),
      promptTokens: m.total(u) - tokensToGenerate,
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
      const { total } = model(budget, -1);
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
