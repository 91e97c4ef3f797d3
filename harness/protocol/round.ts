// Python-compatible rounding, and the one place where 0..1 means become percentages (scorers, `bench score`, reports).

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

/**
 * 'python': round(mean * 100, 2) as Python's round (exact value, ties to even): RULER, MemAgent.
 * 'numpy': numpy's round of a float64 (scale by 100, rint, divide), which LongBench-E's `round(100 * np.mean(...), 2)`
 * applies.
 */
export type PercentStyle = 'python' | 'numpy';

/**
 * LongBench eval.py's `round(100 * total_score / len(predictions), 2)`: scaling the total before dividing can land
 * on the other side of a tie than scaling the mean (13.950000000000001 over 200 gives 6.97 here, 6.98 by toPercent).
 */
export function percentOfTotal(total: number, n: number): number {
  return pyRound((100 * total) / n, 2);
}

function rint(x: number): number {
  const r = Math.round(x);
  // Math.round sends .5 up; rint sends exact halves to the even neighbour.
  return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/** A mean in 0..1 as a percentage with 2 decimals. */
export function toPercent(mean: number, style: PercentStyle = 'python'): number {
  const scaled = mean * 100;
  if (style === 'numpy') return rint(scaled * 100) / 100;
  return pyRound(scaled, 2);
}
