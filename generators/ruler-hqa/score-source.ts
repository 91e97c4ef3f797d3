// Scores result files of MemAgent's evaluation driver (BytedTsinghua-SIA/MemAgent taskutils/memory_eval/run.py writes
// results/ruler_hqa_<docs>/<config>.jsonl and results/ruler_<task>_<length>/<config>.jsonl). Each line is the input
// item minus its context, plus response (stripped model output), pred (extracted answer), answer and judge_* scores.
// We re-extract from `response`, re-score, and compare with the mean of the stored judge_sub_em.
import { readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { tokenLabel } from '../../harness/config/lengths.js';
import { Group, type ScoreRow } from '../../harness/scorers/aggregate.js';
import { extractBoxedAnswer, extractPhraseAnswer } from '../../harness/protocol/answer.js';
import { getMetric, scoreAll, type MetricRegistry } from '../../harness/scorers/metric.js';
import { cleanPrediction, type ScoreSource, type TokenTally } from '../../harness/scorers/sources/source.js';
import { memagentNiahOnAnswer } from '../ruler/metrics.js';
import { isStringArray, lineError, readJsonl } from '../../harness/run-dir/jsonl.js';

const EXPECTED_LINES = 128;

/** Task and length from the result folder name: ruler_hqa_50 → (ruler_hqa, docs:50); ruler_vt_8192 → (vt, 8k). */
export function memagentPlace(folder: string): { task: string; lengthLabel: string } {
  const hqa = /^ruler_hqa_(\d+)$/.exec(folder);
  if (hqa) return { task: 'ruler_hqa', lengthLabel: `docs:${hqa[1]}` };
  // bench export's folder for a RULER-HQA run at a token length (MemAgent indexes HQA by document count only).
  const hqaTokens = /^ruler_hqa_(\d+(?:\.\d+)?[km])$/.exec(folder);
  if (hqaTokens) return { task: 'ruler_hqa', lengthLabel: hqaTokens[1] };
  const general = /^ruler_(.+)_(\d+)$/.exec(folder);
  if (general) return { task: general[1], lengthLabel: tokenLabel(Number(general[2])) };
  return { task: folder, lengthLabel: '-' };
}

function goldsOf(file: string, line: number, v: Record<string, unknown>): string[] {
  if (isStringArray(v.answers)) return v.answers;
  if (typeof v.answer === 'string') return [v.answer];
  if (isStringArray(v.answer)) return v.answer;
  throw lineError(file, line, `no gold answers: expected 'answers' or 'answer' (MemAgent result line)`);
}

/**
 * The metric of one result file. MemAgent's driver scores QA tasks (ruler_hqa, qa_*) with sub_em and writes
 * judge_f1 / judge_em beside judge_sub_em only for them, so those fields decide; without them the folder name
 * (ruler_hqa_N, ruler_<task>_<length>) decides, and the choice is reported as a note.
 */
function chooseMetric(
  file: string,
  folder: string,
  task: string,
  lines: Array<{ value: Record<string, unknown> }>,
  notes: string[],
): string {
  const fromFolder = /^ruler_/.test(folder)
    ? task === 'ruler_hqa' || task.includes('qa')
      ? 'sub_em'
      : 'memagent_niah'
    : null;
  const qaFields = lines.some(({ value }) => typeof value.judge_f1 === 'number' || typeof value.judge_em === 'number');
  if (qaFields) {
    if (fromFolder !== null && fromFolder !== 'sub_em') {
      notes.push(
        `${file}: metric sub_em chosen from the judge_f1/judge_em fields (MemAgent writes them only for QA tasks), although the folder name '${folder}' suggests ${fromFolder}; pass --metric to override`,
      );
    }
    return 'sub_em';
  }
  if (fromFolder !== null) {
    notes.push(
      `${file}: metric ${fromFolder} chosen from the folder name '${folder}' (the lines have no judge_f1/judge_em to decide it); pass --metric to override`,
    );
    return fromFolder;
  }
  notes.push(
    `${file}: metric memagent_niah by default: neither the folder name '${folder}' (not ruler_hqa_N or ruler_<task>_<length>) nor the fields (no judge_f1/judge_em) decide it; pass --metric sub_em for a RULER-HQA or QA file`,
  );
  return 'memagent_niah';
}

/** Scores MemAgent result files; `metricOverride` (bench score --metric) replaces the metric chosen per file. */
export function scoreMemAgent(
  files: string[],
  warnings: string[],
  metrics: MetricRegistry,
  opts: { metric?: string; notes?: string[]; tokens?: TokenTally } = {},
): ScoreRow[] {
  const rows: ScoreRow[] = [];
  for (const file of files) {
    const folder = basename(dirname(file));
    const { task, lengthLabel } = memagentPlace(folder);
    const config = basename(file).replace(/\.jsonl$/, '');
    const lines = readJsonl(file).lines;
    const metric = opts.metric ?? chooseMetric(file, folder, task, lines, opts.notes ?? []);
    const group = new Group({ task, method: 'memagent-driver', model: config, lengthLabel, metric });
    let mismatches = 0;
    let firstMismatch = 0;
    for (const { line, value } of lines) {
      const golds = goldsOf(file, line, value);
      const stored = typeof value.pred === 'string' ? value.pred : null;
      let pred = stored;
      if (typeof value.response === 'string') {
        // extractPhraseAnswer drops special tokens itself (as bench run does); counted here for the note.
        cleanPrediction(value.response, opts.tokens, `${file}:${line}`);
        pred = extractPhraseAnswer(value.response);
        // The boxed drivers (api recurrent-boxed / boxed) store the last \boxed{} instead.
        if (pred !== stored && extractBoxedAnswer(value.response) === stored) pred = stored;
        if (pred !== stored) {
          mismatches++;
          firstMismatch ||= line;
        }
      }
      // A stored pred (no response to re-extract) is cleaned of special tokens as bench run cleans its predictions.
      else pred = cleanPrediction(pred, opts.tokens, `${file}:${line}`);
      if (metric === 'memagent_niah') {
        // The driver's NIAH score of an answer it already extracted.
        group.add(memagentNiahOnAnswer(pred, golds), {}, 'ok', pred);
      } else {
        const r = scoreAll(getMetric(metrics, metric), pred, golds);
        const extras = { ...r.scores };
        delete extras[metric];
        group.add(r.score, extras, 'ok', pred);
      }
      const judged = value.judge_sub_em;
      if (typeof judged === 'number' || typeof judged === 'boolean') group.addReference(Number(judged));
    }
    if (mismatches > 0)
      warnings.push(
        `${file}: our extraction differs from the stored pred on ${mismatches} of ${lines.length} lines (first at line ${firstMismatch}); scored our extraction`,
      );
    if (lines.length !== EXPECTED_LINES) {
      warnings.push(
        `${file}: ${lines.length} lines; MemAgent's runs have ${EXPECTED_LINES} per file, and its driver does not write failed samples`,
      );
    }
    rows.push(group.row({ referenceLabel: 'mean judge_sub_em' }));
  }
  return rows;
}

/** MemAgent's results/ folder: one sub-folder per task and length (ruler_hqa_50/, ruler_niah_single_1_8192/). */
function resultFolders(dir: string): string[] {
  return readdirSync(dir)
    .filter((d) => d.startsWith('ruler_') && statSync(join(dir, d)).isDirectory())
    .sort()
    .flatMap((d) =>
      readdirSync(join(dir, d))
        .filter((f) => f.endsWith('.jsonl'))
        .sort()
        .map((f) => join(dir, d, f)),
    );
}

/** MemAgent's evaluation driver output for `bench score`; `--format memagent`. */
export const memagentScoreSource: ScoreSource = {
  name: 'memagent',
  files: 'MemAgent result files (response, pred, judge_sub_em)',
  detect: (v) => 'judge_sub_em' in v && ('response' in v || 'pred' in v),
  nestedFiles: resultFolders,
  score: (files, ctx) =>
    scoreMemAgent(files, ctx.warnings, ctx.metrics, { metric: ctx.metric, notes: ctx.notes, tokens: ctx.tokens }),
};
