// Memory selection: pool the sentences already in memory with the new section's, add second-hop link bonuses,
// and keep the best within the budget (MemAgent's overwrite: the weakest are evicted).

import type { QuestionInfo } from './question.js';
import type { MemoryLine } from './memory.js';
import type { ScanResult } from './scan.js';
import { storedScorer } from './scan.js';
import { coreTitle, estimateTokensWith } from './text.js';

export interface Cand extends MemoryLine {
  base: number;
  final: number;
  /** Position in the pool, the last tie-breaker (memory lines first, then the section in reading order). */
  order: number;
  lowerText: string;
  /** Digits and non-ASCII characters in text, each about a token (estimateTokens). */
  heavy: number;
}

/** A linked document's sentences get this share of the linking document's best score... */
const LINK_FROM_TOP = 0.5;
/** ...and a document that mentions a top document's title gets this share. */
const LINK_TO_TOP = 0.4;
/** Non-lead sentences of a linked document get this fraction of the bonus. */
const LINK_BODY_FACTOR = 0.7;
const TOP_DOCS = 3;
const KEPT_PRIORITY = 1000;
/** The most section sentences materialised per update (the memory holds far fewer lines). */
const SECTION_CANDIDATES = 64;
export const MAX_LINES_PER_DOC = 6;

interface DocAgg {
  title: string;
  coreLower: string;
  best: number;
  inQ: number; // -1 unknown, 0 no, 1 yes
  mem: Cand[];
  /** Whether the section holds the document (sectionAgg names which of its documents). */
  inSection: boolean;
  /** Indices of the document's pooled lines. */
  idxs: number[];
  /** The link bonus its lines get (second hop). */
  bonus: number;
}

function inQuestion(q: QuestionInfo, d: DocAgg): boolean {
  if (d.inQ < 0) {
    const spaced = ` ${d.coreLower.replace(/[^\p{L}\p{N}]+/gu, ' ').trim()} `;
    d.inQ = spaced.length > 3 && q.spaced.includes(spaced) ? 1 : 0;
  }
  return d.inQ === 1;
}

function containsWord(text: string, word: string, from = 0): number {
  let at = from;
  for (;;) {
    at = text.indexOf(word, at);
    if (at < 0) return -1;
    const before = at === 0 ? 32 : text.charCodeAt(at - 1);
    const after = at + word.length >= text.length ? 32 : text.charCodeAt(at + word.length);
    if (!isAlnum(before) && !isAlnum(after)) return at;
    at++;
  }
}

/**
 * The adjacent character pairs of a short text, as stamps in a 64K table (hashed; a collision only lets a search
 * through). A word can be in the text only if each of its pairs is: linking tests some 50 document titles against a
 * top document's two best sentences, and this spares the indexOf of nearly all of them (same answers, fewer searches).
 */
class PairFilter {
  private readonly stamps = new Int32Array(1 << 16);
  private stamp = 0;
  private static slot(a: number, b: number): number {
    return (Math.imul(a, 0x9e37) ^ b) & 0xffff;
  }
  reset(text: string): void {
    // Kept an int32 like the table's entries; after a wrap an old stamp can only let a search through.
    const stamp = (this.stamp = (this.stamp + 1) | 0);
    for (let i = 1; i < text.length; i++)
      this.stamps[PairFilter.slot(text.charCodeAt(i - 1), text.charCodeAt(i))] = stamp;
  }
  /** False when `word` (two characters or more) cannot be in the text last given to reset. */
  mayContain(word: string): boolean {
    const stamp = this.stamp;
    for (let i = 1; i < word.length; i++)
      if (this.stamps[PairFilter.slot(word.charCodeAt(i - 1), word.charCodeAt(i))] !== stamp) return false;
    return true;
  }
}

const pairs = new PairFilter();

/** The lines' lowercase texts joined by newlines, with where each begins. */
function joinedLines(lines: readonly Cand[]): { text: string; starts: number[] } {
  const starts: number[] = [];
  let at = 0;
  for (const c of lines) {
    starts.push(at);
    at += c.lowerText.length + 1;
  }
  return { text: lines.map((c) => c.lowerText).join('\n'), starts };
}

/** Index of the line whose text holds position pos (starts ascending, the first 0). */
function lineAt(starts: readonly number[], pos: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= pos) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function isAlnum(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c >= 0xc0;
}

/** Best first; ties by title (titles are unique among a pool's documents, so the order is total). */
function byBest(a: DocAgg, b: DocAgg): number {
  return b.best - a.best || (a.title < b.title ? -1 : a.title > b.title ? 1 : 0);
}

/** The first n of the documents with a positive best score in byBest order: what sorting them all and keeping n
 *  gives, by insertion into a short list. */
function bestDocs(all: readonly DocAgg[], n: number): DocAgg[] {
  const out: DocAgg[] = [];
  for (const d of all) {
    if (!(d.best > 0)) continue;
    if (out.length === n && byBest(d, out[n - 1]) >= 0) continue;
    let i = Math.min(out.length, n - 1);
    if (out.length < n) out.push(d);
    while (i > 0 && byBest(d, out[i - 1]) < 0) {
      out[i] = out[i - 1];
      i--;
    }
    out[i] = d;
  }
  return out;
}

function byScore(a: { final: number; order: number }, b: { final: number; order: number }): number {
  return b.final - a.final || a.order - b.order;
}

/** Index of the sentence containing position pos (sentences sorted by start), or -1. */
function sentenceAt(sents: ScanResult['sents'], pos: number): number {
  let lo = 0;
  let hi = sents.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (sents[mid].start > pos) hi = mid - 1;
    else if (sents[mid].end <= pos) lo = mid + 1;
    else return mid;
  }
  return -1;
}

/** Indices of the section's sentences that a skilled question must keep: a fact naming one of its keys (one indexOf
 *  pass per key), e.g. a RULER needle for a queried key. */
function keptSentences(q: QuestionInfo, scan: ScanResult): Set<number> {
  const out = new Set<number>();
  for (const sq of q.skilled) {
    if (sq.keep === undefined) continue;
    for (const key of sq.keep.keys) {
      const k = key.toLowerCase();
      if (k.length === 0) continue;
      for (let at = scan.lower.indexOf(k); at >= 0; at = scan.lower.indexOf(k, at + k.length)) {
        const si = sentenceAt(scan.sents, at);
        if (si >= 0) {
          const s = scan.sents[si];
          if (sq.keep.isFact(scan.lower.slice(s.start, s.end))) out.add(si);
        }
      }
    }
  }
  return out;
}

/**
 * The candidate pool: memory lines plus the section's sentences that score above zero or belong to a linked
 * document. Second-hop linking: a document whose title is named by a top document's best sentences, and a document
 * that names a top document's title (when that title is not in the question), get a share of the top document's
 * score, because a bridge question's second paragraph often shares few words with the question (README.md, "Why it
 * reads this way"). Only pooled sentences are materialised as strings.
 */
export function buildPool(q: QuestionInfo, memory: MemoryLine[], scan: ScanResult | null): Cand[] {
  const pool: Cand[] = [];
  // Each pooled line's document (null without a title): what dedupes lines and carries link bonuses, with no key
  // strings built per line.
  const poolDocs: (DocAgg | null)[] = [];
  const stored = storedScorer(q);
  // Documents by title, across memory and section.
  const docs = new Map<string, DocAgg>();
  /** `lower`, when known, is title.toLowerCase(): the core of it is the title's core lowercased (no case mapping
   *  looks across the spaces that bound a core), without another call into ICU. */
  const agg = (title: string, lower?: string | null): DocAgg => {
    let d = docs.get(title);
    if (d === undefined) {
      d = {
        title,
        coreLower: lower != null ? coreTitle(lower) : coreTitle(title).toLowerCase(),
        best: -Infinity,
        inQ: -1,
        mem: [],
        inSection: false,
        idxs: [],
        bonus: 0,
      };
      docs.set(title, d);
    }
    return d;
  };
  // A line is the same as one already pooled when it has the same document title and index, or, lacking either,
  // the same text.
  const seenTexts = new Set<string>();
  const pooledBefore = (d: DocAgg | undefined | null, idx: number, text: string): boolean =>
    d !== null && idx >= 0 ? d !== undefined && d.idxs.includes(idx) : seenTexts.has(text);
  const remember = (d: DocAgg | null, idx: number, text: string): void => {
    if (d !== null && idx >= 0) d.idxs.push(idx);
    else seenTexts.add(text);
  };
  for (const l of memory) {
    const known = l.title === null ? null : docs.get(l.title);
    if (pooledBefore(known, l.idx, l.text)) continue;
    const d = l.title === null ? null : (known ?? agg(l.title));
    remember(d, l.idx, l.text);
    const { base, heavy, lower } = stored.score(l.title, l.idx, l.text);
    const c: Cand = {
      title: l.title,
      idx: l.idx,
      text: l.text,
      base,
      final: base,
      order: pool.length,
      lowerText: lower,
      heavy,
    };
    pool.push(c);
    poolDocs.push(d);
    if (d !== null) {
      d.mem.push(c);
      if (c.base > d.best) d.best = c.base;
    }
  }

  const sents = scan?.sents ?? [];
  const docBest: number[] = [];
  /** The section's documents' DocAgg (null without a title). */
  const sectionAgg: (DocAgg | null)[] = [];
  if (scan !== null) {
    for (let i = 0; i < scan.docs.length; i++) docBest.push(-Infinity);
    for (const s of sents) if (s.base > docBest[s.doc]) docBest[s.doc] = s.base;
    for (let i = 0; i < scan.docs.length; i++) {
      const sd = scan.docs[i];
      if (sd.title === null) {
        sectionAgg.push(null);
        continue;
      }
      const d = agg(sd.title, sd.lower);
      sectionAgg.push(d);
      d.inSection = true;
      if (docBest[i] > d.best) d.best = docBest[i];
    }
  }

  const all = [...docs.values()];
  let memoryText: { text: string; starts: number[] } | undefined;
  if (all.length >= 2) {
    const ranked = bestDocs(all, TOP_DOCS);
    const max = ranked.length > 0 ? ranked[0].best : 0;
    const tops = ranked.filter((d) => d.best >= 0.4 * max);
    const give = (d: DocAgg, v: number): void => {
      if (v > d.bonus) d.bonus = v;
    };
    for (const top of tops) {
      // The top document's two best sentences (memory and section together).
      const best: { base: number; text: string }[] = top.mem.map((c) => ({ base: c.base, text: c.lowerText }));
      if (scan !== null && top.inSection) {
        for (const s of sents)
          if (sectionAgg[s.doc] === top && s.base > 0)
            best.push({ base: s.base, text: scan.lower.slice(s.start, s.end) });
      }
      best.sort((a, b) => b.base - a.base);
      // Searched as one text: texts and titles hold no newline, so no match spans the joins (and a newline bounds
      // a word like a text's edge does).
      const texts = best
        .slice(0, 2)
        .map((b) => b.text)
        .join('\n');
      pairs.reset(texts);
      for (const d of all) {
        if (d === top || d.coreLower.length < 4 || !pairs.mayContain(d.coreLower)) continue;
        if (containsWord(texts, d.coreLower) >= 0 && !inQuestion(q, d)) give(d, LINK_FROM_TOP * top.best);
      }
      if (inQuestion(q, top) || top.coreLower.length < 4) continue;
      memoryText ??= joinedLines(pool);
      for (
        let at = containsWord(memoryText.text, top.coreLower);
        at >= 0;
        at = containsWord(memoryText.text, top.coreLower, at + 1)
      ) {
        const d = poolDocs[lineAt(memoryText.starts, at)];
        if (d !== null && d !== top) give(d, LINK_TO_TOP * top.best);
      }
      if (scan !== null) {
        for (
          let at = containsWord(scan.lower, top.coreLower);
          at >= 0;
          at = containsWord(scan.lower, top.coreLower, at + 1)
        ) {
          const si = sentenceAt(sents, at);
          if (si < 0) continue;
          const d = sectionAgg[sents[si].doc];
          if (d !== null && d !== top) give(d, LINK_TO_TOP * top.best);
        }
      }
    }
  }

  if (scan !== null) {
    // Only the section's best sentences can enter the memory: materialise at most SECTION_CANDIDATES of them.
    const kept = keptSentences(q, scan);
    const picked: number[] = [];
    const score: number[] = [];
    for (let i = 0; i < sents.length; i++) {
      const s = sents[i];
      const b = sectionAgg[s.doc]?.bonus ?? 0;
      if (s.base <= 0 && b <= 0) continue;
      picked.push(i);
      score.push(s.base + b * (s.idx === 0 ? 1 : LINK_BODY_FACTOR) + (kept.has(i) ? KEPT_PRIORITY : 0));
    }
    let order = picked.map((_, k) => k);
    if (order.length > SECTION_CANDIDATES) {
      order.sort((x, y) => score[y] - score[x] || x - y);
      order = order.slice(0, SECTION_CANDIDATES).sort((x, y) => x - y);
    }
    for (const k of order) {
      const s = sents[picked[k]];
      const d = sectionAgg[s.doc];
      const title = scan.docs[s.doc].title;
      const idx = title === null ? -1 : s.idx;
      const text = scan.text.slice(s.start, s.end);
      if (pooledBefore(d, idx, text)) continue;
      remember(d, idx, text);
      poolDocs.push(d);
      pool.push({
        title,
        idx,
        text,
        base: s.base,
        final: s.base,
        order: pool.length,
        lowerText: scan.lower.slice(s.start, s.end),
        heavy: s.heavy,
      });
    }
  }
  const keeps = q.skilled.flatMap((sq) =>
    sq.keep !== undefined && sq.keep.keys.length > 0
      ? [{ keys: sq.keep.keys.map((k) => k.toLowerCase()), isFact: sq.keep.isFact }]
      : [],
  );
  if (keeps.length > 0) {
    for (const c of pool) {
      if (keeps.some((k) => k.isFact(c.lowerText) && k.keys.some((key) => c.lowerText.includes(key))))
        c.base += KEPT_PRIORITY;
    }
  }
  for (let k = 0; k < pool.length; k++) {
    const c = pool[k];
    const b = poolDocs[k]?.bonus ?? 0;
    c.final = c.base + b * (c.idx === 0 ? 1 : LINK_BODY_FACTOR);
  }
  return pool;
}

export interface Budget {
  chars: number;
  tokens: number;
}

export function budgetFor(maxTokens: number): Budget {
  const t = Math.max(16, maxTokens);
  return { chars: Math.floor(t * 3.5), tokens: t * 0.92 };
}

/** Greedy fill by final score; returns the kept lines grouped by document, groups ordered by their best line. */
export function selectLines(
  pool: Cand[],
  budget: Budget,
  reservedChars: number,
): { title: string | null; lines: Cand[] }[] {
  const ranked = pool.filter((c) => c.final > 0).sort(byScore);
  let chars = reservedChars;
  let tokens = reservedChars / 3.6;
  const groups = new Map<string | null, { title: string | null; lines: Cand[] }>();
  const order: { title: string | null; lines: Cand[] }[] = [];
  for (const c of ranked) {
    const key = c.title;
    const g = groups.get(key);
    if (g !== undefined && g.lines.length >= MAX_LINES_PER_DOC && key !== null) continue;
    if (budget.chars - chars < 24) break;
    // `[${title}]\n` before a new group's first line, then `#${idx} ${text}\n` (or `- ${text}\n`): measured unbuilt.
    const header = g === undefined && c.title !== null;
    const idxDigits = c.title !== null && c.idx >= 0 ? String(c.idx).length : 0;
    const addChars = (idxDigits > 0 ? idxDigits + 2 : 2) + c.text.length + 1 + (header ? c.title!.length + 3 : 0);
    if (chars + addChars > budget.chars) continue;
    // estimateTokens of the line, from the text's count of digits and non-ASCII characters: the same integers, so
    // the same float.
    const lineTokens = idxDigits + c.heavy + (c.text.length + 3 - c.heavy) / 3.6;
    const addTokens = lineTokens + (header ? estimateTokensWith(c.title!, 0, 3) : 0);
    if (tokens + addTokens > budget.tokens) continue;
    chars += addChars;
    tokens += addTokens;
    if (g === undefined) {
      const ng = { title: key, lines: [c] };
      groups.set(key, ng);
      order.push(ng);
    } else g.lines.push(c);
  }
  for (const g of order) if (g.title !== null) g.lines.sort((a, b) => a.idx - b.idx || a.order - b.order);
  return order;
}
