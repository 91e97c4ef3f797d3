// The hot path: one pass over a section that finds `Document {i}:` / `Passage {i}:` headers, splits sentences
// (lex.ts: whole document bodies are split once per thread) and scores each one against the question. A sentence's score depends only on the question, its own
// words, its document title and its position in the document, so scores are comparable across chunks.

import type { QuestionInfo } from './question.js';
import {
  type Lexed,
  SENTENCE_FIELDS,
  lexRange,
  lexedBody,
  lexedSentences,
  lexedTailStart,
  lexedWordsAt,
  vocab,
} from './lex.js';
import { CHAR_CLASS, coreTitle, detached, heavyChars, isDigit, isWideWordChar, lowerUnitByUnit } from './text.js';

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
  /** The title lowercased (toLowerCase), or null. */
  readonly lower: string | null;
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
  /** Digits and non-ASCII characters in text[start..end) (lex.ts). */
  heavy: number;
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
  /** Where the (trimmed) title begins in the text. */
  titleAt: number;
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
      const line = text.slice(j + 1, titleEnd);
      const title = line.trim();
      const titleAt = j + 1 + (title.length === line.length ? 0 : line.length - line.trimStart().length);
      headers.push({ start: at, bodyStart: titleEnd + 1, title, titleAt });
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

  /** `lower`, when given, is title.toLowerCase() (e.g. a slice of the lowercased text the title came from). */
  docInfo(title: string | null, lower?: string): DocInfo {
    if (title === null || title.length === 0) return { title, lower: title, titleTerms: [], titleBonus: 0 };
    lower ??= title.toLowerCase();
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
    return { title, lower, titleTerms: terms, titleBonus: bonus };
  }

  /**
   * Scores a lexed range that starts at text offset `at` (lex.ts) and appends its sentences to out, numbered from
   * idx0; returns the next sentence number. byVocab: its word ids are vocabulary ids, else the question's terms.
   */
  score(
    lexed: Lexed,
    byVocab: boolean,
    at: number,
    docIdx: number,
    doc: DocInfo,
    idx0: number,
    out: ScannedSentence[],
  ): number {
    const q = this.q;
    const terms = byVocab ? termsById(q) : null;
    const weight = q.weight;
    const isStop = q.isStop;
    const pairs = q.pairs;
    const n = q.nTerms;
    const seen = this.seen;
    const sentences = lexedSentences(lexed);
    let w = lexedWordsAt(lexed);
    let idx = idx0;
    for (let k = 0; k < sentences; k++) {
      const f = 2 + SENTENCE_FIELDS * k;
      const stamp = ++this.stamp;
      let score = 0;
      let pairScore = 0;
      let prev = -1;
      for (const wEnd = w + lexed[f + 2]; w < wEnd; w++) {
        const t = terms === null ? lexed[w] : terms.get(lexed[w]);
        if (t < 0) prev = -1;
        else if (isStop[t] === 0) {
          if (seen[t] !== stamp) {
            seen[t] = stamp;
            score += weight[t];
          }
          if (prev >= 0 && pairs.has(prev * n + t)) pairScore += PAIR_BONUS;
          prev = t;
        }
      }
      let s = score + pairScore + doc.titleBonus + (idx === 0 ? LEAD_BONUS : 0);
      for (const t of doc.titleTerms) if (seen[t] !== stamp) s += TITLE_TERM_FACTOR * weight[t];
      out.push({ doc: docIdx, idx, start: at + lexed[f], end: at + lexed[f + 1], base: s, heavy: lexed[f + 3] });
      idx++;
    }
    return idx;
  }
}

/** A question's term indices by vocabulary id (lex.ts), as a small open-addressing table. */
class TermsById {
  readonly epoch = vocab.epoch;
  private readonly ids: Int32Array;
  private readonly terms: Int32Array;
  private readonly mask: number;
  /** One bit per vocabulary id up to the largest term's: most words of a text are no term, and a bit says so. */
  private readonly bits: Int32Array;
  constructor(q: QuestionInfo) {
    let size = 64;
    while (size < q.termIndex.size * 4) size <<= 1;
    this.ids = new Int32Array(size).fill(-1);
    this.terms = new Int32Array(size);
    this.mask = size - 1;
    for (const [key, t] of q.termIndex) {
      const id = vocab.idOfKey(key);
      let h = this.slot(id);
      while (this.ids[h] !== -1 && this.ids[h] !== id) h = (h + 1) & this.mask;
      this.ids[h] = id;
      this.terms[h] = t;
    }
    this.bits = new Int32Array((Math.max(0, ...this.ids) >>> 5) + 1);
    for (const id of this.ids) if (id >= 0) this.bits[id >>> 5] |= 1 << (id & 31);
  }
  private slot(id: number): number {
    return (Math.imul(id, 0x9e3779b1) >>> 0) & this.mask;
  }
  get(id: number): number {
    const word = id >>> 5;
    if (word >= this.bits.length || ((this.bits[word] >>> (id & 31)) & 1) === 0) return -1;
    let h = this.slot(id);
    for (;;) {
      const v = this.ids[h];
      if (v === id) return this.terms[h];
      if (v === -1) return -1;
      h = (h + 1) & this.mask;
    }
  }
}

const termTables = new WeakMap<QuestionInfo, TermsById>();

function termsById(q: QuestionInfo): TermsById {
  let t = termTables.get(q);
  if (t === undefined || t.epoch !== vocab.epoch) {
    t = new TermsById(q);
    termTables.set(q, t);
  }
  return t;
}

function isWordAt(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c < 128 ? CHAR_CLASS[c] === 1 : isWideWordChar(c);
}

/** The text lowercased, index by index; `whole`: it is text.toLowerCase(), so any part of it is that part's. */
function lowerAligned(text: string): { lower: string; whole: boolean } {
  const lower = text.toLowerCase();
  if (lower.length === text.length) return { lower, whole: true };
  // Rare characters whose lowercase form has another length: lowercase unit by unit to keep indices aligned.
  return { lower: lowerUnitByUnit(text), whole: false };
}

/**
 * Splits `text` into documents and sentences and scores every sentence. `open` is the document the text begins
 * inside (from the previous section). With `final`, the text's tail counts as a complete sentence.
 */
export function scanText(q: QuestionInfo, text: string, open: OpenDoc, final: boolean): ScanResult {
  const { lower, whole } = lowerAligned(text);
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
    const closeTail = !last || final;
    // A whole document body (after its header, before the next) recurs across samples: lexed once (lex.ts).
    const lexed =
      h > 0 && closeTail
        ? lexedBody(docs[curDoc].title ?? '', text, lower, segStart, segEnd)
        : lexRange(text, lower, segStart, segEnd, true, closeTail, q.table);
    tail = {
      nextIdx: scorer.score(lexed, h > 0 && closeTail, segStart, curDoc, docs[curDoc], segIdx, sents),
      tailStart: segStart + lexedTailStart(lexed),
    };
    if (next === null) break;
    // The title's lowercase from the text's: a title lies between line breaks, which no case mapping looks across
    // (Final_Sigma stops at them), so it is the title's own toLowerCase(), without a second call into ICU.
    docs.push(
      scorer.docInfo(next.title, whole ? lower.slice(next.titleAt, next.titleAt + next.title.length) : undefined),
    );
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

/** A memory line's score and what the pool needs of it, computed once per question. */
export interface StoredLine {
  readonly title: string | null;
  readonly idx: number;
  readonly base: number;
  /** Digits and non-ASCII characters of the line (ScannedSentence.heavy). */
  readonly heavy: number;
  /** The line lowercased (toLowerCase). */
  readonly lower: string;
}

/**
 * Scores memory lines with a shared per-call state and per-title document info. A line's score depends only on the
 * question, its title, its index and its text, so scores are memoised for the question's life (storedScorer), found
 * by the line's text (no key string is built per line and update).
 */
export class StoredScorer {
  private readonly scorer: Scorer;
  private readonly docs = new Map<string, DocInfo>();
  private readonly out: ScannedSentence[] = [];
  private readonly lines = new Map<string, StoredLine[]>();
  private size = 0;
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
  /** The line's score, heavy characters and lowercase text. */
  score(title: string | null, idx: number, sentence: string): StoredLine {
    const known = this.lines.get(sentence);
    if (known !== undefined) for (const s of known) if (s.title === title && s.idx === idx) return s;
    // Kept: copies, not slices of this update's prompt.
    const s: StoredLine = {
      title: title === null ? null : detached(title),
      idx,
      base: this.fresh(title, idx, sentence),
      heavy: heavyChars(sentence, 0, sentence.length),
      lower: detached(sentence.toLowerCase()),
    };
    if (this.size >= STORED_SCORES_MAX) {
      this.lines.clear();
      this.size = 0;
    }
    const list = this.lines.get(sentence);
    if (list === undefined) this.lines.set(detached(sentence), [s]);
    else list.push(s);
    this.size++;
    return s;
  }

  private fresh(title: string | null, idx: number, sentence: string): number {
    this.out.length = 0;
    this.scorer.score(
      lexRange(sentence, lowerAligned(sentence).lower, 0, sentence.length, false, true, this.scorer.q.table),
      false,
      0,
      0,
      this.doc(title),
      idx,
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
