// Question analysis: weighted terms, word pairs, expected answer type, comparison options, and the families' own
// question kinds (harness/reader-skill.ts). Computed once per distinct question string and kept in a small LRU cache
// per skill list (the reader is a pure function).

import type { ReaderSkill, SkilledQuestion } from '../../harness/reader-skill.js';
import { hashRange } from './lex.js';
import { STOP_KEYS, STOP_WORDS, WEAK_WORDS, isUpper, isWordChar, keyEnd, keyOf, spacedWords } from './text.js';

export type AnswerType =
  'yesno' | 'choice' | 'common' | 'year' | 'date' | 'number' | 'place' | 'person' | 'work' | 'nationality' | 'entity';

export interface QuestionInfo {
  readonly text: string;
  /** Word key → term index. Stop words are included (weight 0) so that one lookup classifies a scanned word. */
  readonly termIndex: Map<string, number>;
  /** The same mapping as an open-addressing hash table over word keys, probed without allocating strings. */
  readonly table: KeyTable;
  readonly weight: Float64Array;
  readonly isStop: Uint8Array;
  /** Relation (lowercase content) terms: proximity to these matters most when picking the answer span. */
  readonly isRelation: Uint8Array;
  /** Term index pairs a*nTerms+b of consecutive content terms in the question. */
  readonly pairs: Set<number>;
  readonly nTerms: number;
  readonly totalWeight: number;
  /** Lowercase words of the question with single spaces and a space at each end. */
  readonly spaced: string;
  readonly answerType: AnswerType;
  /** Key of the head noun of the question's "what/which" phrase, e.g. "album" (proximity cue), or null. */
  readonly typeNounKey: string | null;
  /** For 'choice' and 'yesno' questions: the option strings when they can be parsed from the text. */
  readonly options: string[];
  /** Comparison direction for choice questions: earlier/later year, more/less quantity, or descriptor match. */
  readonly direction: 'earlier' | 'later' | 'more' | 'less' | 'match';
  /** The families' readings of the question (RULER's needle keys, its variable chains), in skill order. */
  readonly skilled: readonly SkilledQuestion[];
}

const NAME_WEIGHT = 3;
const NUMBER_WEIGHT = 3;
const QUOTED_WEIGHT = 2.5;
const CONTENT_WEIGHT = 1;
const WEAK_WEIGHT = 0.5;

const AUX_START = /^(is|are|was|were|do|does|did|has|have|had|can|could|will|would|should|shall|may)\b/i;
const QUOTE_SPAN = /["“”]([^"“”]{1,120})["“”]/g;

interface Word {
  text: string;
  start: number;
  quoted: boolean;
}

function splitWords(q: string): Word[] {
  const quoted = new Uint8Array(q.length);
  for (const m of q.matchAll(QUOTE_SPAN)) {
    const s = m.index ?? 0;
    quoted.fill(1, s, s + m[0].length);
  }
  const out: Word[] = [];
  let i = 0;
  while (i < q.length) {
    if (!isWordChar(q.charCodeAt(i))) {
      i++;
      continue;
    }
    const s = i;
    while (i < q.length) {
      const c = q.charCodeAt(i);
      if (isWordChar(c)) i++;
      else if ((c === 44 || c === 46) && i + 1 < q.length && isDigitAt(q, i - 1) && isDigitAt(q, i + 1)) i++;
      else break;
    }
    out.push({ text: q.slice(s, i), start: s, quoted: quoted[s] === 1 });
  }
  return out;
}

function isDigitAt(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c >= 48 && c <= 57;
}

const PERSON_NOUNS =
  'person|man|woman|actor|actress|singer|writer|author|director|player|musician|artist|composer|politician|producer|rapper|coach|king|queen|poet|novelist|screenwriter|member|host|founder|manager|footballer|athlete|comedian|journalist|businessman|businesswoman|lawyer|scientist|physicist|philosopher|painter|architect|guitarist|drummer|vocalist|frontman|songwriter|cast member|character|wife|husband|son|daughter|father|mother|brother|sister|leader|president|governor|senator|general|emperor|ruler|chef|designer|model|dancer|entertainer|presenter|anchor|pitcher|quarterback|boxer|wrestler|driver|cyclist|golfer|head coach';
const WORK_NOUNS =
  'film|movie|album|song|single|book|novel|series|show|game|video game|play|opera|musical|magazine|newspaper|television series|tv series|sitcom|episode|poem|painting|documentary|studio album|ep|mixtape|soundtrack';
const PLACE_NOUNS =
  'city|country|state|town|county|region|province|village|island|continent|location|neighborhood|neighbourhood|area|borough|district|suburb|river|lake|mountain|capital';
const PERSON_RE = new RegExp(
  `^(who|whom|whose)\\b|\\b(by|to|with|for|of) (who|whom)\\s*\\?*$|\\bwho\\s*\\?$|\\b(what|which) (\\w+ )?(${PERSON_NOUNS})\\b`,
);
const WORK_RE = new RegExp(`\\b(what|which) (\\w+ ){0,2}(${WORK_NOUNS})\\b`);
const PLACE_RE = new RegExp(
  `^where\\b|\\bwhere (is|was|are|were|did|does|do)\\b|\\b(what|which|in what|in which) (\\w+ ){0,2}(${PLACE_NOUNS})\\b|\\bwhere\\s*\\?$`,
);

function inferType(q: string, lower: string): AnswerType {
  const hasOr = / or /.test(lower);
  const aux = AUX_START.test(q.trim());
  if (aux && hasOr && !/\bboth\b|\bsame\b/.test(lower)) return 'choice';
  if (aux) return 'yesno';
  if (
    hasOr &&
    /^(which|who|what)\b/.test(lower.trim()) &&
    (/,[^,]* or /.test(lower) || / or\s+["“]?[A-Z0-9]/.test(q)) &&
    !/\bboth\b/.test(lower)
  )
    return 'choice';
  if (/\bin common\b|\bboth\b.*\bwhat\s*\?*$/.test(lower)) return 'common';
  if (
    /\bshare[ds]?\b/.test(lower) &&
    /\b(type|kind|genre|profession|occupation|job|career|nationality|role|sport|language|religion)\b/.test(lower)
  )
    return 'common';
  if (
    /\bboth\b/.test(lower) &&
    /\b(what|which) (\w+ )?(type|kind|genre|profession|occupation|job|career|nationality|sort|form|field|style|examples?|role|position|sport|language|religion)\b/.test(
      lower,
    )
  )
    return 'common';
  if (/\b(what|which|in what|in which) year\b|\byear did\b|\byear was\b|\bwhat year\b/.test(lower)) return 'year';
  if (/\b(birthday|date of birth|birth date|what date|which date|what month|which month)\b/.test(lower)) return 'date';
  if (/\b(what|which) nationality\b|\bnationality of\b/.test(lower)) return 'nationality';
  if (/^when\b|\bwhen (was|were|did|is|does|do)\b|\bwhen\s*\?*$/.test(lower)) return 'date';
  if (
    /\bhow (many|much|long|old|tall|far|large|big|high|deep|wide)\b|\bpopulation\b|\bnumber of\b|\bwhat percentage\b|\b(highest|peak) (ranking|position|chart)\b|\bwhat (edition|number|rank|position on)\b|\bcapacity\b|\bhow\s+many\b/.test(
      lower,
    )
  )
    return 'number';
  if (PLACE_RE.test(lower)) return 'place';
  if (PERSON_RE.test(lower)) return 'person';
  if (WORK_RE.test(lower)) return 'work';
  return 'entity';
}

/** Head noun of the "what/which ..." phrase ("What government position was ..." → "position"). */
function typeNoun(lower: string): string | null {
  const m = /\b(?:what|which)((?: [a-z][a-z-]*){1,4})/.exec(lower);
  if (m === null) return null;
  let last: string | null = null;
  for (const w of m[1].trim().split(' ')) {
    if (STOP_WORDS.has(w)) {
      if (last !== null) break;
      continue;
    }
    if (/^(is|was|are|were|did|does|do|has|have|had)$/.test(w)) break;
    last = w;
  }
  return last;
}

function inferDirection(lower: string): QuestionInfo['direction'] {
  if (/\b(older|oldest|earlier|earliest|first|before|sooner|longer ago|established first|founded first)\b/.test(lower))
    return 'earlier';
  if (/\b(younger|youngest|later|latest|more recent|most recent|newer|newest|last|after)\b/.test(lower)) return 'later';
  if (
    /\b(more|most|larger|largest|bigger|biggest|higher|highest|greater|longer|longest|taller|tallest|heavier|many)\b/.test(
      lower,
    )
  )
    return 'more';
  if (/\b(fewer|fewest|less|least|smaller|smallest|lower|lowest|shorter|shortest|lighter)\b/.test(lower)) return 'less';
  return 'match';
}

/** Option strings of "X or Y" / "X and Y" comparison questions; empty when they cannot be found. */
function parseOptions(q: string, type: AnswerType): string[] {
  const t = q.trim().replace(/[?.\s]+$/, '');
  if (type === 'choice') {
    const orAt = t.lastIndexOf(' or ');
    if (orAt < 0) return [];
    let left = t.slice(0, orAt);
    const right = t.slice(orAt + 4).trim();
    const comma = left.lastIndexOf(',');
    if (comma >= 0) left = left.slice(comma + 1);
    else left = trailingCapitalised(left);
    const l = stripArticle(left.trim());
    const r = stripArticle(
      (right.includes(',') ? right.replace(/,.*$/, '') : leadingCapitalised(right) || right).trim(),
    );
    return l && r ? [l, r] : [];
  }
  if (type === 'yesno' || type === 'common') {
    const andAt = t.indexOf(' and ');
    if (andAt < 0) return [];
    const left = trailingCapitalised(t.slice(0, andAt));
    const right = leadingCapitalised(t.slice(andAt + 5));
    return left && right ? [left, right] : [];
  }
  return [];
}

function stripArticle(s: string): string {
  return s.replace(/^(the|a|an)\s+/i, '').trim();
}

function capitalisedish(word: string): boolean {
  const c = word.charCodeAt(0);
  return isUpper(c) || (c >= 48 && c <= 57) || c === 34 || c === 0x201c;
}

const CONNECTORS = new Set(['of', 'the', 'and', 'de', 'la', 'von', 'van', 'for', 'in', '&', 'y', 'del', 'du', 'da']);

function trailingCapitalised(s: string): string {
  const words = s.trim().split(/\s+/);
  let i = words.length;
  while (
    i > 0 &&
    (capitalisedish(words[i - 1]) || (CONNECTORS.has(words[i - 1].toLowerCase()) && i - 1 > 0 && i < words.length))
  )
    i--;
  while (i < words.length && CONNECTORS.has(words[i].toLowerCase())) i++;
  const span = words.slice(i);
  if (span.length > 0 && STOP_WORDS.has(span[0].toLowerCase()) && AUX_START.test(span[0])) span.shift();
  return span.join(' ').replace(/^["“]|["”,]$/g, '');
}

function leadingCapitalised(s: string): string {
  const words = s.trim().split(/\s+/);
  let i = 0;
  while (
    i < words.length &&
    (capitalisedish(words[i]) ||
      (CONNECTORS.has(words[i].toLowerCase()) && i > 0 && i + 1 < words.length && capitalisedish(words[i + 1])))
  )
    i++;
  return words
    .slice(0, i)
    .join(' ')
    .replace(/^["“]|["”,]$/g, '');
}

const NO_SKILLS: readonly ReaderSkill[] = [];

/** The question as the reader weighs it: a family's instruction around it dropped (ReaderSkill.questionText). */
function weighedText(question: string, skills: readonly ReaderSkill[]): string {
  for (const s of skills) {
    const inner = s.questionText?.(question) ?? null;
    if (inner !== null && inner.trim() !== '') return inner.trim();
  }
  return question;
}

export function analyzeQuestion(question: string, skills: readonly ReaderSkill[] = NO_SKILLS): QuestionInfo {
  const asked = question.trim();
  const text = weighedText(asked, skills);
  const lower = text
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/\b(what|which) (is|was|are|were) the (name|title)s? of (the |a |an )?/g, '$1 ');
  const words = splitWords(text);
  const keys: string[] = [];
  const weights: number[] = [];
  const stops: number[] = [];
  const rel: number[] = [];
  const termIndex = new Map<string, number>();
  const seq: number[] = [];
  const answerType = inferType(text, lower);

  const add = (key: string, w: number, stop: boolean, relation: boolean): number => {
    let idx = termIndex.get(key);
    if (idx === undefined) {
      idx = keys.length;
      termIndex.set(key, idx);
      keys.push(key);
      weights.push(w);
      stops.push(stop ? 1 : 0);
      rel.push(relation ? 1 : 0);
    } else if (!stop && w > weights[idx]) {
      weights[idx] = w;
      stops[idx] = 0;
      rel[idx] = relation ? 1 : rel[idx];
    }
    return idx;
  };

  for (const w of words) {
    const lw = w.text.toLowerCase();
    const key = keyOf(w.text);
    if (STOP_WORDS.has(lw) || STOP_KEYS.has(key)) {
      add(key, 0, true, false);
      continue;
    }
    const c = w.text.charCodeAt(0);
    let weight: number;
    let relation = false;
    if (c >= 48 && c <= 57) weight = NUMBER_WEIGHT;
    else if (isUpper(c)) weight = NAME_WEIGHT;
    else if (w.quoted) weight = QUOTED_WEIGHT;
    else if (WEAK_WORDS.has(lw)) {
      weight = WEAK_WEIGHT;
      relation = true;
    } else {
      weight = CONTENT_WEIGHT + (lw.length >= 8 ? 0.25 : 0);
      relation = true;
    }
    if (w.quoted && weight < QUOTED_WEIGHT) weight = QUOTED_WEIGHT;
    seq.push(add(key, weight, false, relation));
  }
  // Every stop word becomes a zero-weight term so the scanner classifies it with the same single lookup.
  for (const k of STOP_KEYS) if (!termIndex.has(k)) add(k, 0, true, false);

  const n = keys.length;
  const pairs = new Set<number>();
  for (let i = 0; i + 1 < seq.length; i++) if (seq[i] !== seq[i + 1]) pairs.add(seq[i] * n + seq[i + 1]);
  let total = 0;
  for (const w of weights) total += w;

  const skilled: SkilledQuestion[] = [];
  for (const s of skills) {
    const sq = s.question?.(asked) ?? null;
    if (sq !== null) skilled.push(sq);
  }
  return {
    text,
    termIndex,
    table: new KeyTable(keys),
    weight: Float64Array.from(weights),
    isStop: Uint8Array.from(stops),
    isRelation: Uint8Array.from(rel),
    pairs,
    nTerms: n,
    totalWeight: total,
    spaced: spacedWords(text),
    answerType,
    typeNounKey: (() => {
      const noun = typeNoun(lower);
      return noun === null ? null : keyOf(noun);
    })(),
    options: parseOptions(text, answerType),
    direction: inferDirection(lower),
    skilled,
  };
}

/**
 * Hash table from word keys to term indices. lookup() finds the key of lower[a..b) exactly as wordKey() does
 * (keyEnd) and hashes it in place, so the scanner allocates nothing per word.
 */
export class KeyTable {
  private readonly slots: Int32Array;
  private readonly mask: number;
  constructor(private readonly keys: readonly string[]) {
    let size = 16;
    while (size < keys.length * 4) size <<= 1;
    this.slots = new Int32Array(size);
    this.mask = size - 1;
    keys.forEach((k, i) => {
      let h = hashRange(k, 0, k.length) & this.mask;
      while (this.slots[h] !== 0) h = (h + 1) & this.mask;
      this.slots[h] = i + 1;
    });
  }

  lookup(lower: string, a: number, b: number): number {
    const end = keyEnd(lower, a, b);
    const len = end - a;
    let h = hashRange(lower, a, end) & this.mask;
    for (;;) {
      const v = this.slots[h];
      if (v === 0) return -1;
      const k = this.keys[v - 1];
      if (k.length === len) {
        let same = true;
        for (let i = 0; i < len; i++) {
          if (k.charCodeAt(i) !== lower.charCodeAt(a + i)) {
            same = false;
            break;
          }
        }
        if (same) return v - 1;
      }
      h = (h + 1) & this.mask;
    }
  }
}


const CACHE_SIZE = 64;
const caches = new WeakMap<readonly ReaderSkill[], Map<string, QuestionInfo>>();

/** analyzeQuestion with a small LRU cache keyed by the question string, one per skill list. */
export function questionInfo(question: string, skills: readonly ReaderSkill[] = NO_SKILLS): QuestionInfo {
  let cache = caches.get(skills);
  if (cache === undefined) {
    cache = new Map();
    caches.set(skills, cache);
  }
  const hit = cache.get(question);
  if (hit !== undefined) {
    cache.delete(question);
    cache.set(question, hit);
    return hit;
  }
  const info = analyzeQuestion(question, skills);
  cache.set(question, info);
  if (cache.size > CACHE_SIZE) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  return info;
}
