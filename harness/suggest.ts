// Closest-name suggestions for mistyped task names, flags, commands and methods ("did you mean ruler-hqa?").

/**
 * Damerau–Levenshtein distance in its optimal-string-alignment form: insertions, deletions, substitutions and swaps
 * of two adjacent characters each cost 1 (a substring is not edited twice). Compares UTF-16 code units.
 */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  // Three rolling rows: two rows back (for swaps), the previous one and the current one.
  let back = new Array<number>(b.length + 1).fill(0);
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  let cur = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, back[j - 2] + 1);
      cur[j] = d;
    }
    [back, prev, cur] = [prev, cur, back];
  }
  return prev[b.length];
}

/**
 * The candidates closest to `input` (case-insensitive), if close enough to be a likely typo: at most
 * max(1, ⌊length/3⌋) edits, in candidate order; else the one candidate that `input` is a prefix of. Empty when none.
 */
export function closestAll(input: string, candidates: readonly string[]): string[] {
  const x = input.toLowerCase();
  if (x === '') return [];
  const limit = Math.max(1, Math.floor(x.length / 3));
  const distances = candidates.map((c) => editDistance(x, c.toLowerCase()));
  const best = Math.min(...distances);
  if (best <= limit) return candidates.filter((_, i) => distances[i] === best);
  const prefixed = candidates.filter((c) => c.toLowerCase().startsWith(x));
  return prefixed.length === 1 ? prefixed : [];
}

/** The closest candidate (ties go to the earlier one), as closestAll finds them. */
export function closest(input: string, candidates: readonly string[]): string | undefined {
  return closestAll(input, candidates)[0];
}

/** " (did you mean X?)" for the closest candidates (up to three, "X, Y or Z" on a tie), or '' when none is close.
 *  `show` formats each (e.g. adds --). */
export function didYouMean(
  input: string,
  candidates: readonly string[],
  show: (c: string) => string = (c) => c,
): string {
  const names = closestAll(input, candidates).slice(0, 3).map(show);
  if (names.length === 0) return '';
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
  return ` (did you mean ${list}?)`;
}
