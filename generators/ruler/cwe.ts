// cwe, common words extraction (NVIDIA/RULER scripts/data/synthetic/common_words_extraction.py, docs/PROTOCOLS.md
// §c.9): n distinct words, the first 10 repeated 30 times and the rest 3 times (6 and 1 below 4096 tokens), shuffled
// and numbered `1. w 2. w …`; the answer is the 10 common words.
// - ruler: one demonstration first (40 words ×10 / ×3, or 20 words ×3 / ×1 below 4096), RULER's whole prompt with
//   its answer prefix and its 10 words, then a newline and the task's prompt.
// - memagent (taskutils/memory_data/synthetic/common_words_extraction.py): no demonstration.
// Words come from datasets/words (9,214 adjectives and nouns) instead of wonderwords' nouns, adjectives and verbs;
// n is capped at that pool, as MemAgent caps it (RULER switches to its english_words.json, not bundled), so contexts
// stop growing near 220K tokens (docs/PROTOCOLS.md D23).
import type { EvidenceSpan, Tokenizer } from '../../harness/types.js';
import { rngFor } from '../../harness/util/rng.js';
import { loadWordLists } from './keys.js';
import { fitUnits, type SizingRule } from './sizing.js';
import { checkStreams, frameOf, framedTokens, segmentContext } from './segments.js';
import type { SyntheticBuilder, SyntheticEnv, SyntheticPlan, TooSmall } from './synthetic-plan.js';
import { isTooSmall } from './synthetic-plan.js';
import { CWE_COMMON, CWE_FREQ_COMMON, CWE_FREQ_UNCOMMON } from './synthetic-spec.js';
import { cweDemoText, syntheticPrompt } from './synthetic-text.js';

/** The word pool: the adjective and noun lists, deduplicated and sorted. */
let pool: string[] | undefined;
export function cweWordPool(): string[] {
  if (!pool) {
    const { adjectives, nouns } = loadWordLists();
    pool = [...new Set([...adjectives, ...nouns])].sort();
  }
  return pool;
}

/** Repeats of the common and the uncommon words at a token target (common_words_extraction.py). */
export function cweRepeats(budget: number): { common: number; uncommon: number } {
  return budget < 4096 ? { common: 6, uncommon: 1 } : { common: CWE_FREQ_COMMON, uncommon: CWE_FREQ_UNCOMMON };
}

/** Ids of many short texts in one flat array (no array object per text): text k is ids[start[k], start[k + 1]). */
class FlatIds {
  private ids = new Uint32Array(1024);
  private start = new Float64Array(256);
  count = 0;
  add(ids: Uint32Array): void {
    const at = this.start[this.count];
    if (at + ids.length > this.ids.length) {
      const next = new Uint32Array(Math.max(at + ids.length, this.ids.length * 2));
      next.set(this.ids);
      this.ids = next;
    }
    if (this.count + 2 > this.start.length) {
      const next = new Float64Array(this.start.length * 2);
      next.set(this.start);
      this.start = next;
    }
    this.ids.set(ids, at);
    this.count++;
    this.start[this.count] = at + ids.length;
  }
  length(k: number): number {
    return this.start[k + 1] - this.start[k];
  }
  /** Copies text k's ids into `out` at `at`; returns the position after them. */
  copy(k: number, out: Uint32Array, at: number): number {
    for (let j = this.start[k], end = this.start[k + 1]; j < end; j++) out[at++] = this.ids[j];
    return at;
  }
  /** Tokens of texts [0, m). */
  prefix(m: number): number {
    return this.start[m];
  }
}

interface CweCodec {
  /** Ids of " word" per pool word. */
  words: FlatIds;
  /** Ids of "1." and " {i}." (index i-1), grown on demand. */
  numbers: FlatIds;
}

const codecs = new WeakMap<Tokenizer, CweCodec>();

function cweCodec(tokenizer: Tokenizer): CweCodec {
  let c = codecs.get(tokenizer);
  if (!c) {
    const words = new FlatIds();
    for (const w of cweWordPool()) words.add(tokenizer.encode(` ${w}`));
    c = { words, numbers: new FlatIds() };
    codecs.set(tokenizer, c);
  }
  return c;
}

/** Makes sure the numbers "1." … " {m}." are encoded. */
function ensureNumbers(tokenizer: Tokenizer, c: CweCodec, m: number): void {
  while (c.numbers.count < m) {
    const k = c.numbers.count + 1;
    c.numbers.add(tokenizer.encode(k === 1 ? '1.' : ` ${k}.`));
  }
}

/** Tokens of the numbers "1." … " {m}.". */
function numberTokens(tokenizer: Tokenizer, c: CweCodec, m: number): number {
  ensureNumbers(tokenizer, c, m);
  return c.numbers.prefix(m);
}

/** common × rc then uncommon × ru (Python's list repetition), shuffled by a generator seeded with the run seed
 *  alone, as RULER's random.Random(seed).shuffle (the permutation depends only on the list's length). */
export function cweList(
  seed: number,
  common: ArrayLike<number>,
  uncommon: ArrayLike<number>,
  repeats: { common: number; uncommon: number },
): Int32Array {
  const m = common.length * repeats.common + uncommon.length * repeats.uncommon;
  const list = new Int32Array(m);
  let at = 0;
  for (let r = 0; r < repeats.common; r++) for (let k = 0; k < common.length; k++) list[at++] = common[k];
  for (let r = 0; r < repeats.uncommon; r++) for (let k = 0; k < uncommon.length; k++) list[at++] = uncommon[k];
  const rng = rngFor('ruler-cwe-order', seed);
  for (let i = m - 1; i > 0; i--) {
    const j = rng.below(i + 1);
    const t = list[i];
    list[i] = list[j];
    list[j] = t;
  }
  return list;
}

/** Original index of the element a Fisher–Yates shuffle (from the end) leaves last: its first draw. */
function lastAfterShuffle(seed: number, m: number): number {
  return m > 1 ? rngFor('ruler-cwe-order', seed).below(m) : 0;
}

/** The answer rests on every occurrence of the common words: one span per common word, from its first occurrence
 *  to its last (item number included), in answer order. */
function commonWordSpans(
  list: Int32Array,
  common: ArrayLike<number>,
  words: readonly string[],
  codec: CweCodec,
): EvidenceSpan[] {
  const rank = new Map<number, number>();
  for (let k = 0; k < common.length; k++) rank.set(common[k], k);
  const first = new Float64Array(common.length).fill(-1);
  const end = new Float64Array(common.length);
  const times = new Int32Array(common.length);
  let at = 0;
  for (let i = 0; i < list.length; i++) {
    const len = codec.numbers.length(i) + codec.words.length(list[i]);
    const k = rank.get(list[i]);
    if (k !== undefined) {
      if (first[k] < 0) first[k] = at;
      end[k] = at + len;
      times[k]++;
    }
    at += len;
  }
  return Array.from(common, (w, k) => ({
    label: `common word "${words[w]}" (${times[k]} times, first to last)`,
    start: first[k],
    end: end[k],
  }));
}

export function cweBuilder(env: SyntheticEnv): SyntheticBuilder {
  const { tokenizer, seed, flavour, seams, tokensToGenerate } = env;
  const words = cweWordPool();
  const codec = cweCodec(tokenizer);

  const plan = (budget: number, index: number, sizing: SizingRule): SyntheticPlan | TooSmall => {
    const rng = rngFor('ruler-cwe', seed, budget, index);
    // A random order of the pool: the sample's n words are its first n (10 common, then uncommon).
    const perm = Int32Array.from({ length: words.length }, (_, i) => i);
    for (let i = perm.length - 1; i > 0; i--) {
      const j = rng.below(i + 1);
      const t = perm[i];
      perm[i] = perm[j];
      perm[j] = t;
    }
    const repeats = cweRepeats(budget);
    let demo: string | undefined;
    if (flavour === 'ruler') {
      const small = budget < 4096;
      const demoWords = rng.sample(words, small ? 20 : 40);
      const demoRepeats = small ? { common: 3, uncommon: 1 } : { common: 10, uncommon: 3 };
      const ids = demoWords.map((_, i) => i);
      const list = cweList(seed, ids.slice(0, CWE_COMMON), ids.slice(CWE_COMMON), demoRepeats);
      demo = cweDemoText(
        Array.from(list, (k) => demoWords[k]),
        demoWords.slice(0, CWE_COMMON),
      );
    }
    const prompt = syntheticPrompt('cwe', flavour, { example: demo });
    const frame = frameOf(prompt.template, prompt.answerPrefix);
    // Prefix sums of the words' token counts in perm order.
    const wordPrefix = new Float64Array(perm.length + 1);
    for (let k = 0; k < perm.length; k++) wordPrefix[k + 1] = wordPrefix[k] + codec.words.length(perm[k]);
    const items = (n: number) => CWE_COMMON * repeats.common + (n - CWE_COMMON) * repeats.uncommon;
    const contextTokens = (n: number) =>
      numberTokens(tokenizer, codec, items(n)) +
      repeats.common * wordPrefix[CWE_COMMON] +
      repeats.uncommon * (wordPrefix[n] - wordPrefix[CWE_COMMON]);
    /** The word the shuffled list ends with (its seam with the question). */
    const lastWord = (n: number) => {
      const at = lastAfterShuffle(seed, items(n));
      const c = CWE_COMMON * repeats.common;
      return words[perm[at < c ? at % CWE_COMMON : CWE_COMMON + ((at - c) % (n - CWE_COMMON))]];
    };
    // Units: n - 9 words (n >= 10: the common words alone are the smallest list); n is capped at the pool.
    const wordsOf = (u: number) => u + CWE_COMMON - 1;
    const total = (u: number) => {
      const n = wordsOf(u);
      if (n > words.length) return Number.POSITIVE_INFINITY;
      return framedTokens(seams, frame, contextTokens(n), '1.', lastWord(n)) + tokensToGenerate;
    };
    const fixed = seams.count(frame.before) + seams.count(frame.after) + tokensToGenerate;
    const perItem = 6;
    const estimate = (budget - fixed) / (perItem * repeats.uncommon);
    const u = fitUnits(total, budget, Math.max(1, estimate * 0.995), sizing);
    if (u === 0) return { minimumTokens: total(1) };
    const n = wordsOf(u);
    const list = cweList(seed, perm.subarray(0, CWE_COMMON), perm.subarray(CWE_COMMON, n), repeats);
    ensureNumbers(tokenizer, codec, list.length);
    const segments = {
      ids(i: number) {
        const w = list[i];
        const ids = new Uint32Array(codec.numbers.length(i) + codec.words.length(w));
        codec.words.copy(w, ids, codec.numbers.copy(i, ids, 0));
        return ids;
      },
      text: (i: number) => `${i === 0 ? '' : ' '}${i + 1}. ${words[list[i]]}`,
    };
    const context = segmentContext(list.length, segments, contextTokens(n));
    const common = Array.from(perm.subarray(0, CWE_COMMON), (k) => words[k]);
    return {
      prompt,
      answers: common,
      context,
      evidence: commonWordSpans(list, perm.subarray(0, CWE_COMMON), words, codec),
      promptTokens: total(u) - tokensToGenerate,
      units: u,
      metadata: {
        words: n,
        list_items: list.length,
        common_repeats: repeats.common,
        uncommon_repeats: repeats.uncommon,
        pool_words: words.length,
        ...(n === words.length ? { words_capped: true } : {}),
        ...(demo !== undefined ? { demonstration_words: budget < 4096 ? 20 : 40 } : {}),
      },
    };
  };

  const probe = plan(1024, -2, { kind: 'exact' });
  if (!isTooSmall(probe)) checkStreams(tokenizer, probe.context, 'cwe');

  return {
    unit: 'words',
    plan,
    // common_words_extraction.py: 10 words fewer per step.
    rulerStep: () => 10,
  };
}
