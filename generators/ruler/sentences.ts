// A small deterministic sentence splitter over a whitespace-split word sequence.
//
// RULER splits the essay text with NLTK punkt, a statistical model with learnt abbreviations. This splitter is a
// fixed rule instead: a sentence ends after a word that ends in . ! or ? (optionally followed by closing quotes or
// brackets) when the next word starts with an upper-case letter or a digit (optionally after opening quotes or
// brackets), unless the word is a common abbreviation (Mr., Dr., e.g., ...) or a single-letter initial (J.).
// Differences from punkt: no learnt abbreviations or collocations, no special handling of ellipses or of
// sentences that start in lower case. It only decides where needles may go, so the effect is a slightly different
// set of insertion points; the text itself is unchanged.

const ENDS = /[.!?]["'\u201d\u2019)\]]*$/;
const STARTS = /^["'\u201c\u2018(\[]*[A-Z0-9]/;
const ABBREVIATIONS = new Set([
  'mr',
  'mrs',
  'ms',
  'dr',
  'st',
  'jr',
  'sr',
  'prof',
  'inc',
  'ltd',
  'co',
  'corp',
  'vs',
  'etc',
  'e.g',
  'i.e',
  'u.s',
  'u.k',
  'a.m',
  'p.m',
  'no',
  'vol',
  'fig',
  'approx',
  'cf',
  'ca',
]);

function isAbbreviation(word: string): boolean {
  const bare = word.replace(/["'\u201d\u2019)\]]*$/, '').replace(/^["'\u201c\u2018(\[]*/, '');
  if (!bare.endsWith('.')) return false;
  const stem = bare.slice(0, -1);
  if (/^[A-Za-z]$/.test(stem)) return true;
  return ABBREVIATIONS.has(stem.toLowerCase());
}

/** Whether `word` ends a sentence when `next` follows it. */
export function endsSentence(word: string, next: string): boolean {
  return ENDS.test(word) && STARTS.test(next) && !isAbbreviation(word);
}

/**
 * Indices i of the words that end a sentence in the endless repetition of `words` (word i is followed by word
 * (i + 1) mod n, so the seam between two copies is judged like any other pair). Ascending.
 */
export function sentenceEnds(words: readonly string[]): Uint32Array {
  const out: number[] = [];
  const n = words.length;
  for (let i = 0; i < n; i++) if (endsSentence(words[i], words[(i + 1) % n])) out.push(i);
  return Uint32Array.from(out);
}

/** Splits a word list into sentences with the same rule (for tests and small texts; no repetition). */
export function splitSentences(words: readonly string[]): string[][] {
  const out: string[][] = [];
  let current: string[] = [];
  for (let i = 0; i < words.length; i++) {
    current.push(words[i]);
    if (i + 1 < words.length && endsSentence(words[i], words[i + 1])) {
      out.push(current);
      current = [];
    }
  }
  if (current.length) out.push(current);
  return out;
}
