// The hot path: one linear pass over a section that finds `Document {i}:` / `Passage {i}:` headers, splits
// sentences and scores each one against the question. A sentence's score depends only on the question, its own
// words, its document title and its position in the document, so scores are comparable across chunks.

import type { QuestionInfo } from './question.js';
import { ABBREVIATIONS, CHAR_CLASS, coreTitle, detached, isDigit, isSpace, isUpper, isWideWordChar } from './text.js';

/** Weight of a question term found only in the sentence's document title, relative to finding it in the sentence. */
const TITLE_TERM_FACTOR = 0.5;
/** Bonus per question word pair found adjacent (stop words between are ignored). */
const PAIR_BONUS = 0.75;
/** Bonus for every sentence of a document whose title is named in the question. */
const TITLE_IN_QUESTION_BONUS = 1.5;
/** Small bonus for a paragraph's first sentence (too large crowds the memory with distractor leads). */
const LEAD_BONUS = 0.3;

export interface DocInfo {
  /** Document title, or null for text outside any titled document. */
  readonly title: string | null;
  /** Question term indices present in the title. */
  readonly titleTerms: number[];
  readonly titleBonus: number;
}

export interface ScannedSentence {
  doc: number;
  idx: number;
  start: number;
  end: number;
  base: number;
}

export interface OpenDoc {
  title: string | null;
  next: number;
}

export interface ScanResult {
  readonly text: string;
  readonly lower: string;
  readonly docs: DocInfo[];
  readonly sents: ScannedSentence[];
  /** Unfinished tail of the text (to be prefixed to the next section), with the document it belongs to. */
  readonly carry: { title: string | null; next: number; fragment: string } | null;
}

interface Header {
  start: number;
  bodyStart: number;
  title: string;
}

const HEADER_WORDS = ['Document ', 'Passage '];

/** Headers `Document {i}:\n{title}\n` at line starts. `incompleteAt` marks a header cut by the end of the text. */
function findHeaders(text: string): { headers: Header[]; incompleteAt: number } {
  const headers: Header[] = [];
  let incompleteAt = -1;
  for (const word of HEADER_WORDS) {
    let from = 0;
    for (;;) {
      const at = text.indexOf(word, from);
      if (at < 0) break;
      from = at + word.length;
      if (at > 0 && text.charCodeAt(at - 1) !== 10) continue;
      let j = at + word.length;
      const digitsStart = j;
      while (j < text.length && isDigit(text.charCodeAt(j))) j++;
      if (j === text.length) {
        incompleteAt = Math.max(incompleteAt, at);
        break;
      }
      if (j === digitsStart || text.charCodeAt(j) !== 58) continue;
      j++;
      if (j === text.length) {
        incompleteAt = Math.max(incompleteAt, at);
        break;
      }
      if (text.charCodeAt(j) !== 10) continue;
      const titleEnd = text.indexOf('\n', j + 1);
      if (titleEnd < 0) {
        incompleteAt = Math.max(incompleteAt, at);
        break;
      }
      headers.push({ start: at, bodyStart: titleEnd + 1, title: text.slice(j + 1, titleEnd).trim() });
    }
  }
  if (headers.length > 1) headers.sort((x, y) => x.start - y.start);
  // A partial header word at the very end ("...\n\nDocu") is also unfinished.
  if (incompleteAt < 0) {
    const nl = text.lastIndexOf('\n');
    if (nl >= 0 && nl >= text.length - 16) {
      const tail = text.slice(nl + 1);
      if (
        tail.length > 0 &&
        HEADER_WORDS.some((w) => w.startsWith(tail) || (tail.startsWith(w) && /^\w+ \d*:?$/.test(tail)))
      ) {
        incompleteAt = nl + 1;
      }
    }
  }
  return { headers, incompleteAt };
}

/** Per-call scoring state: a stamp array marks which terms a sentence has already counted. */
class Scorer {
  readonly seen: Int32Array;
  stamp = 0;
  constructor(readonly q: QuestionInfo) {
    this.seen = new Int32Array(q.nTerms);
  }

  docInfo(title: string | null): DocInfo {
    if (title === null || title.length === 0) return { title, titleTerms: [], titleBonus: 0 };
    const lower = title.toLowerCase();
    const terms: number[] = [];
    const q = this.q;
    const paren = lower.indexOf(' (');
    const coreEnd = paren > 0 ? paren : lower.length;
    // The core title can only be inside the question when every core word is a question word.
    let coreInQuestion = true;
    let i = 0;
    while (i < lower.length) {
      if (!isWordAt(lower, i)) {
        i++;
        continue;
      }
      const s = i;
      while (i < lower.length && isWordAt(lower, i)) i++;
      const t = q.table.lookup(lower, s, i);
      if (t < 0 && s < coreEnd) coreInQuestion = false;
      if (t >= 0 && q.isStop[t] === 0 && !terms.includes(t)) terms.push(t);
    }
    let bonus = 0;
    if (coreInQuestion) {
      const spacedCore = ` ${coreTitle(lower)
        .replace(/[^\p{L}\p{N}]+/gu, ' ')
        .trim()} `;
      if (spacedCore.length > 3 && q.spaced.includes(spacedCore)) bonus = TITLE_IN_QUESTION_BONUS;
    }
    return { title, titleTerms: terms, titleBonus: bonus };
  }

  /**
   * Scans text[a..b) (lower is its lowercase twin, index-aligned). With split, emits one sentence per boundary;
   * without, the whole range is one sentence. Returns the start of the unfinished tail (b when none).
   */
  scan(
    text: string,
    lower: string,
    a: number,
    b: number,
    docIdx: number,
    doc: DocInfo,
    idx0: number,
    split: boolean,
    closeTail: boolean,
    out: ScannedSentence[],
  ): { tailStart: number; nextIdx: number } {
    const q = this.q;
    const table = q.table;
    const weight = q.weight;
    const isStop = q.isStop;
    const pairs = q.pairs;
    const n = q.nTerms;
    const seen = this.seen;
    let stamp = ++this.stamp;
    let idx = idx0;
    let sStart = a;
    let words = 0;
    let score = 0;
    let pairScore = 0;
    let prev = -1;
    let lwStart = -1;
    let lwEnd = -1;

    const close = (end: number, next: number): void => {
      if (words > 0) {
        let s = score + pairScore + doc.titleBonus + (idx === 0 ? LEAD_BONUS : 0);
        for (const t of doc.titleTerms) if (seen[t] !== stamp) s += TITLE_TERM_FACTOR * weight[t];
        let x = sStart;
        while (x < end && isSpace(text.charCodeAt(x))) x++;
        let y = end;
        while (y > x && isSpace(text.charCodeAt(y - 1))) y--;
        out.push({ doc: docIdx, idx, start: x, end: y, base: s });
        idx++;
      }
      sStart = next;
      words = 0;
      score = 0;
      pairScore = 0;
      prev = -1;
      stamp = ++this.stamp;
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
        words++;
        lwStart = ws;
        lwEnd = i;
        const t = table.lookup(lower, ws, i);
        if (t < 0) prev = -1;
        else if (isStop[t] === 0) {
          if (seen[t] !== stamp) {
            seen[t] = stamp;
            score += weight[t];
          }
          if (prev >= 0 && pairs.has(prev * n + t)) pairScore += PAIR_BONUS;
          prev = t;
        }
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
    if (!split || closeTail) {
      close(b, b);
      return { tailStart: b, nextIdx: idx };
    }
    if (words === 0) return { tailStart: b, nextIdx: idx };
    return { tailStart: sStart, nextIdx: idx };
  }
}

function isWordAt(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c < 128 ? CHAR_CLASS[c] === 1 : isWideWordChar(c);
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

function lowerAligned(text: string): string {
  const lower = text.toLowerCase();
  if (lower.length === text.length) return lower;
  // Rare characters whose lowercase form has another length: lowercase char by char to keep indices aligned.
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const l = text[i].toLowerCase();
    out += l.length === 1 ? l : text[i];
  }
  return out;
}

/**
 * Splits `text` into documents and sentences and scores every sentence. `open` is the document the text begins
 * inside (from the previous section). With `final`, the text's tail counts as a complete sentence.
 */
export function scanText(q: QuestionInfo, text: string, open: OpenDoc, final: boolean): ScanResult {
  const lower = lowerAligned(text);
  const scorer = new Scorer(q);
  const { headers, incompleteAt } = findHeaders(text);
  const end = !final && incompleteAt >= 0 ? incompleteAt : text.length;
  const docs: DocInfo[] = [scorer.docInfo(open.title)];
  const sents: ScannedSentence[] = [];
  let tail = { tailStart: end, nextIdx: open.next };
  let curDoc = 0;
  let segStart = 0;
  let segIdx = open.next;
  let h = 0;
  for (;;) {
    const next = h < headers.length && headers[h].start < end ? headers[h] : null;
    const segEnd = next === null ? end : next.start;
    const last = next === null;
    tail = scorer.scan(text, lower, segStart, segEnd, curDoc, docs[curDoc], segIdx, true, !last || final, sents);
    if (next === null) break;
    docs.push(scorer.docInfo(next.title));
    curDoc = docs.length - 1;
    segStart = next.bodyStart;
    segIdx = 0;
    h++;
  }
  let carry: ScanResult['carry'] = null;
  const tailStart = tail.tailStart < end ? tail.tailStart : end;
  if (!final && tailStart < text.length) {
    carry = { title: docs[curDoc].title, next: tail.nextIdx, fragment: text.slice(tailStart) };
  } else if (!final) {
    carry = { title: docs[curDoc].title, next: tail.nextIdx, fragment: '' };
  }
  return { text, lower, docs, sents, carry };
}

/** Line scores memoised per question (a memory holds some 30-60 lines; questionInfo keeps 64 questions). */
const STORED_SCORES_MAX = 512;

/**
 * Scores memory lines with a shared per-call state and per-title document info. A line's score depends only on the
 * question, its title, its index and its text, so scores are memoised for the question's life (storedScorer).
 */
export class StoredScorer {
  private readonly scorer: Scorer;
  private readonly docs = new Map<string, DocInfo>();
  private readonly out: ScannedSentence[] = [];
  private readonly scores = new Map<string, number>();
  constructor(q: QuestionInfo) {
    this.scorer = new Scorer(q);
  }
  doc(title: string | null): DocInfo {
    const k = title ?? '';
    let d = this.docs.get(k);
    if (d === undefined) {
      // Kept across updates: keep copies, not slices of this update's prompt (see detached).
      d = this.scorer.docInfo(title === null ? null : detached(title));
      if (this.docs.size >= STORED_SCORES_MAX) this.docs.clear();
      this.docs.set(d.title ?? '', d);
    }
    return d;
  }
  score(title: string | null, idx: number, sentence: string): number {
    const key = detached(`${title ?? '\u0002'}\u0001${idx}\u0001${sentence}`);
    let s = this.scores.get(key);
    if (s === undefined) {
      s = this.fresh(title, idx, sentence);
      if (this.scores.size >= STORED_SCORES_MAX) this.scores.clear();
      this.scores.set(key, s);
    }
    return s;
  }

  private fresh(title: string | null, idx: number, sentence: string): number {
    this.out.length = 0;
    this.scorer.scan(
      sentence,
      lowerAligned(sentence),
      0,
      sentence.length,
      0,
      this.doc(title),
      idx,
      false,
      true,
      this.out,
    );
    return this.out.length > 0 ? this.out[0].base : 0;
  }
}

const storedScorers = new WeakMap<QuestionInfo, StoredScorer>();

/** The question's StoredScorer, made on first use and kept as long as the question info is. */
export function storedScorer(q: QuestionInfo): StoredScorer {
  let scorer = storedScorers.get(q);
  if (scorer === undefined) {
    scorer = new StoredScorer(q);
    storedScorers.set(q, scorer);
  }
  return scorer;
}
