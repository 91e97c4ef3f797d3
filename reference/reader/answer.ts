// Answer extraction from ranked sentences: re-rank for answering (first hop explains some question terms, the
// linked second hop matters more), then pick a short typed span by sentence rank and closeness to the
// question's relation words.

import type { AnswerType, QuestionInfo } from './question.js';
import type { Cand } from './select.js';
import { extractSpans, tokenize, type Span, type Token } from './spans.js';
import { DEMONYMS, answerCommon, answerComparison } from './compare.js';
import { coreTitle, normalizeAnswer, spacedWords } from './text.js';

/** Weight kept by a question term that the first-hop sentence already explains, in other documents' sentences. */
const EXPLAINED_FACTOR = 0.35;
/** Share of the first-hop score given to sentences of documents linked to it. */
const HOP_LINK = 0.6;
const TOP_SENTENCES = 8;
const MAX_ANSWER_WORDS = 8;
const BRIDGE_PENALTY = 0.6;
/** Weight of a top sentence's own document title as a candidate (its subject). */
const TITLE_SUBJECT = 0.8;

export interface AnalyzedSentence {
  cand: Cand;
  tokens: Token[];
  /** Non-stop question terms found in the sentence's words. */
  terms: Set<number>;
  /** Non-stop question terms found in the document title. */
  titleTerms: Set<number>;
  score: number;
}

function termsIn(q: QuestionInfo, tokens: Token[]): Set<number> {
  const out = new Set<number>();
  for (const t of tokens) {
    const i = q.termIndex.get(t.key);
    if (i !== undefined && q.isStop[i] === 0) out.add(i);
  }
  return out;
}

export function analyze(q: QuestionInfo, cands: Cand[]): AnalyzedSentence[] {
  const titleCache = new Map<string, Set<number>>();
  return cands.map((cand) => {
    const tokens = tokenize(cand.text);
    let titleTerms = new Set<number>();
    if (cand.title !== null) {
      const hit = titleCache.get(cand.title);
      if (hit !== undefined) titleTerms = hit;
      else {
        titleTerms = termsIn(q, tokenize(cand.title));
        titleCache.set(cand.title, titleTerms);
      }
    }
    return { cand, tokens, terms: termsIn(q, tokens), titleTerms, score: cand.final };
  });
}

function mentions(text: string, title: string | null): boolean {
  if (title === null) return false;
  const core = coreTitle(title);
  if (core.length < 4) return false;
  return spacedWords(text).includes(spacedWords(core));
}

/**
 * Re-ranks sentences for answering: the best match to the question usually names the bridge entity and the answer
 * sits in a linked document, so terms it already covers count less elsewhere and linked documents count more
 * (README.md, "Why it reads this way"). Returns them sorted best first.
 */
export function rankForAnswer(q: QuestionInfo, sents: AnalyzedSentence[]): AnalyzedSentence[] {
  if (sents.length === 0) return sents;
  const byFinal = [...sents].sort((a, b) => b.cand.final - a.cand.final || a.cand.order - b.cand.order);
  const first = byFinal[0];
  const explained = new Set<number>([...first.terms, ...first.titleTerms]);
  const firstTitle = first.cand.title;
  for (const s of sents) {
    if (s === first) {
      s.score = first.cand.final;
      continue;
    }
    const sameDoc = s.cand.title !== null && s.cand.title === firstTitle;
    let score = 0;
    const counted = new Set<number>();
    for (const t of s.terms) {
      counted.add(t);
      score += q.weight[t] * (explained.has(t) && !sameDoc ? EXPLAINED_FACTOR : 1);
    }
    for (const t of s.titleTerms) {
      if (counted.has(t)) continue;
      score += 0.5 * q.weight[t] * (explained.has(t) && !sameDoc ? EXPLAINED_FACTOR : 1);
    }
    score += s.cand.final - s.cand.base; // memory-stage link bonus
    if (!sameDoc && firstTitle !== null && s.cand.title !== null) {
      const linked = mentions(first.cand.text, s.cand.title) || mentions(s.cand.text, firstTitle);
      if (linked) score += HOP_LINK * first.cand.base * (s.cand.idx === 0 ? 1 : 0.8);
    }
    if (sameDoc) score += 0.3 * first.cand.base;
    s.score = score;
  }
  return [...sents].sort((a, b) => b.score - a.score || a.cand.order - b.cand.order);
}

function typeFit(type: AnswerType, span: Span, tokens: Token[], lowerQ: string, quoted: boolean): number {
  const words = span.to - span.from;
  const demonym = span.kind === 'cap' && words === 1 && DEMONYMS.has(tokens[span.from].lower);
  if (demonym) return type === 'nationality' || /nationality|what country|which country/.test(lowerQ) ? 1 : 0.15;
  switch (type) {
    case 'nationality':
      return span.kind === 'cap' ? 0.2 : 0;
    case 'year':
      return span.kind === 'year' ? 1 : span.kind === 'date' ? 0.95 : 0;
    case 'date':
      return span.kind === 'date' ? 1 : span.kind === 'year' ? 0.85 : 0;
    case 'number':
      return span.kind === 'num' ? 1 : span.kind === 'numword' ? 0.8 : span.kind === 'year' ? 0.15 : 0;
    case 'place': {
      if (span.kind !== 'cap') return 0;
      const prev = span.from > 0 ? tokens[span.from - 1].lower : '';
      const pre = prev === 'in' || prev === 'at' || prev === 'from' || prev === 'near' || prev === 'of' ? 0.3 : 0;
      return (0.7 + pre) * (quoted ? 0.3 : 1) * (hasAnd(span, tokens) ? 0.5 : 1);
    }
    case 'person':
      if (span.kind !== 'cap') return span.kind === 'quote' ? 0.1 : 0;
      return (words >= 2 ? 1 : 0.6) * (quoted ? 0.3 : 1) * (hasAnd(span, tokens) ? 0.5 : 1);
    case 'work':
      if (span.kind === 'quote') return 1;
      if (span.kind === 'cap') return quoted ? 1 : 0.6;
      return 0;
    default:
      if (span.kind === 'quote') return 0.8;
      if (span.kind === 'cap') return 0.8;
      return span.kind === 'num' || span.kind === 'year' || span.kind === 'date' ? 0.25 : 0;
  }
}

/**
 * In a life span "(1909–1994)" or "(22 November 1761 – 5 July 1816)", the first date is the birth and the last
 * the death: favour the one the question asks for (event 1 = birth, 2 = death).
 */
function lifespanFactor(tokens: Token[], span: Span, event: number): number {
  let open = -1;
  for (let k = span.from - 1; k >= 0 && k >= span.from - 8; k--) {
    if (tokens[k].text === '(') {
      open = k;
      break;
    }
    if (tokens[k].text === ')') break;
  }
  if (open < 0) return event === 1 ? 0.8 : 1;
  let dash = false;
  for (let k = open + 1; k < span.from; k++)
    if (/^[–—-]$/.test(tokens[k].text) || tokens[k].lower === 'to') dash = true;
  if (event === 1) return dash ? 0.5 : 1.5;
  return dash ? 1.5 : 0.7;
}

function hasAnd(span: Span, tokens: Token[]): boolean {
  for (let k = span.from; k < span.to; k++) if (tokens[k].lower === 'and' || tokens[k].text === '&') return true;
  return false;
}

/** Token flags: inside a double-quoted stretch. */
function quotedMask(tokens: Token[]): Uint8Array {
  const mask = new Uint8Array(tokens.length);
  let open = -1;
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k].text;
    if (t === '"' || t === '“' || t === '”') {
      if (open < 0 && t !== '”') open = k;
      else if (open >= 0) {
        mask.fill(1, open, k + 1);
        open = -1;
      }
    }
  }
  return mask;
}

interface Scored {
  text: string;
  best: number;
  sum: number;
}

/** Picks the best typed span from the ranked sentences; null when there is none. */
export function extractAnswer(q: QuestionInfo, ranked: AnalyzedSentence[]): string | null {
  const top = ranked.slice(0, TOP_SENTENCES).filter((s) => s.score > 0);
  if (top.length === 0) return null;
  const maxScore = top[0].score;
  const lowerQ = q.text.toLowerCase();
  const agg = new Map<string, Scored>();
  const titles = titleWords(ranked);
  const lifeEvent = /\b(born|birth|birthday)\b/.test(lowerQ) ? 1 : /\b(die|died|death|dead)\b/.test(lowerQ) ? 2 : 0;
  // The first-hop document's own subject is usually the bridge, not the answer, once a second hop is in play.
  const firstTitle = top[0].cand.title;
  const bridgeTitle =
    firstTitle !== null &&
    !q.spaced.includes(spacedWords(coreTitle(firstTitle))) &&
    top.some((s) => s.cand.title !== firstTitle)
      ? spacedWords(coreTitle(firstTitle))
      : null;
  const add = (text: string, score: number): void => {
    const key = normalizeAnswer(text);
    if (key.length === 0) return;
    const prev = agg.get(key);
    if (prev === undefined) agg.set(key, { text, best: score, sum: score });
    else {
      prev.sum += score;
      if (score > prev.best) {
        prev.best = score;
        prev.text = text;
      }
    }
  };
  for (let r = 0; r < top.length; r++) {
    const s = top[r];
    const sw = s.score / maxScore;
    const rel: number[] = [];
    const names: number[] = [];
    for (let k = 0; k < s.tokens.length; k++) {
      const t = q.termIndex.get(s.tokens[k].key);
      if (t === undefined || q.isStop[t] === 1) continue;
      if (q.isRelation[t] === 1) rel.push(k);
      else names.push(k);
    }
    const quoted = quotedMask(s.tokens);
    const typeNoun: number[] = [];
    if (q.typeNounKey !== null) s.tokens.forEach((t, k) => t.key === q.typeNounKey && typeNoun.push(k));
    for (const span of extractSpans(s.cand.text, s.tokens)) {
      const fit = typeFit(q.answerType, span, s.tokens, lowerQ, quoted[span.from] === 1);
      if (fit <= 0) continue;
      const nov = novelty(q, s.tokens, span);
      if (nov <= 0) continue;
      const prox = proximity(rel, span);
      const nameProx = proximity(names, span);
      const nounProx = proximity(typeNoun, span);
      let score = sw * fit * nov * (0.5 + 0.9 * prox + 0.25 * nameProx + 0.6 * nounProx * nounProx);
      if (lifeEvent !== 0 && (span.kind === 'year' || span.kind === 'date'))
        score *= lifespanFactor(s.tokens, span, lifeEvent);
      if (bridgeTitle !== null && span.kind === 'cap' && r > 0 && spacedWords(span.text) === bridgeTitle)
        score *= BRIDGE_PENALTY;
      add(titleForm(outputText(q.answerType, span), titles), score);
    }
    // The sentence's subject: its document title, when the question does not already name it.
    if (
      TITLE_SUBJECT > 0 &&
      s.cand.title !== null &&
      (q.answerType === 'person' || q.answerType === 'entity' || q.answerType === 'work')
    ) {
      const core = coreTitle(s.cand.title);
      const tokens = tokenize(core);
      const span: Span = { text: core, from: 0, to: tokens.length, kind: 'cap' };
      if (tokens.length > 0 && tokens[0].cap) {
        const fit = typeFit(q.answerType, span, tokens, lowerQ, false);
        const nov = novelty(q, tokens, span);
        if (fit > 0 && nov >= 1) add(core, TITLE_SUBJECT * sw * fit * (s.cand.idx === 0 ? 1 : 0.8));
      }
    }
  }
  let bestText: string | null = null;
  let bestScore = -Infinity;
  for (const [, v] of [...agg].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    const total = v.best + 0.15 * (v.sum - v.best);
    if (total > bestScore) {
      bestScore = total;
      bestText = v.text;
    }
  }
  return bestText === null ? null : clipWords(bestText, MAX_ANSWER_WORDS);
}

/** Core titles of the documents in play, as word lists, for snapping spans to the title form. */
function titleWords(sents: AnalyzedSentence[]): { core: string; words: string[] }[] {
  const seen = new Set<string>();
  const out: { core: string; words: string[] }[] = [];
  for (const s of sents) {
    if (s.cand.title === null) continue;
    const core = coreTitle(s.cand.title);
    if (seen.has(core)) continue;
    seen.add(core);
    const words = spacedWords(core).trim().split(' ');
    if (words.length >= 2) out.push({ core, words });
  }
  return out;
}

/** A span that holds all words of a document title and more ("James Douglas Packer") is given as the title. */
function titleForm(text: string, titles: { core: string; words: string[] }[]): string {
  const spaced = spacedWords(text);
  const n = spaced.trim().split(' ').length;
  for (const t of titles) {
    if (t.words.length < n && t.words.every((w) => spaced.includes(` ${w} `))) return t.core;
  }
  return text;
}

function outputText(type: AnswerType, span: Span): string {
  if (type === 'year' && span.year !== undefined) return span.year;
  return span.text;
}

/** 1 when the span shares no content word with the question, 0 when all its words are in the question. */
function novelty(q: QuestionInfo, tokens: Token[], span: Span): number {
  let content = 0;
  let inQ = 0;
  for (let k = span.from; k < span.to; k++) {
    const t = q.termIndex.get(tokens[k].key);
    if (t !== undefined && q.isStop[t] === 1) continue;
    if (!/[\p{L}\p{N}]/u.test(tokens[k].text)) continue;
    if (tokens[k].key === q.typeNounKey) continue; // "Oakland County" answers "what county"
    content++;
    if (t !== undefined) inQ++;
  }
  if (content === 0) return 0;
  if (inQ === content) return 0;
  return 1 - (0.8 * inQ) / content;
}

function proximity(positions: number[], span: Span): number {
  if (positions.length === 0) return 0;
  let d = Infinity;
  for (const p of positions) {
    const dist = p < span.from ? span.from - p : p >= span.to ? p - span.to + 1 : 0;
    if (dist < d) d = dist;
  }
  return 1 / (1 + d / 3);
}

export function clipWords(s: string, n: number): string {
  const words = s.trim().split(/\s+/);
  return words.length <= n ? s.trim() : words.slice(0, n).join(' ');
}

/** Full answer from ranked candidate sentences: comparisons, typed spans, then fallbacks. */
export function answerFromCands(q: QuestionInfo, cands: Cand[]): string {
  const sents = analyze(q, cands);
  if (q.answerType === 'yesno' || q.answerType === 'choice') return answerComparison(q, sents);
  if (q.answerType === 'common') {
    const shared = answerCommon(q, sents);
    if (shared !== null) return shared;
  }
  const ranked = rankForAnswer(q, sents);
  const span = extractAnswer(q, ranked);
  if (span !== null) return span;
  for (const s of ranked) {
    if (s.cand.title !== null && !q.spaced.includes(spacedWords(coreTitle(s.cand.title))))
      return coreTitle(s.cand.title);
  }
  return 'unknown';
}
