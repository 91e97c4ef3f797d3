// Translates a tiktoken/HF pre-tokenizer pattern (Rust regex / Oniguruma syntax) into an equivalent JS RegExp.
// Needed only for the slow path (pieces too long for tiktoken's quadratic merge); the fast path uses tiktoken's own regex.

// In Rust regex and Oniguruma \s is Unicode White_Space; JS \s differs (it adds U+FEFF and lacks U+0085).
const WS = '\\p{White_Space}';
const NOT_WS = '\\P{White_Space}';
// Case-insensitive contractions, spelled out: JS before ES2025 has no inline (?i:...). Unicode simple case folding
// maps U+017F (long s) to "s", so Rust's (?i)s matches it too.
const CONTRACTIONS = "(?i:'s|'t|'re|'ve|'m|'ll|'d)";
const CONTRACTIONS_JS = "(?:'[sS\\u017F]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])";

export function toJsRegExp(patStr: string): RegExp {
  const expanded = patStr.split(CONTRACTIONS).join(CONTRACTIONS_JS);
  if (expanded.includes('(?i')) throw new Error(`unsupported inline flag in tokenizer pattern: ${patStr}`);
  let out = '';
  for (let i = 0; i < expanded.length; i++) {
    const ch = expanded[i];
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    const next = expanded[++i];
    if (next === 's') out += WS;
    else if (next === 'S') out += NOT_WS;
    else out += ch + next;
  }
  return new RegExp(out, 'gu');
}

/** Splits text into pre-tokens with the translated pattern. Every character of text lands in some piece. */
export function* pieces(re: RegExp, text: string): Generator<string> {
  re.lastIndex = 0;
  let at = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    if (m.index !== at) throw new Error('tokenizer pattern skipped part of the text');
    if (m[0].length === 0) throw new Error('tokenizer pattern matched an empty piece');
    at = re.lastIndex;
    yield m[0];
  }
  if (at !== text.length) throw new Error('tokenizer pattern skipped the end of the text');
}

/**
 * A run of this many characters of one class can make a pre-token long enough that tiktoken's quadratic merge
 * (and its regex backtrack limit, which panics near 10^6) becomes a problem. Without such a run every piece of the
 * supported patterns (Qwen2, cl100k, o200k) has at most 2 * LONG_RUN + 4 characters: a piece is an optional
 * one-character prefix, at most two runs of one class each (o200k's punctuation piece may end in a [\r\n/] run),
 * and an optional contraction suffix.
 */
export const LONG_RUN = 400;
export const LONG_RUN_RE = new RegExp(
  `[\\p{L}\\p{M}]{${LONG_RUN},}|${WS}{${LONG_RUN},}|[^${WS}\\p{L}\\p{N}]{${LONG_RUN},}|\\p{N}{${LONG_RUN},}|[\\r\\n/]{${LONG_RUN},}`,
  'u',
);
