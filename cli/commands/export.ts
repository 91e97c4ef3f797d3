// `bench export RUN --format ruler|longbench|memagent --out DIR`: a run's predictions in the file layout that the
// peer tool's own scorer reads (docs/PROTOCOLS.md §h), so its numbers can be checked with its code:
//   ruler:     DIR/<name>/synthetic/<length>/pred/<task>.jsonl with index, pred, input, outputs, others, truncation,
//              length: what NVIDIA/RULER scripts/pred/call_api.py writes and scripts/eval/evaluate.py --data_dir
//              DIR/<name>/synthetic/<length>/pred reads (<length> = the token target, RULER's MAX_SEQ_LENGTH).
//   longbench: DIR/pred/<name>/<dataset>.jsonl (DIR/pred_e/<name>/ for LongBench-E rows) with pred, answers,
//              all_classes, length: what THUDM/LongBench LongBench/pred.py writes and `eval.py --model <name> [--e]`,
//              run in DIR, reads.
//   memagent:  DIR/results/ruler_hqa_<N>/<name>.jsonl (ruler_<task>_<length>/ for NIAH) with _id, response, answer,
//              pred, judge_*: what BytedTsinghua-SIA/MemAgent taskutils/memory_eval/ruler_hqa.py / ruler_general.py
//              write and visualize.py, run in DIR, reads.
// <name> is `<model>__<method>` with the model made safe as one folder name. `pred` is the answer the run's metric
// scored (the extracted answer, not the raw reply), so the peer's scorer reproduces the run's score. A sample that
// ended in error or truncated is written as a failed generation (empty pred) and scores 0 there too, as in the run.
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { CommandIO, CommandOf } from '../../harness/config/commands.js';
import { UserError } from '../../harness/errors.js';
import { extractPhraseAnswer } from '../../harness/protocol/answer.js';
import { baseDataset, longbenchMetric } from '../../generators/longbench/protocol.js';
import { pyStrip } from '../../harness/protocol/pytext.js';
import { pyRound } from '../../harness/protocol/round.js';
import { writeFileAtomic } from '../../harness/run-dir/atomic-write.js';
import { readManifest } from '../../harness/run-dir/manifest.js';
import { getMetric, scoreAll } from '../../harness/scorers/index.js';
import { scoreSample } from '../../harness/scorers/score-sample.js';
import { builtinCatalog } from '../../generators/index.js';
import { longbenchOptionsOf } from '../../generators/longbench/scoring.js';
import { RULER_TASKS } from '../../generators/ruler/score-source.js';
import { latestRunRecords } from '../../harness/scorers/sources/run.js';
import type { SampleRecord } from '../../harness/types.js';

const METRICS = builtinCatalog().metrics;

export type ExportFormat = 'ruler' | 'longbench' | 'memagent';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['ruler', 'longbench', 'memagent'];

export interface ExportOptions {
  runDir: string;
  format: ExportFormat;
  out: string;
  /** Export only these tasks of the run. */
  tasks?: string[];
}

export interface ExportedFile {
  /** Absolute or as given: out joined with the peer's relative path. */
  path: string;
  task: string;
  method: string;
  lengthLabel: string;
  rows: number;
  /** Rows of samples that ended in error or truncated (written with an empty pred). */
  failed: number;
}

export interface ExportResult {
  format: ExportFormat;
  out: string;
  files: ExportedFile[];
  rows: number;
  errors: number;
  truncated: number;
  /** The `<model>__<method>` names used, in order. */
  names: string[];
  warnings: string[];
}

/** A model id as one folder or file name: every character other than letters, digits, '.', '_' and '-' becomes '_'. */
export function safeName(model: string): string {
  const safe = model.replace(/[^A-Za-z0-9._-]/g, '_');
  return safe === '' || safe === '.' || safe === '..' ? '_' : safe;
}

/** The folder (RULER, LongBench) or file (MemAgent) name of one model × method. */
export function exportName(record: Pick<SampleRecord, 'model' | 'method'>): string {
  return `${safeName(record.model)}__${record.method}`;
}

const FORMAT_LABEL: Record<ExportFormat, string> = { ruler: 'RULER', longbench: 'LongBench', memagent: 'MemAgent' };

/** Why a record cannot go to this format, or null when it fits. */
function misfit(format: ExportFormat, r: SampleRecord): string | null {
  switch (format) {
    case 'ruler':
      if (!RULER_TASKS.includes(r.task)) return "not one of RULER's tasks";
      if (r.lengthKind !== 'tokens') return 'not at a token length';
      return null;
    case 'longbench':
      if (longbenchDataset(r) === null) return 'not a LongBench dataset';
      return null;
    case 'memagent':
      if (r.task === 'ruler-hqa') return null;
      if (RULER_TASKS.includes(r.task) && r.lengthKind === 'tokens') return null;
      return 'not RULER-HQA or a RULER task at a token length';
  }
}

const FITS: Record<ExportFormat, string> = {
  ruler: "RULER's tasks (niah_*) at token lengths",
  longbench: 'LongBench datasets (longbench/<dataset>)',
  memagent: 'ruler-hqa and the RULER tasks (niah_*)',
};

/** The LongBench dataset of a record as LongBench names it (`hotpotqa_e` for LongBench-E rows), or null. */
function longbenchDataset(r: SampleRecord): string | null {
  const opts = longbenchOptionsOf(r);
  const dataset = opts.dataset ?? (r.task.startsWith('longbench/') ? r.task.slice('longbench/'.length) : undefined);
  if (dataset === undefined || longbenchMetric(dataset) === null) return null;
  return dataset;
}

/** The answer the run's metric scored: '' for a failed sample; the phrase answer for metrics that read the raw reply. */
function scoredAnswer(r: SampleRecord): string {
  if (r.status !== 'ok') return '';
  if (getMetric(METRICS, r.metric).input === 'raw') return extractPhraseAnswer(r.rawOutput) ?? '';
  return r.prediction ?? '';
}

/** RULER's `length`: prompt tokens plus the generation budget, as RULER's data files count it; -1 (call_api.py's default) when unknown. */
function rulerLength(r: SampleRecord): number {
  const prompt = r.metadata.prompt_tokens;
  const gen = r.metadata.tokens_to_generate;
  return typeof prompt === 'number' && typeof gen === 'number' ? prompt + gen : -1;
}

interface Placed {
  /** Path relative to out. */
  rel: string;
  row: Array<[string, unknown]>;
}

function rulerRow(r: SampleRecord): Placed {
  return {
    rel: join(exportName(r), 'synthetic', String(r.length), 'pred', `${r.task}.jsonl`),
    // call_api.py's fields. `input` is the question: the run keeps no copy of the whole prompt (RULER writes the
    // prompt with its context here; evaluate.py only prints it with --verbose).
    row: [
      ['index', r.index],
      ['pred', scoredAnswer(r)],
      ['input', r.question],
      ['outputs', r.answers],
      ['others', {}],
      ['truncation', -1],
      ['length', rulerLength(r)],
    ],
  };
}

function longbenchRow(r: SampleRecord): Placed {
  const dataset = longbenchDataset(r)!;
  const e = dataset.endsWith('_e');
  const length = r.metadata.length;
  if (typeof length !== 'number')
    throw new UserError(`${r.id} (${r.method}): no LongBench 'length' in its metadata; LongBench's eval.py needs it`);
  return {
    rel: join(e ? 'pred_e' : 'pred', exportName(r), `${baseDataset(dataset)}.jsonl`),
    // pred.py's fields, in its order.
    row: [
      ['pred', scoredAnswer(r)],
      ['answers', r.answers],
      ['all_classes', longbenchOptionsOf(r).allClasses ?? null],
      ['length', length],
    ],
  };
}

/** MemAgent's result folder: ruler_hqa_<N> by document count (<label> at a token length), ruler_<task>_<tokens>. */
export function memagentFolder(r: Pick<SampleRecord, 'task' | 'lengthKind' | 'length' | 'lengthLabel'>): string {
  if (r.task === 'ruler-hqa') return r.lengthKind === 'docs' ? `ruler_hqa_${r.length}` : `ruler_hqa_${r.lengthLabel}`;
  return `ruler_${r.task}_${r.length}`;
}

function memagentRow(r: SampleRecord): Placed {
  const ok = r.status === 'ok';
  // The driver stores the stripped reply and extract_answer's result (None when there is no answer phrase). A failed
  // generation is an empty reply: no answer, every judge 0.
  const response = ok ? pyStrip(r.rawOutput) : '';
  const pred = ok ? r.prediction : null;
  const judged = scoreSample(r, METRICS).score;
  const rel = join('results', memagentFolder(r), `${exportName(r)}.jsonl`);
  if (r.task === 'ruler-hqa') {
    // ruler_hqa.py: the eval_{N}.json item {input, answers, num_docs, index} (context popped), then _id, response,
    // answer = answers[0], pred, judge_f1 (rounded to 2 decimals), judge_em, judge_sub_em.
    const qa = ok ? scoreAll(getMetric(METRICS, 'sub_em'), r.prediction, r.answers).scores : { f1: 0, em: 0 };
    const numDocs = r.metadata.num_docs;
    return {
      rel,
      row: [
        ['input', r.question],
        ['answers', r.answers],
        ['num_docs', typeof numDocs === 'number' ? numDocs : null],
        ['index', r.index],
        ['_id', r.index],
        ['response', response],
        ['answer', r.answers[0] ?? ''],
        ['pred', pred],
        ['judge_f1', pyRound(qa.f1, 2)],
        ['judge_em', qa.em],
        ['judge_sub_em', judged],
      ],
    };
  }
  // ruler_general.py: the eval_{task}_{length}.json item {index, input, length} (context popped, outputs moved to
  // answer), then _id, response, answer, pred, judge_sub_em.
  return {
    rel,
    row: [
      ['index', r.index],
      ['input', r.question],
      ['length', rulerLength(r)],
      ['_id', r.index],
      ['response', response],
      ['answer', r.answers],
      ['pred', pred],
      ['judge_sub_em', judged],
    ],
  };
}

const PLACE: Record<ExportFormat, (r: SampleRecord) => Placed> = {
  ruler: rulerRow,
  longbench: longbenchRow,
  memagent: memagentRow,
};

function jsonLine(row: Array<[string, unknown]>): string {
  return JSON.stringify(Object.fromEntries(row));
}

/** Writes the export; throws UserError (one line) when the run does not fit the format. */
export function exportRun(opts: ExportOptions): ExportResult {
  const { runDir, format, out } = opts;
  if (!EXPORT_FORMATS.includes(format))
    throw new UserError(`unknown --format '${format}': use ${EXPORT_FORMATS.join(', ')}`);
  if (!existsSync(runDir) || !statSync(runDir).isDirectory()) throw new UserError(`not a run directory: ${runDir}`);
  readManifest(runDir, { hint: 'bench export reads a bench run directory' });
  const samplesFile = join(runDir, 'samples.jsonl');
  if (!existsSync(samplesFile))
    throw new UserError(`${runDir} has no samples.jsonl: nothing to export (has the run finished any sample?)`);
  const warnings: string[] = [];
  let records = latestRunRecords(samplesFile, warnings).map((l) => l.record);
  const runTasks = [...new Set(records.map((r) => r.task))];
  if (opts.tasks !== undefined) {
    const unknown = opts.tasks.filter((t) => !runTasks.includes(t));
    if (unknown.length > 0)
      throw new UserError(`--tasks: ${unknown.join(', ')} not in this run (its tasks: ${runTasks.join(', ')})`);
    records = records.filter((r) => opts.tasks!.includes(r.task));
  }
  if (records.length === 0) throw new UserError(`${samplesFile} has no sample records: nothing to export`);

  const bad = new Map<string, { why: string; record: SampleRecord }>();
  for (const r of records) {
    const why = misfit(format, r);
    if (why !== null && !bad.has(r.task)) bad.set(r.task, { why, record: r });
  }
  if (bad.size > 0) {
    const list = [...bad].map(([t, { why }]) => `${t} (${why})`).join(', ');
    const fitting = runTasks.filter((t) => !bad.has(t) && (opts.tasks === undefined || opts.tasks.includes(t)));
    // The formats each misfit task would fit, one hint per set of formats.
    const byHint = new Map<string, string[]>();
    for (const [t, { record }] of bad) {
      const others = EXPORT_FORMATS.filter((f) => f !== format && misfit(f, record) === null);
      if (others.length > 0) byHint.set(others.join(' or '), [...(byHint.get(others.join(' or ')) ?? []), t]);
    }
    const hints = [...byHint].map(([f, ts]) => `--format ${f} for ${ts.join(', ')}`);
    const also = fitting.length > 0 ? `; export the others with --tasks ${fitting.join(',')}` : '';
    throw new UserError(
      `--format ${format} takes ${FITS[format]}; this run has ${list}${hints.length ? ` (use ${hints.join(', ')})` : ''}${also}`,
    );
  }

  const files = new Map<string, { placed: Array<{ index: number; line: string }>; file: ExportedFile }>();
  const names: string[] = [];
  let errors = 0;
  let truncated = 0;
  for (const r of records) {
    const { rel, row } = PLACE[format](r);
    let entry = files.get(rel);
    if (!entry) {
      entry = {
        placed: [],
        file: { path: join(out, rel), task: r.task, method: r.method, lengthLabel: r.lengthLabel, rows: 0, failed: 0 },
      };
      files.set(rel, entry);
    }
    entry.placed.push({ index: r.index, line: jsonLine(row) });
    entry.file.rows++;
    if (r.status !== 'ok') entry.file.failed++;
    if (r.status === 'error') errors++;
    if (r.status === 'truncated') truncated++;
    const name = exportName(r);
    if (!names.includes(name)) names.push(name);
  }
  if (existsSync(out) && !statSync(out).isDirectory())
    throw new UserError(`--out ${out} is a file; bench export writes a folder tree there`);
  const sorted = [...files.keys()].sort();
  for (const rel of sorted) {
    const { placed, file } = files.get(rel)!;
    // The peers write in data order.
    placed.sort((a, b) => a.index - b.index);
    mkdirSync(dirname(file.path), { recursive: true });
    writeFileAtomic(file.path, placed.map((p) => p.line + '\n').join(''));
  }
  return {
    format,
    out,
    files: sorted.map((rel) => files.get(rel)!.file),
    rows: records.length,
    errors,
    truncated,
    names,
    warnings,
  };
}

/** How to run the peer's scorer on the export, one line per invocation. */
function peerCommands(result: ExportResult): string[] {
  const out = result.out;
  switch (result.format) {
    case 'ruler': {
      const dirs = [...new Set(result.files.map((f) => dirname(f.path)))];
      return dirs.map((d) => `python scripts/eval/evaluate.py --data_dir ${d} --benchmark synthetic   # in RULER/`);
    }
    case 'longbench': {
      const lines: string[] = [];
      for (const name of result.names) {
        if (result.files.some((f) => f.path.startsWith(join(out, 'pred', name) + '/')))
          lines.push(`python eval.py --model ${name}   # in ${out}, with LongBench's eval.py and metrics.py`);
        if (result.files.some((f) => f.path.startsWith(join(out, 'pred_e', name) + '/')))
          lines.push(`python eval.py --model ${name} --e   # in ${out}, with LongBench's eval.py and metrics.py`);
      }
      return lines;
    }
    case 'memagent':
      return [
        `python visualize.py   # in ${out}, with MemAgent's taskutils/memory_eval/visualize.py (it reads results/ruler_hqa*)`,
      ];
  }
}

export async function exportCli(cmd: CommandOf<'export'>, io: CommandIO): Promise<number> {
  const result = exportRun({ runDir: cmd.runDir, format: cmd.format, out: cmd.out, tasks: cmd.tasks });
  const label = FORMAT_LABEL[result.format];
  for (const f of result.files)
    io.out(`${relative(result.out, f.path) || f.path}: ${f.rows} rows${f.failed ? ` (${f.failed} failed)` : ''}`);
  io.out(`wrote ${result.rows} samples in ${result.files.length} file(s) under ${result.out} in ${label}'s layout`);
  const failed = result.errors + result.truncated;
  if (failed > 0) {
    io.out(
      `${failed} of ${result.rows} samples ended in error (${result.errors}) or truncated (${result.truncated}): written as a failed generation ` +
        `(empty pred${result.format === 'memagent' ? ", empty response, judges 0; MemAgent's driver would leave them out" : ''}), so ${label}'s scorer counts them as 0, as the run does`,
    );
  }
  io.out(`score with ${label}'s own script:`);
  for (const line of peerCommands(result)) io.out(`  ${line}`);
  for (const w of result.warnings) io.err(`bench: warning: ${w}`);
  return 0;
}
