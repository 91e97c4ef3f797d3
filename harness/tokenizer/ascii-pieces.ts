// Qwen2's pre-tokenizer pattern, hand-run on ASCII text (where \p{L} is [A-Za-z], \p{N} is [0-9] and \s is
// [\t-\r ]): the same pieces as the regex, without the regex engine's match objects. Alternatives are tried in the
// pattern's order, as the regex does (the first that matches wins, not the longest):
//   (?i:'s|'t|'re|'ve|'m|'ll|'d) | [^\r\n\p{L}\p{N}]?\p{L}+ | \p{N} | ?[^\s\p{L}\p{N}]+[\r\n]* | \s*[\r\n]+ |
//   \s+(?!\S) | \s+
// tests/harness/tokenizer/ascii-pieces.test.ts compares it with the regex on every short string over a stressing
// alphabet and on long random text.

export const QWEN2_PATTERN =
  "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";

/** 1 letter, 2 digit, 3 \r or \n, 4 other whitespace, 0 the rest (punctuation, controls). */
const CLASS = new Uint8Array(128);
for (let c = 65; c <= 90; c++) CLASS[c] = 1;
for (let c = 97; c <= 122; c++) CLASS[c] = 1;
for (let c = 48; c <= 57; c++) CLASS[c] = 2;
CLASS[10] = 3;
CLASS[13] = 3;
CLASS[9] = 4;
CLASS[11] = 4;
CLASS[12] = 4;
CLASS[32] = 4;

const NON_ASCII = /[^\x00-\x7f]/;

export function isAscii(s: string): boolean {
  return !NON_ASCII.test(s);
}

/** End of the piece that starts at i (i < s.length) in the ASCII string s. */
export function qwenAsciiPieceEnd(s: string, i: number): number {
  const n = s.length;
  const c = s.charCodeAt(i);
  const cls = CLASS[c];
  // 'll 're 've and 's 't 'm 'd, in any case.
  if (c === 39 && i + 1 < n) {
    const d = s.charCodeAt(i + 1) | 32;
    if (d === 115 || d === 116 || d === 109 || d === 100) return i + 2;
    if (i + 2 < n) {
      const e = s.charCodeAt(i + 2) | 32;
      if ((d === 108 && e === 108) || (d === 114 && e === 101) || (d === 118 && e === 101)) return i + 3;
    }
  }
  // An optional non-letter, non-digit, non-newline character, then letters.
  if (cls === 1) return letters(s, i + 1);
  if ((cls === 0 || cls === 4) && i + 1 < n && CLASS[s.charCodeAt(i + 1)] === 1) return letters(s, i + 2);
  if (cls === 2) return i + 1;
  // An optional space, punctuation, then newlines.
  let p = c === 32 && i + 1 < n && CLASS[s.charCodeAt(i + 1)] === 0 ? i + 1 : i;
  if (CLASS[s.charCodeAt(p)] === 0) {
    while (p < n && CLASS[s.charCodeAt(p)] === 0) p++;
    while (p < n && CLASS[s.charCodeAt(p)] === 3) p++;
    return p;
  }
  // Whitespace: up to the last newline of the run; else the run less its last character when more text follows.
  let j = i;
  let lastNewline = -1;
  while (j < n && CLASS[s.charCodeAt(j)] >= 3) {
    if (CLASS[s.charCodeAt(j)] === 3) lastNewline = j;
    j++;
  }
  if (lastNewline >= 0) return lastNewline + 1;
  if (j === n || j - i === 1) return j;
  return j - 1;
}

function letters(s: string, i: number): number {
  while (i < s.length && CLASS[s.charCodeAt(i)] === 1) i++;
  return i;
}
