// Scores RULER pred files (NVIDIA/RULER scripts/pred writes <root>/<model>/synthetic/<length>/pred/<task>.jsonl with
// index, pred, input, outputs, others, truncation, length) as scripts/eval/evaluate.py does: post-process, then
// string_match_part for qa tasks and string_match_all for the rest (niah_*, vt, cwe, fwe).
import { basename, dirname, resolve, sep } from 'node:path';
import { tokenLabel } from '../../harness/config/lengths.js';
import { Group, type ScoreRow } from '../../harness/scorers/aggregate.js';
import { getMetric, type MetricRegistry } from '../../harness/scorers/metric.js';
import { cleanPrediction, type ScoreSource, type TokenTally } from '../../harness/scorers/sources/source.js';
import { postprocessRulerPred } from './metrics.js';
import { isStringArray, lineError, readJsonl } from '../../harness/run-dir/jsonl.js';

export function rulerMetricFor(task: string): string {
  return task.startsWith('qa') ? 'string_match_part' : 'string_match_all';
}

/** The tasks of RULER's scripts/synthetic.yaml: evaluate.py looks for `<task>.jsonl` for each of them. */
export const RULER_TASKS: readonly string[] = [
  'niah_single_1',
  'niah_single_2',
  'niah_single_3',
  'niah_multikey_1',
  'niah_multikey_2',
  'niah_multikey_3',
  'niah_multivalue',
  'niah_multiquery',
  'vt',
  'cwe',
  'fwe',
  'qa_1',
  'qa_2',
];

/** Length and model from RULER's layout: the nearest all-digit folder above the file, and the folder above "synthetic". */
function placeOf(file: string): { lengthLabel: string; model: string } {
  const parts = resolve(dirname(file)).split(sep);
  let lengthLabel = '-';
  for (let i = parts.length - 1; i >= 0; i--) {
    if (/^\d+$/.test(parts[i])) {
      lengthLabel = tokenLabel(Number(parts[i]));
      break;
    }
  }
  const at = parts.lastIndexOf('synthetic');
  return { lengthLabel, model: at > 0 ? parts[at - 1] : '-' };
}

/** Scores RULER pred files; `metric` (bench score --metric) replaces the metric evaluate.py takes from the task name. */
export function scoreRuler(
  files: string[],
  metrics: MetricRegistry,
  opts: { metric?: string; notes?: string[]; tokens?: TokenTally } = {},
): ScoreRow[] {
  const rows: ScoreRow[] = [];
  for (const file of files) {
    const task = basename(file).replace(/\.jsonl$/, '');
    const metricName = opts.metric ?? rulerMetricFor(task);
    if (opts.metric === undefined && !RULER_TASKS.includes(task)) {
      opts.notes?.push(
        `${file}: metric ${metricName} chosen from the file name '${task}' (not one of RULER's tasks; RULER scores qa_* with string_match_part, the rest with string_match_all); pass --metric to override`,
      );
    }
    const metric = getMetric(metrics, metricName);
    const { lengthLabel, model } = placeOf(file);
    const group = new Group({ task, method: 'ruler-pred', model, lengthLabel, metric: metricName });
    for (const { line, value } of readJsonl(file).lines) {
      if (typeof value.pred !== 'string') throw lineError(file, line, `'pred' must be a string (RULER pred line)`);
      // evaluate.py: line.get('outputs', [line.get('output', '')])
      const golds = 'outputs' in value ? value.outputs : [value.output ?? ''];
      if (!isStringArray(golds)) throw lineError(file, line, `'outputs' must be an array of strings (RULER pred line)`);
      // Special tokens are never part of the answer: cleaned as bench run cleans its predictions.
      const pred = cleanPrediction(value.pred, opts.tokens, `${file}:${line}`);
      // `empty` counts what evaluate.py reports as nulls: predictions empty after post-processing.
      group.add(metric.score(pred, golds), {}, 'ok', postprocessRulerPred(pred) === '' ? '' : pred);
    }
    rows.push(group.row());
  }
  return rows;
}

/** RULER's call_api.py output for `bench score`; `--format ruler`. */
export const rulerScoreSource: ScoreSource = {
  name: 'ruler',
  files: 'RULER pred files (index, pred, outputs)',
  detect: (v) => 'pred' in v && ('outputs' in v || 'output' in v) && 'index' in v,
  score: (files, ctx) => scoreRuler(files, ctx.metrics, { metric: ctx.metric, notes: ctx.notes, tokens: ctx.tokens }),
};
