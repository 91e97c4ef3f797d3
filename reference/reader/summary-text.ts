// Sentence splitting for summaries: one linear pass that turns LongBench's "NEWLINE_CHAR" markers into line
// breaks, treats `Passage {i}:` / `Document {i}:` lines as document boundaries (multi_news puts a whole passage on
// the line after its header, so the header is not followed by a title here), and cuts sentences at line breaks and
// at sentence terminators. A chunk can end mid-sentence: the unfinished tail is returned for the next section.

import { ABBREVIATIONS, isDigit, isSpace, isUpper } from './text.js';

export interface SumSentence {
  /** `Passage 3` style document label, or null for text outside any labelled document. */
  title: string | null;
  /** Sentence number inside its document (counts every sentence, kept or not). */
  idx: number;
  /** The sentence with its whitespace collapsed. */
  text: string;
}

export interface SumSplit {
  sents: SumSentence[];
  /** Unfinished tail (text after the last sentence end) and the document it belongs to; null when `final`. */
  carry: { title: string | null; next: number; fragment: string } | null;
}

const HEADER = /^(Passage|Document) (\d+):$/;

/** LongBench multi_news writes paragraph breaks as the token NEWLINE_CHAR. */
export function cleanSummaryText(text: string): string {
  return text.indexOf('NEWLINE_CHAR') < 0 ? text : text.replace(/[ \t]*NEWLINE_CHAR[ \t]*/g, '\n');
}

/** If the terminator at i ends a sentence, the index just past it (and closing quotes/brackets); otherwise -1. */
function sentenceEnd(text: string, i: number, lineEnd: number): number {
  let j = i + 1;
  while (j < lineEnd) {
    const c = text.charCodeAt(j);
    if (c === 34 || c === 39 || c === 41 || c === 93 || c === 0x201d || c === 0x2019) j++;
    else break;
  }
  if (j === lineEnd) return j;
  if (!isSpace(text.charCodeAt(j))) {
    // Paragraphs glued without a space ("as many.The fact"): a lowercase word, then a capitalised one.
    const glued = j === i + 1 && i >= 2 && isLower(text.charCodeAt(i - 1)) && isLower(text.charCodeAt(i - 2));
    return glued && j + 1 < lineEnd && isUpper(text.charCodeAt(j)) && isLower(text.charCodeAt(j + 1)) ? j : -1;
  }
  let k = j;
  while (k < lineEnd && isSpace(text.charCodeAt(k))) k++;
  if (k < lineEnd) {
    const c = text.charCodeAt(k);
    if (!(isUpper(c) || isDigit(c) || c === 34 || c === 40 || c === 91 || c === 0x201c || c === 0x2018 || c >= 0x100))
      return -1;
  }
  if (text.charCodeAt(i) === 46) {
    // "J. Smith", "Dr. Jones", "U.S. Army": the word before the period decides.
    let w = i;
    while (w > 0 && isLetter(text.charCodeAt(w - 1))) w--;
    const len = i - w;
    if (len === 1 && isUpper(text.charCodeAt(w))) return -1;
    if (len >= 1 && len <= 5 && ABBREVIATIONS.has(text.slice(w, i).toLowerCase())) return -1;
  }
  return j;
}

/**
 * The next line break that ends a sentence, or -1: hard-wrapped prose continues on a line that starts with a
 * lowercase letter, so such a break is not one (it becomes a space when the sentence is collapsed).
 */
function nextBreak(text: string, from: number): number {
  let at = text.indexOf('\n', from);
  while (at >= 0) {
    let k = at + 1;
    while (k < text.length && (text.charCodeAt(k) === 32 || text.charCodeAt(k) === 9)) k++;
    const c = k < text.length ? text.charCodeAt(k) : 0;
    if (!(c >= 97 && c <= 122)) return at;
    at = text.indexOf('\n', k);
  }
  return -1;
}

function isLower(c: number): boolean {
  return c >= 97 && c <= 122;
}

function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 46;
}

function collapse(s: string): string {
  const t = s.trim();
  return t.includes('\n') || t.includes('  ') || t.includes('\t') || t.includes('\r') ? t.replace(/\s+/g, ' ') : t;
}

/**
 * Splits `raw` (already prefixed with the previous section's unfinished tail) into sentences. `open` is the
 * document the text begins inside. With `final`, the tail counts as a complete sentence.
 */
export function splitSummary(raw: string, open: { title: string | null; next: number }, final: boolean): SumSplit {
  const text = cleanSummaryText(raw);
  const sents: SumSentence[] = [];
  let title = open.title;
  let idx = open.next;
  let tailStart = text.length;
  let pos = 0;
  const emit = (a: number, b: number): void => {
    const s = collapse(text.slice(a, b));
    if (s.length === 0) return;
    sents.push({ title, idx, text: s });
    idx++;
  };
  while (pos < text.length) {
    let lineEnd = nextBreak(text, pos);
    const lastLine = lineEnd < 0;
    if (lastLine) lineEnd = text.length;
    const header = lineEnd - pos <= 20 ? HEADER.exec(text.slice(pos, lineEnd).trim()) : null;
    if (header !== null && !(lastLine && !final)) {
      title = `${header[1]} ${header[2]}`;
      idx = 0;
      pos = lineEnd + 1;
      continue;
    }
    let start = pos;
    for (let i = pos; i < lineEnd; i++) {
      const c = text.charCodeAt(i);
      if (c !== 46 && c !== 33 && c !== 63) continue;
      const end = sentenceEnd(text, i, lineEnd);
      if (end < 0 || (end === lineEnd && lastLine && !final)) continue;
      emit(start, end);
      start = end;
      i = end - 1;
    }
    if (lastLine) {
      if (final) emit(start, lineEnd);
      else tailStart = start;
      break;
    }
    emit(start, lineEnd);
    pos = lineEnd + 1;
  }
  if (final) return { sents, carry: null };
  let tail = tailStart;
  while (tail < text.length && isSpace(text.charCodeAt(tail))) tail++;
  return { sents, carry: { title, next: idx, fragment: text.slice(tail) } };
}
