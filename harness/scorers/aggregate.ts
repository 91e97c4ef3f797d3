// Per-group accumulation for `bench score`: means stay 0..1; percentages are made once, by scorePercent.
import { numpySum, scorePercent, type PercentRule } from '../protocol/round.js';

export { numpySum } from '../protocol/round.js';

export interface ScoreRow {
  task: string;
  method: string;
  model: string;
  lengthLabel: string;
  metric: string;
  /** Samples in the group, errors included. */
  n: number;
  /** Samples with status 'error' (scored 0, counted in n). */
  errors: number;
  /** Samples with status 'truncated' (scored 0, counted in n). */
  truncated: number;
  /** Samples whose prediction is null or empty. */
  empty: number;
  /** Mean headline score, 0..1; null for an empty group (e.g. a length bucket with no sample). */
  mean: number | null;
  /** mean ×100, 2 decimals, by the group's PercentRule (scorePercent); null when mean is. */
  percent: number | null;
  /** Means of the extra metrics (em, f1, rouge1_r, ...), 0..1. */
  extras: Record<string, number>;
  /** What the upstream tool reported for this group, already ×100, to compare with `percent`. */
  reference?: number | null;
  /** Where `reference` comes from, e.g. "result.json" or "recorded in samples.jsonl". */
  referenceLabel?: string;
}

export interface ScoreTable {
  target: string;
  /** 'run' (a bench run's samples.jsonl) or the name of the ScoreSource that read the files. */
  format: string;
  rows: ScoreRow[];
  warnings: string[];
  /** How a metric was chosen where the files did not say it themselves (e.g. from a folder name). */
  notes?: string[];
}

export interface GroupKey {
  task: string;
  method: string;
  model: string;
  lengthLabel: string;
  metric: string;
}

export class Group {
  readonly scores: number[] = [];
  private readonly extraSums = new Map<string, number>();
  errors = 0;
  truncated = 0;
  empty = 0;
  private referenceSum = 0;
  private referenceCount = 0;

  constructor(readonly key: GroupKey) {}

  add(
    score: number,
    extras: Record<string, number>,
    status: 'ok' | 'error' | 'truncated',
    prediction: string | null,
  ): void {
    this.scores.push(score);
    for (const [k, v] of Object.entries(extras)) this.extraSums.set(k, (this.extraSums.get(k) ?? 0) + v);
    if (status === 'error') this.errors++;
    if (status === 'truncated') this.truncated++;
    if (prediction === null || prediction === '') this.empty++;
  }

  addReference(value: number): void {
    this.referenceSum += value;
    this.referenceCount++;
  }

  /**
   * Mean in file order (sequential sum, as Python's sum / total += does), or numpy's pairwise mean for the
   * 'numpy-mean' rule; the percentage by `rule` (default 'mean').
   */
  row(
    opts: {
      rule?: PercentRule;
      reference?: number | null;
      referenceLabel?: string;
    } = {},
  ): ScoreRow {
    const rule = opts.rule ?? 'mean';
    const n = this.scores.length;
    let mean: number | null = null;
    let sum = 0;
    if (n > 0) {
      if (rule === 'numpy-mean') sum = numpySum(this.scores);
      else for (const s of this.scores) sum += s;
      mean = sum / n;
    }
    const extras: Record<string, number> = {};
    for (const [k, v] of this.extraSums) extras[k] = n > 0 ? v / n : 0;
    const row: ScoreRow = {
      ...this.key,
      n,
      errors: this.errors,
      truncated: this.truncated,
      empty: this.empty,
      mean,
      percent: mean === null ? null : scorePercent(rule, mean, n, sum),
      extras,
    };
    const reference =
      opts.reference !== undefined
        ? opts.reference
        : this.referenceCount > 0
          ? scorePercent(rule, this.referenceSum / this.referenceCount, this.referenceCount, this.referenceSum)
          : undefined;
    if (reference !== undefined) {
      row.reference = reference;
      row.referenceLabel = opts.referenceLabel;
    }
    return row;
  }
}
