// Comparison and yes/no questions: the answer is one of the options (or yes/no), not a span a scorer can pick, so
// find each option's own sentences and compare years, numbers or descriptors found there. Default "yes" when the
// evidence is missing. Why: reference/reader/README.md, "Why it reads this way".

import type { QuestionInfo } from './question.js';
import type { AnalyzedSentence } from './answer.js';
import type { Token } from './spans.js';
import { STOP_WORDS, coreTitle, keyOf, spacedWords } from './text.js';

const COUNTRY_DEMONYM: ReadonlyArray<[string, string]> = [
  ['united states', 'american'],
  ['america', 'american'],
  ['usa', 'american'],
  ['england', 'english'],
  ['britain', 'british'],
  ['united kingdom', 'british'],
  ['scotland', 'scottish'],
  ['wales', 'welsh'],
  ['ireland', 'irish'],
  ['france', 'french'],
  ['germany', 'german'],
  ['italy', 'italian'],
  ['canada', 'canadian'],
  ['australia', 'australian'],
  ['new zealand', 'new zealander'],
  ['japan', 'japanese'],
  ['china', 'chinese'],
  ['india', 'indian'],
  ['russia', 'russian'],
  ['spain', 'spanish'],
  ['mexico', 'mexican'],
  ['sweden', 'swedish'],
  ['norway', 'norwegian'],
  ['denmark', 'danish'],
  ['netherlands', 'dutch'],
  ['belgium', 'belgian'],
  ['switzerland', 'swiss'],
  ['austria', 'austrian'],
  ['poland', 'polish'],
  ['south korea', 'south korean'],
  ['korea', 'korean'],
  ['brazil', 'brazilian'],
  ['argentina', 'argentine'],
  ['greece', 'greek'],
  ['turkey', 'turkish'],
  ['egypt', 'egyptian'],
  ['israel', 'israeli'],
  ['iran', 'iranian'],
  ['pakistan', 'pakistani'],
  ['philippines', 'filipino'],
  ['finland', 'finnish'],
  ['portugal', 'portuguese'],
  ['hungary', 'hungarian'],
  ['czech republic', 'czech'],
  ['ukraine', 'ukrainian'],
  ['nigeria', 'nigerian'],
  ['south africa', 'south african'],
  ['chile', 'chilean'],
  ['colombia', 'colombian'],
  ['cuba', 'cuban'],
  ['jamaica', 'jamaican'],
  ['thailand', 'thai'],
  ['vietnam', 'vietnamese'],
  ['indonesia', 'indonesian'],
  ['taiwan', 'taiwanese'],
  ['iceland', 'icelandic'],
  ['romania', 'romanian'],
  ['serbia', 'serbian'],
  ['croatia', 'croatian'],
  ['peru', 'peruvian'],
  ['venezuela', 'venezuelan'],
  ['lebanon', 'lebanese'],
  ['singapore', 'singaporean'],
  ['malaysia', 'malaysian'],
  ['scotland', 'scots'],
  ['soviet union', 'soviet'],
  ['bulgaria', 'bulgarian'],
  ['slovakia', 'slovak'],
];

/** Lowercase demonyms ("american", "south korean"). */
export const DEMONYMS: ReadonlySet<string> = new Set(COUNTRY_DEMONYM.map(([, d]) => d));
const TO_DEMONYM: ReadonlyMap<string, string> = new Map(COUNTRY_DEMONYM);
/** English, Scottish and Welsh count as British when comparing nationalities. */
const CANONICAL: ReadonlyMap<string, string> = new Map([
  ['english', 'british'],
  ['scottish', 'british'],
  ['scots', 'british'],
  ['welsh', 'british'],
]);

function canonical(d: string): string {
  return CANONICAL.get(d) ?? d;
}

/** First nationality named in the tokens, as a canonical demonym. */
function nationalityIn(tokens: Token[]): string | null {
  for (let k = 0; k < tokens.length; k++) {
    const one = tokens[k].lower.replace(/-born$/, '');
    const two = k + 1 < tokens.length ? `${one} ${tokens[k + 1].lower}` : '';
    if (two && DEMONYMS.has(two)) return canonical(two);
    if (two && TO_DEMONYM.has(two)) return canonical(TO_DEMONYM.get(two) as string);
    if (!tokens[k].cap) continue;
    if (DEMONYMS.has(one)) return canonical(one);
    if (TO_DEMONYM.has(one)) return canonical(TO_DEMONYM.get(one) as string);
  }
  return null;
}

/** Nationalities mentioned in the question (demonyms or country names). */
function nationalitiesInText(text: string): string[] {
  const spaced = spacedWords(text);
  const out: string[] = [];
  for (const [country, dem] of COUNTRY_DEMONYM) {
    if (spaced.includes(` ${country} `) || spaced.includes(` ${dem} `)) out.push(canonical(dem));
  }
  return out;
}

function optionSentences(option: string, sents: AnalyzedSentence[]): AnalyzedSentence[] {
  const o = spacedWords(option);
  if (o.trim().length === 0) return [];
  const own: AnalyzedSentence[] = [];
  const other: AnalyzedSentence[] = [];
  for (const s of sents) {
    const t = s.cand.title === null ? null : spacedWords(coreTitle(s.cand.title));
    if (t !== null && t.trim().length > 0 && (t === o || o.includes(t) || t.includes(o))) own.push(s);
    else if (spacedWords(s.cand.text).includes(o)) other.push(s);
  }
  own.sort((a, b) => a.cand.idx - b.cand.idx || a.cand.order - b.cand.order);
  other.sort((a, b) => b.cand.final - a.cand.final || a.cand.order - b.cand.order);
  return [...own, ...other];
}

/** Maps a parsed option onto the document title it names (a longer or shorter form of it), when there is one. */
function snapToTitle(option: string, sents: AnalyzedSentence[]): string {
  const o = spacedWords(option);
  let best: string | null = null;
  for (const s of sents) {
    if (s.cand.title === null) continue;
    const core = coreTitle(s.cand.title);
    const t = spacedWords(core);
    if (t.trim().length === 0) continue;
    if (t === o) return option;
    if ((t.includes(o) || o.includes(t)) && (best === null || core.length > best.length)) best = core;
  }
  return best ?? option;
}

function optionsFor(q: QuestionInfo, sents: AnalyzedSentence[]): string[] {
  if (q.options.length >= 2) return q.options.map((o) => snapToTitle(o, sents));
  // Fall back to document titles named in the question, in question order.
  const found: { pos: number; core: string }[] = [];
  const seen = new Set<string>();
  for (const s of sents) {
    if (s.cand.title === null) continue;
    const core = coreTitle(s.cand.title);
    if (seen.has(core)) continue;
    seen.add(core);
    const pos = q.spaced.indexOf(spacedWords(core));
    if (pos >= 0 && core.length >= 3) found.push({ pos, core });
  }
  found.sort((a, b) => a.pos - b.pos || (a.core < b.core ? -1 : 1));
  return found.slice(0, 2).map((f) => f.core);
}

const YEAR = /^(1[0-9]|20)\d\d$/;
const NUMBER_WORD_VALUE: ReadonlyMap<string, number> = new Map(
  ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'].map(
    (w, i) => [w, i] as [string, number],
  ),
);

function firstYear(sents: AnalyzedSentence[]): number | null {
  for (const s of sents) for (const t of s.tokens) if (t.num && YEAR.test(t.text)) return Number(t.text);
  return null;
}

/** The number closest to a relation word of the question in the option's sentences (years excluded). */
function relevantNumber(q: QuestionInfo, sents: AnalyzedSentence[]): number | null {
  let best: number | null = null;
  let bestD = Infinity;
  for (const s of sents) {
    const rel: number[] = [];
    s.tokens.forEach((t, k) => {
      const i = q.termIndex.get(t.key);
      if (i !== undefined && q.isRelation[i] === 1) rel.push(k);
    });
    s.tokens.forEach((t, k) => {
      let v: number | null = null;
      if (t.num && !YEAR.test(t.text)) v = Number(t.text.replace(/,/g, ''));
      else if (NUMBER_WORD_VALUE.has(t.lower)) v = NUMBER_WORD_VALUE.get(t.lower) as number;
      if (v === null || !Number.isFinite(v)) return;
      const d = rel.length === 0 ? 50 : Math.min(...rel.map((r) => Math.abs(r - k)));
      if (d < bestD) {
        bestD = d;
        best = v;
      }
    });
  }
  return best;
}

/** Question terms that describe the property (not part of any option's name). */
function descriptorTerms(q: QuestionInfo, options: string[]): number[] {
  const optionKeys = new Set<number>();
  for (const o of options) {
    for (const w of o.split(/[^\p{L}\p{N}]+/u)) {
      const i = q.termIndex.get(keyOf(w));
      if (i !== undefined) optionKeys.add(i);
    }
  }
  const out: number[] = [];
  for (let i = 0; i < q.nTerms; i++) if (q.isStop[i] === 0 && q.weight[i] > 0 && !optionKeys.has(i)) out.push(i);
  return out;
}

function coverage(q: QuestionInfo, terms: number[], sents: AnalyzedSentence[], wantNat: string[]): number {
  let total = 0;
  let found = 0;
  const have = new Set<number>();
  for (const s of sents) {
    for (const t of s.terms) have.add(t);
    for (const t of s.titleTerms) have.add(t);
  }
  for (const t of terms) {
    total += q.weight[t];
    if (have.has(t)) found += q.weight[t];
  }
  if (wantNat.length > 0) {
    total += 3;
    const nat = sents.map((s) => nationalityIn(s.tokens)).find((n) => n !== null) ?? null;
    if (nat !== null && wantNat.includes(nat)) found += 3;
  }
  return total === 0 ? 1 : found / total;
}

/** First capitalised place after "in"/"at" in the option's sentences. */
function placeOf(sents: AnalyzedSentence[], option: string): string | null {
  const o = spacedWords(option);
  for (const s of sents) {
    const toks = s.tokens;
    for (let k = 0; k + 1 < toks.length; k++) {
      if (toks[k].lower !== 'in' && toks[k].lower !== 'at') continue;
      let j = k + 1;
      if (toks[j].lower === 'the') j++;
      if (j < toks.length && toks[j].cap) {
        const w = toks[j].lower;
        if (!o.includes(` ${w} `) && !/^\d/.test(w)) return w;
      }
    }
  }
  return null;
}

const PROFESSIONS: ReadonlySet<string> = new Set(
  `actor actress director producer writer author singer songwriter musician composer screenwriter poet novelist
  journalist politician painter architect comedian model dancer rapper guitarist drummer photographer filmmaker
  playwright lyricist editor critic historian philosopher scientist physicist chemist engineer lawyer diplomat
  businessman entrepreneur presenter host broadcaster footballer player coach activist artist illustrator animator
  cinematographer conductor pianist violinist vocalist`.split(/\s+/),
);

/** Generic head nouns and other words that are never the shared property itself. */
const GENERIC: ReadonlySet<string> = new Set(
  `film films band group album song series novel book company born known american former best also music genre
  type kind work works professional profession person people member members january february march april may june
  july august september october november december`.split(/\s+/),
);

/** "What do A and B have in common?": a lowercase word both options' own sentences share, earliest first. */
export function answerCommon(q: QuestionInfo, sents: AnalyzedSentence[]): string | null {
  const options = optionsFor(q, sents);
  if (options.length < 2) return null;
  const lower = q.text.toLowerCase();
  const wantsProfession = /profession|occupation|job|career|known for|work as|worked as/.test(lower);
  const wantsNationality = /nationality|country/.test(lower);
  const optionWords = new Set(options.flatMap((o) => spacedWords(o).trim().split(' ')));
  const firstPos = (ss: AnalyzedSentence[]): Map<string, number> => {
    const pos = new Map<string, number>();
    let base = 0;
    for (const s of ss.slice(0, 3)) {
      s.tokens.forEach((t, k) => {
        const w = t.lower;
        if (!/^[a-z][a-z-]{2,}$/.test(w) && !(wantsNationality && DEMONYMS.has(w))) return;
        if (STOP_WORDS.has(w) || GENERIC.has(w) || optionWords.has(w) || q.spaced.includes(` ${w} `)) return;
        if (!wantsNationality && DEMONYMS.has(w)) return;
        if (!pos.has(w)) pos.set(w, base + k);
      });
      base += 100;
    }
    return pos;
  };
  const pa = firstPos(optionSentences(options[0], sents));
  const pb = firstPos(optionSentences(options[1], sents));
  let best: string | null = null;
  let bestScore = Infinity;
  for (const [w, a] of pa) {
    const b = pb.get(w);
    if (b === undefined) continue;
    const score = a + b - (wantsProfession && PROFESSIONS.has(w) ? 1000 : 0);
    if (score < bestScore || (score === bestScore && best !== null && w < best)) {
      bestScore = score;
      best = w;
    }
  }
  return best;
}

export function answerComparison(q: QuestionInfo, sents: AnalyzedSentence[]): string {
  const options = optionsFor(q, sents);
  const lower = q.text.toLowerCase();
  if (q.answerType === 'choice') {
    if (options.length < 2) return 'yes';
    const [a, b] = options;
    const sa = optionSentences(a, sents);
    const sb = optionSentences(b, sents);
    if (q.direction === 'earlier' || q.direction === 'later') {
      const ya = firstYear(sa);
      const yb = firstYear(sb);
      if (ya !== null && yb !== null && ya !== yb) return ya < yb === (q.direction === 'earlier') ? a : b;
      if (ya !== null && yb === null) return a;
      if (yb !== null && ya === null) return b;
    }
    if (q.direction === 'more' || q.direction === 'less') {
      const na = relevantNumber(q, sa);
      const nb = relevantNumber(q, sb);
      if (na !== null && nb !== null && na !== nb) return na > nb === (q.direction === 'more') ? a : b;
    }
    const terms = descriptorTerms(q, options);
    const nat = nationalitiesInText(q.text);
    const ca = coverage(q, terms, sa, nat);
    const cb = coverage(q, terms, sb, nat);
    if (cb > ca) return b;
    return a;
  }
  // yes/no
  if (options.length < 2) return 'yes';
  const [a, b] = options;
  const sa = optionSentences(a, sents);
  const sb = optionSentences(b, sents);
  if (sa.length === 0 || sb.length === 0) return 'yes';
  if (/\bsame\b/.test(lower)) {
    if (/nationality|country|citizen/.test(lower)) {
      const na = sa.map((s) => nationalityIn(s.tokens)).find((n) => n !== null) ?? null;
      const nb = sb.map((s) => nationalityIn(s.tokens)).find((n) => n !== null) ?? null;
      if (na !== null && nb !== null) return na === nb ? 'yes' : 'no';
      return 'yes';
    }
    const pa = placeOf(sa, a);
    const pb = placeOf(sb, b);
    if (pa !== null && pb !== null) return pa === pb ? 'yes' : 'no';
    return 'yes';
  }
  const terms = descriptorTerms(q, options);
  const nat = nationalitiesInText(q.text);
  const ca = coverage(q, terms, sa, nat);
  const cb = coverage(q, terms, sb, nat);
  if (Math.min(ca, cb) < 0.5 && Math.max(ca, cb) - Math.min(ca, cb) >= 0.4) return 'no';
  return 'yes';
}
