// Translates a tiktoken/HF pre-tokenizer pattern (Rust regex / Oniguruma syntax) into an equivalent JS RegExp.
// V8's regex engine runs these patterns several times faster than tiktoken's WASM build of fancy-regex, and stays
// linear on very long runs of one character class, where tiktoken's backtracking limit panics.

// In Rust regex and Oniguruma \s is Unicode White_Space; JS \s differs (it adds U+FEFF and lacks U+0085).
const WS = '\\p{White_Space}';
const NOT_WS = '\\P{White_Space}';
// Case-insensitive contractions, spelled out: Node 20 has no inline (?i:...). Unicode simple case folding maps
// U+017F (long s) to "s", so Rust's and Oniguruma's (?i)s match it too; no other character folds to t, r, e, v, m, l, d.
const CONTRACTIONS = "(?i:'s|'t|'re|'ve|'m|'ll|'d)";
const CONTRACTIONS_JS = "(?:'[sS\\u017F]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])";

/** The pattern as a global, Unicode-aware JS RegExp. Throws on syntax this translation does not cover. */
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
    else if (/[pPrntu/\\\-\[\]{}()|.*+?^$]/.test(next)) out += ch + next;
    else throw new Error(`unsupported escape \\${next} in tokenizer pattern`);
  }
  return new RegExp(out, 'gu');
}
