// Textbook ROUGE from js-rouge (Lin 2004 style), offered beside the pltrdy reproduction. It does NOT reproduce
// LongBench/pltrdy numbers:
// - tokens: Penn Treebank tokenizer (punctuation split off: "mat." → "mat", ".") vs pltrdy's split on '.' then on
//   single spaces (commas, quotes and the like stay glued to words);
// - sentences: js-rouge's own segmenter vs pltrdy's split on every '.' (so "3.5" and "U.S." split there);
// - counting: clipped multiset counts over all tokens vs pltrdy's sets of distinct n-grams / words (m, n are counts
//   of distinct words there);
// - ROUGE-L: union LCS per reference sentence with each reference position and candidate token used once, vs
//   pltrdy's single set of LCS words shared across all reference sentences;
// - empty or whitespace-only text: js-rouge throws (we score 0), pltrdy raises only when there is no sentence
//   (empty or dots only) and otherwise scores an empty sentence as the token '';
// - F: both F1 of p and r (js-rouge exact, pltrdy with +1e-8 in the denominator).
// js-rouge returns only F (recall via beta = Infinity); it agrees with pltrdy only on dot-free, punctuation-free
// texts whose words are all distinct.
import * as jsRouge from 'js-rouge';

function safe(compute: () => number): number {
  try {
    return compute();
  } catch {
    return 0;
  }
}

/** Textbook ROUGE-L F1 (summary-level union LCS), case-sensitive, 0 where js-rouge rejects the input. */
export function rougeLTextbook(prediction: string, gold: string): number {
  return safe(() => jsRouge.l(prediction, gold));
}

/** Textbook ROUGE-L / ROUGE-N recall (js-rouge's F with beta = Infinity). */
export function rougeRecallTextbook(prediction: string, gold: string, n: number | 'l'): number {
  return safe(() =>
    n === 'l' ? jsRouge.l(prediction, gold, { beta: Infinity }) : jsRouge.n(prediction, gold, { n, beta: Infinity }),
  );
}
