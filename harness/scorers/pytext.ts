// Python string semantics the upstream scorers depend on: str.strip()/str.split() whitespace (wider than JS \s in
// some places, narrower in others), strip(chars), and round(x, n) (half-to-even on the exact binary value).

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

/** Python `s.split()` (no argument): split on runs of whitespace, no empty pieces. */
export function pySplit(s: string): string[] {
  return s.split(RUNS).filter((piece) => piece.length > 0);
}

/**
 * Python `round(x, digits)`: the exact binary value rounded to `digits` decimals, ties to even.
 * (JS toFixed rounds ties away from zero: (3.125).toFixed(2) is "3.13", Python gives 3.12.)
 */
export function pyRound(x: number, digits: number): number {
  if (!Number.isFinite(x) || Math.abs(x) >= 1e21) return x;
  const negative = x < 0;
  // toFixed(100) is the exact decimal expansion for every double of magnitude >= 2^-48, and far finer than needed below.
  const [intPart, frac] = Math.abs(x).toFixed(100).split('.');
  let scaled = BigInt(intPart + frac.slice(0, digits));
  const next = frac.charCodeAt(digits) - 48;
  const tail = frac.slice(digits + 1);
  if (next > 5 || (next === 5 && (/[1-9]/.test(tail) || scaled % 2n === 1n))) scaled += 1n;
  const value = Number(scaled) / 10 ** digits;
  return negative ? -value : value;
}
