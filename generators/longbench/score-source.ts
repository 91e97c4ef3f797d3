// Scores a LongBench v1 pred directory (pred/<model>/*.jsonl, as THUDM/LongBench LongBench/pred.py writes it) the way
// LongBench/eval.py does: dataset = file name up to the first '.', per-sample max over golds, round(100 * total / n, 2);
// LongBench-E buckets by `length`: 0-4k (< 4000), 4-8k (< 8000), 8k+.
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { UserError } from '../../harness/errors.js';
import { LONGBENCH_E_BUCKETS, longbenchEBucket, longbenchMetricFor } from './protocol.js';
import { Group, type ScoreRow } from '../../harness/scorers/aggregate.js';
import { getMetric, type MetricRegistry } from '../../harness/scorers/metric.js';
import { cleanPrediction, type ScoreSource, type TokenTally } from '../../harness/scorers/sources/source.js';
import { isStringArray, lineError, readJsonl } from '../../harness/run-dir/jsonl.js';
import { plural } from '../../harness/util/plural.js';

type Reference = Record<string, number | Record<string, number | null> | null>;

function readReference(dir: string, warnings: string[]): Reference | undefined {
  const path = join(dir, 'result.json');
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8').replace(/\bNaN\b/g, 'null')) as Reference;
  } catch {
    warnings.push(`${path}: not valid JSON; not compared`);
    return undefined;
  }
}

/** Scores LongBench pred files. `files` are .jsonl paths in one directory; `e` forces LongBench-E buckets. */
export function scoreLongBench(
  files: string[],
  opts: { e?: boolean; metric?: string; tokens?: TokenTally },
  warnings: string[],
  metrics: MetricRegistry,
): ScoreRow[] {
  const dir = dirname(files[0]);
  const model = basename(dir);
  const reference = readReference(dir, warnings);
  const stems = files.map((f) => basename(f).split('.')[0]);
  const refIsE = reference !== undefined && Object.values(reference).some((v) => typeof v === 'object' && v !== null);
  // pred.py writes LongBench-E predictions to pred_e/<model>/<dataset>.jsonl (without the _e).
  const inPredE = basename(dirname(resolve(dir))) === 'pred_e';
  const e = opts.e ?? (refIsE || inPredE || stems.every((s) => s.endsWith('_e')));
  const rows: ScoreRow[] = [];
  const skipped: string[] = [];
  files.forEach((file, k) => {
    try {
      rows.push(...scoreFile(file, stems[k], e, reference, opts, metrics, model));
    } catch (err) {
      // A directory: score every file that can be, name the others. One file: its problem is the answer.
      if (!(err instanceof UserError) || files.length === 1) throw err;
      skipped.push(`${basename(file)} (${err.message.replace(`${file}: `, '').replace(`${file}:`, 'line ')})`);
    }
  });
  if (skipped.length === files.length)
    throw new UserError(`no LongBench pred file in ${dir} could be scored: ${skipped.join('; ')}`);
  if (skipped.length > 0) warnings.push(`skipped ${plural(skipped.length, 'file')}: ${skipped.join('; ')}`);
  return rows;
}

/** One pred file's rows: one per LongBench-E bucket, or one 'all' row. */
function scoreFile(
  file: string,
  dataset: string,
  e: boolean,
  reference: Reference | undefined,
  opts: { metric?: string; tokens?: TokenTally },
  metrics: MetricRegistry,
  model: string,
): ScoreRow[] {
  const rows: ScoreRow[] = [];
  const metricName = opts.metric ?? longbenchMetricFor(dataset);
  const metric = getMetric(metrics, metricName);
  const groups = new Map<string, Group>();
  const groupFor = (label: string): Group => {
    let g = groups.get(label);
    if (!g)
      groups.set(
        label,
        (g = new Group({ task: dataset, method: 'longbench-pred', model, lengthLabel: label, metric: metricName })),
      );
    return g;
  };
  if (e) for (const b of LONGBENCH_E_BUCKETS) groupFor(b.label);
  else groupFor('all');
  const parsed = readJsonl(file);
  // eval.py passes the all_classes of the file's last line to every sample.
  let allClasses: string[] | null = null;
  for (const { line, value } of parsed.lines) {
    if (typeof value.pred !== 'string') throw lineError(file, line, `'pred' must be a string (LongBench pred line)`);
    if (!isStringArray(value.answers))
      throw lineError(file, line, `'answers' must be an array of strings (LongBench pred line)`);
    if (!('all_classes' in value)) throw lineError(file, line, `missing 'all_classes' (LongBench pred line)`);
    allClasses = isStringArray(value.all_classes) ? value.all_classes : null;
    if (e && typeof value.length !== 'number')
      throw lineError(file, line, `'length' must be a number for LongBench-E buckets`);
  }
  if (parsed.lines.length === 0) throw new UserError(`${file}: no prediction lines`);
  for (const { line, value } of parsed.lines) {
    // Special tokens are never part of the answer: cleaned as bench run cleans its predictions.
    const pred = cleanPrediction(value.pred as string, opts.tokens, `${file}:${line}`);
    const score = metric.score(pred, value.answers as string[], { dataset, allClasses });
    groupFor(e ? longbenchEBucket(value.length as number) : 'all').add(score, {}, 'ok', pred);
  }
  const ref = reference?.[dataset];
  for (const [label, group] of groups) {
    // Compare only like with like: a bucketed result.json with bucket rows, a plain one with 'all' rows.
    const refValue = e
      ? typeof ref === 'object' && ref !== null
        ? ref[label]
        : undefined
      : typeof ref === 'number'
        ? ref
        : undefined;
    rows.push(
      group.row({
        // eval.py's round(100 * total / n, 2); LongBench-E's buckets: round(100 * np.mean(...), 2).
        rule: e ? 'numpy-mean' : 'total',
        reference: typeof refValue === 'number' || refValue === null ? refValue : undefined,
        referenceLabel: 'result.json',
      }),
    );
  }
  return rows;
}

/** LongBench's pred.py output for `bench score`; `--format longbench`. */
export const longbenchScoreSource: ScoreSource = {
  name: 'longbench',
  files: 'LongBench pred files (pred, answers, all_classes, length)',
  detect: (v) => 'pred' in v && Array.isArray(v.answers),
  score: (files, ctx) =>
    scoreLongBench(
      files,
      { e: typeof ctx.options.e === 'boolean' ? ctx.options.e : undefined, metric: ctx.metric, tokens: ctx.tokens },
      ctx.warnings,
      ctx.metrics,
    ),
};
