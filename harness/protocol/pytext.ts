// Python string semantics the upstream scorers and drivers depend on: str.strip()/str.split() whitespace (wider than
// JS \s in some places, narrower in others) and strip(chars). Rounding is in round.ts.

/** Characters Python's str.isspace() accepts: \t-\r, \x1c-\x1f, space, \x85, \xa0 and the Unicode spaces. */
const PY_SPACE = '\\t-\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const LEADING = new RegExp(`^[${PY_SPACE}]+`);
const TRAILING = new RegExp(`[${PY_SPACE}]+$`);
const RUNS = new RegExp(`[${PY_SPACE}]+`);

/** Python `s.strip()` (no argument), or `s.strip(chars)` when chars is given. */
export function pyStrip(s: string, chars?: string): string {
  if (chars === undefined) return s.replace(LEADING, '').replace(TRAILING, '');
  const set = new Set(Array.from(chars));
  const cps = Array.from(s);
  let lo = 0;
  let hi = cps.length;
  while (lo < hi && set.has(cps[lo])) lo++;
  while (hi > lo && set.has(cps[hi - 1])) hi--;
  return cps.slice(lo, hi).join('');
}

/** Python `s.lstrip()` (no argument). */
export const pyStripStart = (s: string): string => s.replace(LEADING, '');

/** Python `s.rstrip()` (no argument). */
export const pyStripEnd = (s: string): string => s.replace(TRAILING, '');

/** Python `s.split()` (no argument): split on runs of whitespace, no empty pieces. */
export function pySplit(s: string): string[] {
  return s.split(RUNS).filter((piece) => piece.length > 0);
}

/** Python's str.isspace() for one UTF-16 unit: JavaScript's \s without U+FEFF, plus U+001C..U+001F and U+0085. */
export function isPySpace(c: number): boolean {
  return (
    (c >= 0x09 && c <= 0x0d) ||
    (c >= 0x1c && c <= 0x20) ||
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}
