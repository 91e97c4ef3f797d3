// `bench score` of BABILong's published predictions (babilong_evals/<org>/<model>/<task>_<length>_<cfg>.csv, as
// run_model_on_babilong.py writes them): the accuracy of each task × length × run configuration exactly as
// babilong/collect_results.py's get_model_results computes it (docs/PROTOCOLS.md §h).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { UserError } from '../../harness/errors.js';
import { Group, type ScoreRow } from '../../harness/scorers/aggregate.js';
import { getMetric } from '../../harness/scorers/metric.js';
import type { ScoreContext, ScoreSource } from '../../harness/scorers/sources/source.js';
import { plural } from '../../harness/util/plural.js';
import { BABILONG_METRIC } from './index.js';
import { compareAnswers, TASK_LABELS } from './metrics.js';
import { readPredictionCsv } from './published-csv.js';
import { BABILONG_TASKS } from './tasks.js';

/** collect_results.py's LENGTHS: the lengths it reads, in its column order (others it leaves out). */
export const COLLECT_LENGTHS = [
  '0k',
  '1k',
  '2k',
  '4k',
  '8k',
  '16k',
  '32k',
  '64k',
  '128k',
  '256k',
  '512k',
  '1M',
  '2M',
  '10M',
];
/** collect_results.py's TASKS: the tasks it reads when not given --tasks. */
export const COLLECT_DEFAULT_TASKS = BABILONG_TASKS.slice(0, 10);

export interface PredictionFile {
  path: string;
  task: string;
  length: string;
  /** The run configuration: the stem after `<task>_<length>_`, e.g. instruction_yes_examples_yes_post_prompt_yes. */
  cfg: string;
}

/** collect_results' reading of a file name: task, length and run configuration split at '_'. */
export function parsePredictionName(path: string): PredictionFile {
  const parts = basename(path)
    .replace(/\.csv$/, '')
    .split('_');
  return { path, task: parts[0], length: parts[1] ?? '', cfg: parts.slice(2).join('_') };
}

const looksLikePrediction = (name: string) => /^qa\d+_[^_]+_.*\.csv$/.test(name);

function csvFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.csv'))
    .map((e) => join(dir, e.name))
    .sort();
}

function holdsPredictions(dir: string): boolean {
  return readdirSync(dir).some(looksLikePrediction);
}

/**
 * The model folders at or below `target` (babilong_evals, an org folder, one model's folder or one CSV), each as
 * the list of its .csv files; null when there is no BABILong prediction file there.
 */
export function predictionFolders(target: string): string[][] | null {
  if (!existsSync(target)) return null;
  if (!statSync(target).isDirectory()) return looksLikePrediction(basename(target)) ? [[target]] : null;
  const out: string[][] = [];
  const walk = (d: string, left: number) => {
    if (holdsPredictions(d)) {
      out.push(csvFiles(d));
      return;
    }
    if (left === 0) return;
    const subs = readdirSync(d, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
      .map((e) => e.name)
      .sort();
    for (const s of subs) walk(join(d, s), left - 1);
  };
  walk(target, 3);
  return out.length > 0 ? out : null;
}

/** A model folder's name as collect_results' --model_name gives it: `<org>/<model>` (a folder and its parent). */
export function modelNameOf(dir: string): string {
  const abs = resolve(dir);
  return `${basename(dirname(abs))}/${basename(abs)}`;
}

const taskRank = (t: string) => BABILONG_TASKS.indexOf(t);
const lengthRank = (l: string) => COLLECT_LENGTHS.indexOf(l);

/** One model folder's cells: rows by run configuration, task, length (collect_results' order). */
export function scorePredictionFolder(
  files: string[],
  ctx: Pick<ScoreContext, 'metrics' | 'metric' | 'warnings' | 'notes'>,
): ScoreRow[] {
  const dir = dirname(files[0]);
  const model = modelNameOf(dir);
  const metricName = ctx.metric ?? BABILONG_METRIC;
  const metric = ctx.metric === undefined ? undefined : getMetric(ctx.metrics, ctx.metric);
  const parsed = files.map(parsePredictionName);
  const skipped = parsed.filter((f) => !TASK_LABELS[f.task] || lengthRank(f.length) < 0);
  if (skipped.length > 0)
    ctx.warnings.push(
      `${model}: ${plural(skipped.length, 'file')} not read (a task other than qa1-qa20 or a length collect_results.py does not list): ${skipped
        .slice(0, 3)
        .map((f) => basename(f.path))
        .join(', ')}${skipped.length > 3 ? ', ...' : ''}`,
    );
  const cells = parsed
    .filter((f) => !skipped.includes(f))
    .sort((a, b) =>
      a.cfg < b.cfg
        ? -1
        : a.cfg > b.cfg
          ? 1
          : taskRank(a.task) - taskRank(b.task) || lengthRank(a.length) - lengthRank(b.length),
    );
  const rows = cells.map((f) => {
    const group = new Group({ task: f.task, method: f.cfg, model, lengthLabel: f.length, metric: metricName });
    for (const row of readPredictionCsv(f.path, readFileSync(f.path, 'utf8'))) {
      // collect_results calls target.lower() and question.lower(): a missing one stops it, and us.
      if (row.target === null || row.question === null)
        throw new UserError(
          `${f.path}:${row.line}: no ${row.target === null ? 'target' : 'question'} in this row; collect_results.py cannot score it: fix or remove the file`,
        );
      const score = metric
        ? metric.score(row.output, [row.target], { babilong_task: f.task, question: row.question })
        : compareAnswers(row.target, row.output, row.question, TASK_LABELS[f.task])
          ? 1
          : 0;
      group.add(score, {}, 'ok', row.output);
    }
    // collect_results: 100 * correct / rows, and 0 for a file with no rows.
    const r = group.row({ rule: 'total' });
    return r.n === 0 ? { ...r, mean: 0, percent: 0 } : r;
  });
  const note = 'collect_results.py reads qa11-qa20 only when given them with --tasks (its default is qa1-qa10)';
  if (rows.some((r) => !COLLECT_DEFAULT_TASKS.includes(r.task)) && !ctx.notes.includes(note)) ctx.notes.push(note);
  return rows;
}

/** BABILong's published predictions for `bench score`; `--format babilong`. */
export const babilongScoreSource: ScoreSource = {
  name: 'babilong',
  files: 'BABILong prediction CSVs (<org>/<model>/qa*_<length>_<cfg>.csv: target, output, question)',
  // Its files are CSV, never a JSON line: claim() finds them.
  detect: () => false,
  claim: predictionFolders,
  score: (files, ctx) => scorePredictionFolder(files, ctx),
};
