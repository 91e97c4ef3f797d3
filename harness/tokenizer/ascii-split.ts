// The pre-tokenizer pattern of Qwen2.5 and cl100k_base, hand-run on ASCII-only text: the same pieces as the regex
// (tests/harness/tokenizer/ascii-split.test.ts compares them), found without a match object or a string per piece.
// Memories and most prompts are ASCII; text with any other character goes through the regex.
//
//   (?i:'s|'t|'re|'ve|'m|'ll|'d) | [^\r\n\p{L}\p{N}]?\p{L}+ | \p{N}{1,D} | ' '?[^\s\p{L}\p{N}]+[\r\n]*
//   | \s*[\r\n]+ | \s+(?!\S) | \s+                          (D = 1 for Qwen2.5, 3 for cl100k_base)

const QWEN_PATTERN =
  "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";
const CL100K_PATTERN =
  "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";

/** Digits per number piece when the pattern is one this splitter runs, else undefined. */
export function asciiDigitRun(patStr: string): number | undefined {
  return patStr === QWEN_PATTERN ? 1 : patStr === CL100K_PATTERN ? 3 : undefined;
}

/** ASCII classes: 1 letter, 2 digit, 3 CR or LF, 4 other white space, 0 anything else. */
const CLASS = new Uint8Array(128);
for (let c = 65; c <= 90; c++) CLASS[c] = 1;
for (let c = 97; c <= 122; c++) CLASS[c] = 1;
for (let c = 48; c <= 57; c++) CLASS[c] = 2;
CLASS[10] = CLASS[13] = 3;
CLASS[9] = CLASS[11] = CLASS[12] = CLASS[32] = 4;

/** Whether every char of s is ASCII. */
export function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 128) return false;
  return true;
}

/** The end of the piece that starts at i of the ASCII string s (the pattern's leftmost alternative that matches). */
export function asciiPieceEnd(s: string, i: number, digits: number): number {
  const n = s.length;
  const c = s.charCodeAt(i);
  const k = CLASS[c];
  const next = i + 1 < n ? s.charCodeAt(i + 1) : -1;
  const kn = next < 0 ? -1 : CLASS[next];
  if (c === 39 && next >= 0) {
    const lc = next | 32;
    if (lc === 115 || lc === 116 || lc === 109 || lc === 100) return i + 2; // 's 't 'm 'd
    const third = i + 2 < n ? s.charCodeAt(i + 2) | 32 : -1;
    if ((lc === 114 || lc === 118) && third === 101) return i + 3; // 're 've
    if (lc === 108 && third === 108) return i + 3; // 'll
  }
  if (k === 1) return run(s, i + 1, 1);
  if ((k === 0 || k === 4) && kn === 1) return run(s, i + 2, 1);
  if (k === 2) {
    let e = i + 1;
    while (e < n && e - i < digits && CLASS[s.charCodeAt(e)] === 2) e++;
    return e;
  }
  if (c === 32 && kn === 0) return crlf(s, run(s, i + 2, 0));
  if (k === 0) return crlf(s, run(s, i + 1, 0));
  // White space: through its last CR/LF; else all of it at the end, all but the last before text, or one char.
  let q = i + 1;
  while (q < n && CLASS[s.charCodeAt(q)] >= 3) q++;
  for (let j = q - 1; j >= i; j--) if (CLASS[s.charCodeAt(j)] === 3) return j + 1;
  if (q === n || q - i === 1) return q;
  return q - 1;
}

/** End of the run of class k from i. */
function run(s: string, i: number, k: number): number {
  while (i < s.length && CLASS[s.charCodeAt(i)] === k) i++;
  return i;
}

/** End of the CR/LF run from i. */
function crlf(s: string, i: number): number {
  return run(s, i, 3);
}
