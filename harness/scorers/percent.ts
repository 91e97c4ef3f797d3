// The one place where 0..1 means become percentages.
import { pyRound } from './pytext.js';

/**
 * 'python': round(mean * 100, 2) as Python's round (exact value, ties to even): RULER, MemAgent, LongBench.
 * 'numpy': numpy's round of a float64 (scale by 100, rint, divide), which LongBench-E's `round(100 * np.mean(...), 2)`
 * applies.
 */
export type PercentStyle = 'python' | 'numpy';

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
