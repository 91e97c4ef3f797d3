// The scanner's first half: split a range of text into sentences and the ids of their words' keys. Scoring the
// lexed range against a question is then a pass over small integers (scan.ts). Word ids come from one of two
// sources: the question's own term table (text read once: the id is the term, or -1), or this thread's vocabulary
// of every key seen (text lexed once for every question). The documents of a long haystack recur from sample to
// sample (RULER-HQA draws them from one pool), so a document body that lies whole inside a section is lexed once
// against the vocabulary and kept by its title (lexedBody): the reader reads its prompt's text as before, it just
// does not split the same text twice.

import type { KeyTable } from './question.js';
import {
  ABBREVIATIONS,
  CHAR_CLASS,
  detached,
  heavyChars,
  isDigit,
  isSpace,
  isUpper,
  isWideWordChar,
  keyEnd,
} from './text.js';

/**
 * A lexed range, packed in one array: [sentences, tailStart, then per sentence: start, end, words, heavy, then the
 * sentences' word ids in order]. Offsets are relative to the range's start; start/end are trimmed of spaces; heavy
 * counts the sentence's digits and non-ASCII characters (what estimateTokens weighs as a token each).
 */
export type Lexed = Int32Array;

export const lexedSentences = (l: Lexed): number => l[0];
export const lexedTailStart = (l: Lexed): number => l[1];
/** Fields per sentence. */
export const SENTENCE_FIELDS = 4;
/** Index in l of the first word id (sentence k's fields are at 2 + SENTENCE_FIELDS * k). */
export const lexedWordsAt = (l: Lexed): number => 2 + SENTENCE_FIELDS * l[0];

/** Distinct word keys of this thread, each with a small integer id; emptied (with every lexed body) when full. */
class Vocab {
  keys: string[] = [];
  private slots = new Int32Array(1 << 16);
  private mask = (1 << 16) - 1;
  /** Bumped on every reset, so per-question tables built over old ids are rebuilt. */
  epoch = 0;

  /** Id of the key of the word lower[a..b) (keyEnd applied), added on first sight. */
  idOf(lower: string, a: number, b: number): number {
    return this.idOfRange(lower, a, keyEnd(lower, a, b));
  }

  /** Id of a string that already is a key (keyEnd is not applied again: it is not idempotent). */
  idOfKey(key: string): number {
    return this.idOfRange(key, 0, key.length);
  }

  private idOfRange(s: string, a: number, end: number): number {
    const len = end - a;
    let h = hashRange(s, a, end) & this.mask;
    for (;;) {
      const v = this.slots[h];
      if (v === 0) break;
      const k = this.keys[v - 1];
      if (k.length === len && sameAt(k, s, a)) return v - 1;
      h = (h + 1) & this.mask;
    }
    return this.add(detached(s.slice(a, end)), h);
  }

  private add(key: string, slot: number): number {
    this.keys.push(key);
    this.slots[slot] = this.keys.length;
    if (this.keys.length * 2 > this.slots.length) this.grow();
    return this.keys.length - 1;
  }

  private grow(): void {
    const size = this.slots.length * 2;
    this.slots = new Int32Array(size);
    this.mask = size - 1;
    this.keys.forEach((k, i) => {
      let h = hashRange(k, 0, k.length) & this.mask;
      while (this.slots[h] !== 0) h = (h + 1) & this.mask;
      this.slots[h] = i + 1;
    });
  }

  reset(): void {
    this.keys = [];
    this.slots = new Int32Array(1 << 16);
    this.mask = (1 << 16) - 1;
    this.epoch++;
  }
}

function sameAt(key: string, s: string, a: number): boolean {
  for (let i = 0; i < key.length; i++) if (key.charCodeAt(i) !== s.charCodeAt(a + i)) return false;
  return true;
}

export function hashRange(s: string, a: number, b: number): number {
  let h = 2166136261;
  for (let i = a; i < b; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return (h ^ (h >>> 15)) >>> 0;
}

export const vocab = new Vocab();

/** More distinct keys than this empties the vocabulary and the lexed bodies (a guard for endless inputs). */
const VOCAB_MAX = 1 << 21;

let ints = new Int32Array(4096);
function push(n: number, v: number): number {
  if (n === ints.length) {
    const bigger = new Int32Array(ints.length * 2);
    bigger.set(ints);
    ints = bigger;
  }
  ints[n] = v;
  return n + 1;
}

/**
 * Lexes text[a..b) (lower: its index-aligned lowercase). With split, one sentence per boundary; without, the whole
 * range is one sentence. With closeTail the unfinished last sentence counts; otherwise tailStart marks where it
 * begins (the range's end when it holds no word). Sentences without a word are dropped. Word ids: the question's
 * term indices (-1 for other words) with `terms`, else vocabulary ids.
 */
export function lexRange(
  text: string,
  lower: string,
  a: number,
  b: number,
  split: boolean,
  closeTail: boolean,
  terms: KeyTable | null,
): Lexed {
  const sents: number[] = [];
  let nWords = 0;
  let sStart = a;
  let sWords = 0;
  let lwStart = -1;
  let lwEnd = -1;
  const close = (end: number, next: number): void => {
    if (sWords > 0) {
      let x = sStart;
      while (x < end && isSpace(text.charCodeAt(x))) x++;
      let y = end;
      while (y > x && isSpace(text.charCodeAt(y - 1))) y--;
      sents.push(x - a, y - a, sWords, heavyChars(text, x, y));
    }
    sStart = next;
    sWords = 0;
  };
  let i = a;
  while (i < b) {
    const c = text.charCodeAt(i);
    const cls = c < 128 ? CHAR_CLASS[c] : isWideWordChar(c) ? 1 : 0;
    if (cls === 1) {
      const ws = i;
      i++;
      while (i < b) {
        const c2 = text.charCodeAt(i);
        if (c2 < 128 ? CHAR_CLASS[c2] === 1 : isWideWordChar(c2)) i++;
        else if (
          (c2 === 44 || c2 === 46) &&
          i + 1 < b &&
          isDigit(text.charCodeAt(i + 1)) &&
          isDigit(text.charCodeAt(i - 1))
        )
          i++;
        else break;
      }
      sWords++;
      lwStart = ws;
      lwEnd = i;
      nWords = push(nWords, terms !== null ? terms.lookup(lower, ws, i) : vocab.idOf(lower, ws, i));
      continue;
    }
    if (split) {
      if (cls === 3) {
        close(i, i + 1);
      } else if (cls === 2) {
        const end = boundaryEnd(text, lower, i, b, lwStart, lwEnd);
        if (end >= 0) {
          close(end, end);
          i = end;
          continue;
        }
      }
    }
    i++;
  }
  let tailStart = b;
  if (!split || closeTail) close(b, b);
  else if (sWords > 0) tailStart = sStart;
  // Words of an unfinished tail are not part of any sentence.
  let used = 0;
  for (let k = 2; k < sents.length; k += SENTENCE_FIELDS) used += sents[k];
  const out = new Int32Array(2 + sents.length + used);
  out[0] = sents.length / SENTENCE_FIELDS;
  out[1] = tailStart - a;
  out.set(sents, 2);
  out.set(ints.subarray(0, used), 2 + sents.length);
  return out;
}


/** If the terminator at i ends a sentence, the index just past it (and any closing quotes); otherwise -1. */
function boundaryEnd(text: string, lower: string, i: number, b: number, lwStart: number, lwEnd: number): number {
  let j = i + 1;
  while (j < b) {
    const c = text.charCodeAt(j);
    if (c === 34 || c === 39 || c === 41 || c === 93 || c === 0x201d || c === 0x2019) j++;
    else break;
  }
  if (j === b) return j;
  if (!isSpace(text.charCodeAt(j))) return -1;
  let k = j;
  while (k < b && (text.charCodeAt(k) === 32 || text.charCodeAt(k) === 9)) k++;
  if (k < b) {
    const c = text.charCodeAt(k);
    if (!(isUpper(c) || isDigit(c) || c === 34 || c === 40 || c === 91 || c === 10 || c === 0x201c || c >= 0x100))
      return -1;
  }
  if (text.charCodeAt(i) === 46 && lwEnd === i && lwStart >= 0) {
    if (lwEnd - lwStart === 1 && isUpper(text.charCodeAt(lwStart))) return -1;
    if (lwEnd - lwStart <= 5 && ABBREVIATIONS.has(lower.slice(lwStart, lwEnd))) return -1;
  }
  return j;
}

/** A lexed body under its title; `next`: another body under the same title. */
interface BodyEntry {
  body: string;
  lexed: Lexed;
  next: BodyEntry | undefined;
}

/** Lexed document bodies by title (a title may head several bodies), bounded by the bytes they hold (two per
 *  character, as a two-byte string takes; a worker's heap is capped, harness/runner/worker-pool.ts). */
const bodies = new Map<string, BodyEntry>();
let bodiesSize = 0;
const BODIES_MAX_BYTES = 48 << 20;

/**
 * The lexed form (vocabulary ids) of a complete document body text[a..b) under its title, split into sentences
 * and its tail closed, from the cache when the same body text was lexed before.
 */
export function lexedBody(title: string, text: string, lower: string, a: number, b: number): Lexed {
  const first = bodies.get(title);
  if (first !== undefined) {
    // slice + === compares natively, several times faster than startsWith(body, a) in V8.
    const body = text.slice(a, b);
    for (let k: BodyEntry | undefined = first; k !== undefined; k = k.next) if (k.body === body) return k.lexed;
  }
  if (vocab.keys.length > VOCAB_MAX) resetLexCaches();
  const lexed = lexRange(text, lower, a, b, true, true, null);
  const size = 2 * (b - a + title.length) + lexed.length * 4 + 160;
  if (bodiesSize + size > BODIES_MAX_BYTES) {
    bodies.clear();
    bodiesSize = 0;
  }
  // Copies, not slices: a slice would keep the whole prompt alive.
  const head = bodies.get(title);
  bodies.set(head === undefined ? detached(title) : title, { body: detached(text.slice(a, b)), lexed, next: head });
  bodiesSize += size;
  return lexed;
}

export function resetLexCaches(): void {
  vocab.reset();
  bodies.clear();
  bodiesSize = 0;
}
