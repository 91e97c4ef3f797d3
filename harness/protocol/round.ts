// Python-compatible rounding, and the one place where 0..1 scores become percentages (scorers, `bench score`,
// summaries, reports, gate messages): scorePercent.

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
 * How a group's mean becomes a percentage with 2 decimals:
 * - 'mean': Python's round(100 * mean, 2) (RULER, MemAgent, BABILong and every task that is not LongBench's);
 * - 'total': LongBench eval.py's round(100 * total_score / len(predictions), 2): scaling the total before dividing
 *   can land on the other side of a tie (13.950000000000001 over 200 gives 6.97, 'mean' gives 6.98);
 * - 'numpy-mean': LongBench-E's round(100 * np.mean(scores), 2), numpy's round of a float64 (scale by 100, rint,
 *   divide), of a mean summed as numpy sums (numpySum).
 */
export type PercentRule = 'mean' | 'total' | 'numpy-mean';

/** LongBench v1 and LongBench-E ('longbench/<dataset>') and LongBench v2 ('longbench-v2'). */
const LONGBENCH_TASK = /^longbench(\/|-v2$)/;

/**
 * The rule a task's scores are shown by: LongBench's tasks by their eval's, every other task by 'mean'. `numpyBuckets`:
 * the row is one of LongBench-E's length buckets (a breakdown row), which its eval averages with numpy.
 */
export function percentRuleOf(task: string, numpyBuckets = false): PercentRule {
  if (!LONGBENCH_TASK.test(task)) return 'mean';
  return numpyBuckets ? 'numpy-mean' : 'total';
}

function rint(x: number): number {
  const r = Math.round(x);
  // Math.round sends .5 up; rint sends exact halves to the even neighbour.
  return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/**
 * A mean score 0..1 as a percentage with 2 decimals, by `rule`. 'total' needs the group's `n` and the `total` its
 * samples sum to (in sample order); without them (a baseline entry holds only mean and n) total is mean × n.
 */
export function scorePercent(rule: PercentRule, mean: number, n = 1, total = mean * n): number {
  if (rule === 'total') return pyRound((100 * total) / n, 2);
  if (rule === 'numpy-mean') return rint(mean * 100 * 100) / 100;
  return pyRound(mean * 100, 2);
}

/**
 * numpy's float64 sum (pairwise, 8-way unrolled blocks of up to 128), so LongBench-E's np.mean is reproduced to the
 * last bit.
 */
export function numpySum(values: readonly number[], lo = 0, hi = values.length): number {
  const n = hi - lo;
  if (n < 8) {
    let s = -0.0;
    for (let i = lo; i < hi; i++) s += values[i];
    return s;
  }
  if (n <= 128) {
    const r = values.slice(lo, lo + 8);
    let i = lo + 8;
    for (; i + 8 <= hi; i += 8) for (let k = 0; k < 8; k++) r[k] += values[i + k];
    let s = r[0] + r[1] + (r[2] + r[3]) + (r[4] + r[5] + (r[6] + r[7]));
    for (; i < hi; i++) s += values[i];
    return s;
  }
  let half = Math.floor(n / 2);
  half -= half % 8;
  return numpySum(values, lo, lo + half) + numpySum(values, lo + half, hi);
}

/** The percentage of per-sample scores (0..1, in sample order) by `rule`, summed as that rule's tool sums them. */
export function percentOfScores(rule: PercentRule, scores: readonly number[]): number {
  const n = scores.length;
  let total = 0;
  if (rule === 'numpy-mean') total = numpySum(scores);
  else for (const s of scores) total += s;
  return scorePercent(rule, total / n, n, total);
}
