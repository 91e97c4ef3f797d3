// Character classes, word keys and stop words shared by the reference reader's scanners.

export { detached } from '../../harness/util/detached.js';

/** Per-ASCII-code class: 1 word char, 2 sentence terminator, 3 newline, 0 other. */
export const CHAR_CLASS = new Uint8Array(128);
for (let c = 48; c <= 57; c++) CHAR_CLASS[c] = 1;
for (let c = 65; c <= 90; c++) CHAR_CLASS[c] = 1;
for (let c = 97; c <= 122; c++) CHAR_CLASS[c] = 1;
CHAR_CLASS[46] = 2; // .
CHAR_CLASS[33] = 2; // !
CHAR_CLASS[63] = 2; // ?
CHAR_CLASS[10] = 3; // \n

/** Letters outside ASCII count as word characters, except general punctuation, CJK punctuation and U+FFFD. */
export function isWideWordChar(c: number): boolean {
  return c >= 0xc0 && (c < 0x2000 || c > 0x2bff) && (c < 0x3000 || c > 0x303f) && c !== 0xfffd && c !== 0xfeff;
}

export function isWordChar(c: number): boolean {
  return c < 128 ? CHAR_CLASS[c] === 1 : isWideWordChar(c);
}

export function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

export function isUpper(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 0xc0 && c <= 0xde && c !== 0xd7);
}

export function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 9 || c === 13 || c === 160;
}

/**
 * End of the matching key of the lowercased word lower[a..b): a light stemmer that only ever shortens the word,
 * so the key is always a prefix. Drops a plural "s", else "ed"/"ing"; then a doubled final consonant
 * ("starr" → "star"); then cuts to 6 characters, so "directed"/"director", "owns"/"owned" and
 * "nation"/"nationality" meet. Crude, cheap, deterministic.
 */
export function keyEnd(lower: string, a: number, b: number): number {
  let end = b;
  const len = b - a;
  const last = lower.charCodeAt(end - 1);
  if (len > 3 && last === 115 && lower.charCodeAt(end - 2) !== 115) end--;
  else if (len > 4 && last === 100 && lower.charCodeAt(end - 2) === 101) end -= 2;
  else if (len > 5 && last === 103 && lower.charCodeAt(end - 2) === 110 && lower.charCodeAt(end - 3) === 105) end -= 3;
  if (end - a >= 3) {
    const c = lower.charCodeAt(end - 1);
    if (c === lower.charCodeAt(end - 2) && DOUBLED[c] === 1) end--;
  }
  if (end - a > 6) end = a + 6;
  return end;
}

/** Consonants whose doubling is undone after a stripped suffix (b d g m n p r t). */
const DOUBLED = new Uint8Array(128);
for (const ch of 'bdgmnprt') DOUBLED[ch.charCodeAt(0)] = 1;

export function wordKey(lower: string, a: number, b: number): string {
  return lower.slice(a, keyEnd(lower, a, b));
}

export function keyOf(word: string): string {
  const lower = word.toLowerCase();
  return wordKey(lower, 0, lower.length);
}

const STOP_WORDS_RAW = `a about above after again against all also am an and any are aren't as at be because been before being
below between both but by can could did do does doing don't down during each few for from further had has have having he
her here hers herself him himself his how i if in into is isn't it its itself just me more most my myself no nor not of
off on once only or other our ours ourselves out over own same she should so some such than that the their theirs them
themselves then there these they this those through to too under until up very was wasn't we were what when where which
while who whom whose why will with would you your yours yourself yourselves s t d ll m re ve also which whose whom
many much one ones another among onto upon via per within without whether either neither yes shall may might must
name named called known kind type thing things`;

/** Stop words carry no weight in question terms (kept as keys so lookups classify them in one step). */
export const STOP_WORDS: ReadonlySet<string> = new Set(STOP_WORDS_RAW.split(/\s+/).filter((w) => w.length > 0));

/** Keys of the stop words, for fast classification of scanned words. */
export const STOP_KEYS: ReadonlySet<string> = new Set([...STOP_WORDS].map((w) => keyOf(w)));

/** Words that look like content but say little about which sentence answers a question. */
export const WEAK_WORDS: ReadonlySet<string> = new Set(
  `first last new old famous based located american born later former current currently also well best
  year years city country state town place person people man woman group film album song band book novel series
  work works part member members became become known used include includes including released`
    .split(/\s+/)
    .filter((w) => w.length > 0),
);

/** Abbreviations after which a period does not end a sentence (lowercased, without the period). */
export const ABBREVIATIONS: ReadonlySet<string> = new Set(
  `mr mrs ms dr st jr sr inc ltd co corp vs no mt ft gen col lt sgt capt rev prof gov sen rep pres u.s u.k e.g i.e
  etc jan feb mar apr jun jul aug sep sept oct nov dec est approx fig al op vol ed bros`
    .split(/\s+/)
    .filter((w) => w.length > 0),
);

/** SQuAD-style normalisation: lowercase, drop ASCII punctuation and a/an/the, collapse whitespace. */
export function normalizeAnswer(s: string): string {
  return s
    .toLowerCase()
    .replace(/[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g, '')
    .replace(/\b(a|an|the)\b/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Lowercase words separated by single spaces, with a space at each end, for whole-word containment tests. */
export function spacedWords(s: string): string {
  const words = s.toLowerCase().match(/[\p{L}\p{N}]+/gu);
  return words === null ? ' ' : ` ${words.join(' ')} `;
}

/** A title without its trailing parenthetical ("Ed Wood (film)" → "Ed Wood"). */
export function coreTitle(title: string): string {
  const t = title.trim();
  const p = t.indexOf(' (');
  return (p > 0 ? t.slice(0, p) : t).trim();
}

/** Rough token count for budgeting: digits and non-ASCII characters cost about one token each. */
export function estimateTokens(s: string): number {
  return estimateTokensWith(s, 0, 0);
}

/** estimateTokens of `s` with `digits` more digit characters and `others` more ASCII non-digits, unbuilt. */
export function estimateTokensWith(s: string, digits: number, others: number): number {
  const heavy = heavyChars(s, 0, s.length);
  return digits + heavy + (s.length + others - heavy) / 3.6;
}

/** Digits and non-ASCII characters in s[a..b): what estimateTokens counts as a token each. */
export function heavyChars(s: string, a: number, b: number): number {
  let n = 0;
  for (let i = a; i < b; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 48 && c <= 57) || c >= 128) n++;
  }
  return n;
}

/** Code units whose lowercase alone differs from their lowercase inside a text, or is longer than one unit: İ (two
 *  units), Σ (final sigma depends on its neighbours) and surrogates (a pair is lowercased as one code point). */
const CONTEXT_CASED = /[\u0130\u03a3\ud800-\udfff]/g;

/**
 * Each UTF-16 unit of s lowercased alone, or kept where its lowercase is longer, so indices stay aligned with s.
 * Every other unit lowercases alone as it does in context, so the runs between those units are lowercased whole.
 */
export function lowerUnitByUnit(s: string): string {
  let out = '';
  let from = 0;
  CONTEXT_CASED.lastIndex = 0;
  for (let m = CONTEXT_CASED.exec(s); m !== null; m = CONTEXT_CASED.exec(s)) {
    const unit = m[0];
    const lower = unit.toLowerCase();
    out += s.slice(from, m.index).toLowerCase() + (lower.length === 1 ? lower : unit);
    from = m.index + 1;
  }
  return out + s.slice(from).toLowerCase();
}
