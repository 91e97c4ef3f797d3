// Candidate answer spans in one sentence: capitalised spans, numbers, years, dates and quoted titles.

import { STOP_WORDS, keyOf } from './text.js';

export interface Token {
  text: string;
  start: number;
  end: number;
  key: string;
  lower: string;
  cap: boolean;
  num: boolean;
}

export type SpanKind = 'cap' | 'num' | 'numword' | 'year' | 'date' | 'quote';

export interface Span {
  text: string;
  /** Token range [from, to) in the sentence (quotes: the tokens inside). */
  from: number;
  to: number;
  kind: SpanKind;
  /** For dates: the year inside; for years: the year. */
  year?: string;
}

const TOKEN =
  /\p{Lu}\.(?:\p{Lu}\.)+|\p{Lu}\.(?=\s\p{Lu})|\p{N}+(?:[.,]\p{N}+)*|[\p{L}\p{N}]+(?:['’\-](?!s\b)[\p{L}\p{N}]+)*|\S/gu;

export const MONTHS: ReadonlyMap<string, number> = new Map(
  [
    'january',
    'february',
    'march',
    'april',
    'may',
    'june',
    'july',
    'august',
    'september',
    'october',
    'november',
    'december',
  ].map((m, i) => [m, i + 1] as [string, number]),
);

const NUMBER_WORDS: ReadonlySet<string> = new Set(
  'two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty hundred thousand'.split(
    ' ',
  ),
);

const SCALE_WORDS: ReadonlySet<string> = new Set(['million', 'billion', 'thousand', 'hundred', 'percent', '%']);

const CONNECTORS: ReadonlySet<string> = new Set([
  'of',
  'the',
  'de',
  'la',
  'le',
  'von',
  'van',
  'der',
  'du',
  'da',
  'del',
  'and',
  '&',
  'y',
  'on',
  'for',
  'upon',
]);

const YEAR = /^(1[0-9]|20)\d\d$/;

/** Nationality adjectives stripped from the front of a capitalised span. */
const DEMONYM_WORDS: ReadonlySet<string> = new Set(
  'american british english scottish welsh irish french german italian canadian australian japanese chinese indian russian spanish mexican swedish norwegian danish dutch belgian swiss austrian polish korean brazilian greek turkish'.split(
    ' ',
  ),
);

export function tokenize(sentence: string): Token[] {
  const out: Token[] = [];
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(sentence); m !== null; m = TOKEN.exec(sentence)) {
    const text = m[0];
    const c = text.codePointAt(0) ?? 0;
    const ch = String.fromCodePoint(c);
    const isLetter = /\p{L}/u.test(ch);
    const cap = isLetter && ch !== ch.toLowerCase();
    const num = /^\p{N}/u.test(text);
    const lower = text.toLowerCase();
    out.push({ text, start: m.index, end: m.index + text.length, key: keyOf(text), lower, cap, num });
  }
  return out;
}

function isYearToken(t: Token): boolean {
  return t.num && YEAR.test(t.text);
}

function isCapToken(t: Token): boolean {
  return t.cap && !MONTHS.has(t.lower);
}

export function extractSpans(sentence: string, tokens: Token[]): Span[] {
  const spans: Span[] = [];
  const n = tokens.length;
  const textOf = (a: number, b: number): string => sentence.slice(tokens[a].start, tokens[b - 1].end);

  // Capitalised spans, allowing lowercase connectors and numbers inside ("University of Kansas", "Apollo 11").
  let i = 0;
  while (i < n) {
    if (!isCapToken(tokens[i])) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < n) {
      const t = tokens[j];
      if (isCapToken(t) || (t.num && !isYearToken(t) && j > i)) j++;
      else if (CONNECTORS.has(t.lower) && j + 1 < n && isCapToken(tokens[j + 1]) && j + 1 - i < 8) j += 2;
      else break;
    }
    let a = i;
    // Leading stop words and a leading nationality ("The", "American Las Vegas Sands").
    while (
      a < j &&
      (STOP_WORDS.has(tokens[a].lower) ||
        CONNECTORS.has(tokens[a].lower) ||
        (a + 1 < j && DEMONYM_WORDS.has(tokens[a].lower)))
    )
      a++;
    let b = j;
    while (b > a && CONNECTORS.has(tokens[b - 1].lower)) b--;
    if (b > a && b - a <= 8) spans.push({ text: textOf(a, b), from: a, to: b, kind: 'cap' });
    // Parts of a span joined by "and" are candidates too ("Cameroon and Nigeria").
    let partStart = a;
    for (let k = a; k <= b; k++) {
      if (k === b || tokens[k].lower === 'and' || tokens[k].text === '&') {
        if (partStart > a || k < b) {
          if (k > partStart) spans.push({ text: textOf(partStart, k), from: partStart, to: k, kind: 'cap' });
        }
        partStart = k + 1;
      }
    }
    // A "City, State" pair is also a candidate.
    if (b > a && j + 1 < n && tokens[j].text === ',' && isCapToken(tokens[j + 1])) {
      let k = j + 1;
      while (k < n && isCapToken(tokens[k]) && k - j < 4) k++;
      if (k - a <= 8) spans.push({ text: textOf(a, k), from: a, to: k, kind: 'cap' });
    }
    i = j;
  }

  // Numbers, years and dates.
  for (let k = 0; k < n; k++) {
    const t = tokens[k];
    if (MONTHS.has(t.lower) && t.cap) {
      // Month D, YYYY | Month YYYY
      if (k + 3 < n && tokens[k + 1].num && tokens[k + 2].text === ',' && isYearToken(tokens[k + 3])) {
        spans.push({ text: textOf(k, k + 4), from: k, to: k + 4, kind: 'date', year: tokens[k + 3].text });
      } else if (k + 2 < n && tokens[k + 1].num && Number(tokens[k + 1].text) <= 31 && isYearToken(tokens[k + 2])) {
        spans.push({ text: textOf(k, k + 3), from: k, to: k + 3, kind: 'date', year: tokens[k + 2].text });
      } else if (k + 1 < n && isYearToken(tokens[k + 1])) {
        const from = k > 0 && tokens[k - 1].num && Number(tokens[k - 1].text) <= 31 ? k - 1 : k;
        spans.push({ text: textOf(from, k + 2), from, to: k + 2, kind: 'date', year: tokens[k + 1].text });
      } else if (k > 0 && tokens[k - 1].num && Number(tokens[k - 1].text) <= 31) {
        spans.push({ text: textOf(k - 1, k + 1), from: k - 1, to: k + 1, kind: 'date' });
      } else if (k + 1 < n && tokens[k + 1].num && Number(tokens[k + 1].text) <= 31) {
        spans.push({ text: textOf(k, k + 2), from: k, to: k + 2, kind: 'date' });
      }
      continue;
    }
    if (!t.num) {
      if (NUMBER_WORDS.has(t.lower)) spans.push({ text: t.text, from: k, to: k + 1, kind: 'numword' });
      continue;
    }
    if (isYearToken(t)) {
      spans.push({ text: t.text, from: k, to: k + 1, kind: 'year', year: t.text });
      continue;
    }
    let to = k + 1;
    if (to < n && SCALE_WORDS.has(tokens[to].lower)) to++;
    spans.push({ text: textOf(k, to), from: k, to, kind: 'num' });
  }

  // Quoted titles.
  for (let k = 0; k < n; k++) {
    const open = tokens[k].text;
    if (open !== '"' && open !== '“') continue;
    const close = open === '"' ? '"' : '”';
    let e = k + 1;
    while (e < n && tokens[e].text !== close && e - k <= 12) e++;
    if (e < n && tokens[e].text === close && e > k + 1 && e - k <= 12) {
      let b = e;
      while (b > k + 1 && (tokens[b - 1].text === ',' || tokens[b - 1].text === '.')) b--;
      const inner = textOf(k + 1, b);
      if (b > k + 1 && /^[\p{L}\p{N}]/u.test(inner)) spans.push({ text: inner, from: k + 1, to: b, kind: 'quote' });
      k = e;
    }
  }
  return spans;
}
