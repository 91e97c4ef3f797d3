// `bench score TARGET`: re-scores finished predictions without calling any model. TARGET is a bench run directory
// (or its samples.jsonl), a LongBench pred directory or file, a RULER pred file or directory, or MemAgent driver
// results (a result file, a results/ruler_* folder, or the results/ folder above them).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { UserError } from '../../harness/errors.js';
import type { ScoreRow, ScoreTable } from '../../harness/scorers/aggregate.js';
import { toPercent } from '../../harness/protocol/round.js';
import { detectLine, FORMAT_HINT, type SourceFormat } from '../../harness/scorers/sources/detect.js';
import { jsonlRows } from '../../harness/run-dir/jsonl.js';
import { scoreLongBench } from '../../generators/longbench/score-source.js';
import { scoreMemAgent } from '../../generators/ruler-hqa/score-source.js';
import { scoreRuler } from '../../generators/ruler/score-source.js';
import { scoreRun } from '../../harness/scorers/sources/run.js';
import { getMetric } from '../../harness/scorers/index.js';
import type { CommandIO, CommandOf } from '../../harness/config/commands.js';

export type { ScoreRow, ScoreTable } from '../../harness/scorers/aggregate.js';

export interface ScoreOptions {
  format?: 'auto' | 'memagent' | 'ruler' | 'longbench';
  /** A metric of the registry that replaces the one each file or record would be scored with (bench score --metric). */
  metric?: string;
  /** LongBench-E: bucket scores by `length` (0-4k, 4-8k, 8k+). Default: when result.json is bucketed or every file stem ends in _e. */
  longbenchE?: boolean;
}

function jsonlIn(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .map((f) => join(dir, f));
}

/** The format of a file, from its first line. */
function detectFile(file: string): SourceFormat {
  const rows = jsonlRows(file, { mode: 'lenient' });
  const next = rows.next();
  rows.return(undefined);
  const first = next.done ? undefined : next.value;
  if (!first) throw new UserError(`${file}: empty file; ${FORMAT_HINT}`);
  const format = detectLine(first.value);
  if (!format) {
    const keys = Object.keys(first.value).slice(0, 12).join(', ');
    throw new UserError(`${file}:${first.line}: unknown format (fields: ${keys}); ${FORMAT_HINT}`);
  }
  return format;
}

/** Files to score and their format. */
function resolveTarget(target: string, requested: ScoreOptions['format']): { format: SourceFormat; files: string[] } {
  if (!existsSync(target))
    throw new UserError(`not found: ${target} (pass a run directory, a pred directory or a .jsonl file)`);
  let files: string[];
  if (statSync(target).isDirectory()) {
    const samples = join(target, 'samples.jsonl');
    if (existsSync(samples) && (requested === undefined || requested === 'auto'))
      return { format: 'run', files: [samples] };
    files = jsonlIn(target);
    if (files.length === 0) {
      // MemAgent's results/ folder: one sub-folder per task and length.
      const subdirs = readdirSync(target)
        .filter((d) => d.startsWith('ruler_') && statSync(join(target, d)).isDirectory())
        .sort();
      files = subdirs.flatMap((d) => jsonlIn(join(target, d)));
    }
    if (files.length === 0) throw new UserError(`no .jsonl files in ${target}; ${FORMAT_HINT}`);
  } else {
    files = [target];
  }
  const formats = files.map(detectFile);
  const format = requested !== undefined && requested !== 'auto' ? requested : formats[0];
  files.forEach((f, k) => {
    if (formats[k] !== format) {
      throw new UserError(
        `${f}: looks like ${formats[k]} output, not ${format}; score one kind of file at a time${requested && requested !== 'auto' ? ' or drop --format' : ''}`,
      );
    }
  });
  return { format, files };
}

/** Re-scores TARGET and returns one row per task × method × model × length (LongBench: per dataset, or per bucket). */
export async function scoreTarget(target: string, opts: ScoreOptions = {}): Promise<ScoreTable> {
  const metric = opts.metric === undefined ? undefined : getMetric(opts.metric).name;
  const { format, files } = resolveTarget(target, opts.format);
  const warnings: string[] = [];
  const notes: string[] = [];
  let rows: ScoreRow[];
  switch (format) {
    case 'run':
      rows = scoreRun(files[0], warnings, metric);
      break;
    case 'longbench':
      rows = scoreLongBench(files, { e: opts.longbenchE, metric }, warnings);
      break;
    case 'ruler':
      rows = scoreRuler(files, { metric, notes });
      break;
    case 'memagent':
      rows = scoreMemAgent(files, warnings, { metric, notes });
      break;
  }
  if (metric !== undefined)
    notes.push(
      `metric ${metric} from --metric, in place of the one ${format === 'run' ? 'each record names' : 'the files would be scored with'}`,
    );
  return { target, format, rows, warnings, notes };
}

function pct(x: number | null | undefined): string {
  return x === null || x === undefined ? 'n/a' : x.toFixed(2);
}

function extrasText(extras: Record<string, number>): string {
  return Object.entries(extras)
    .map(([k, v]) => `${k}=${pct(toPercent(v))}`)
    .join(' ');
}

function pad(cells: string[][]): string[] {
  const widths = cells[0].map((_, c) => Math.max(...cells.map((r) => r[c].length)));
  return cells.map((r) =>
    r
      .map((cell, c) => (c >= 5 && c <= 10 ? cell.padStart(widths[c]) : cell.padEnd(widths[c])))
      .join('  ')
      .trimEnd(),
  );
}

/** The table as JSON (means 0..1 and percentages) or as aligned text for a terminal. */
export function formatScoreTable(table: ScoreTable, json: boolean): string {
  if (json) {
    return JSON.stringify(
      {
        target: table.target,
        format: table.format,
        scale: 'mean: 0..1; percent: mean x 100, 2 decimals (ties to even); errors and truncated samples count as 0',
        rows: table.rows,
        notes: table.notes ?? [],
        warnings: table.warnings,
      },
      null,
      2,
    );
  }
  const header = [
    'task',
    'method',
    'model',
    'length',
    'metric',
    'n',
    'errors',
    'trunc',
    'empty',
    'score',
    'ref',
    'extras',
  ];
  let differs = 0;
  const body = table.rows.map((r) => {
    const same = r.reference === undefined || r.reference === r.percent;
    if (!same) differs++;
    const ref = r.reference === undefined ? '' : `${pct(r.reference)}${same ? '' : ' *'}`;
    return [
      r.task,
      r.method,
      r.model,
      r.lengthLabel,
      r.metric,
      String(r.n),
      String(r.errors),
      String(r.truncated),
      String(r.empty),
      pct(r.percent),
      ref,
      extrasText(r.extras),
    ];
  });
  const labels = [...new Set(table.rows.map((r) => r.referenceLabel).filter((l): l is string => l !== undefined))];
  const lines = [
    `${basename(table.target)} (${table.format}): ${table.rows.length} group(s)`,
    '',
    ...pad([header, ...body]),
    '',
  ];
  lines.push(
    'score: mean x 100, 2 decimals (ties to even); errors and truncated samples count as 0 and are counted in n. extras: means x 100.',
  );
  if (labels.length > 0)
    lines.push(
      `ref: ${labels.join('; ')}${differs > 0 ? `; * marks ${differs} group(s) that differ from our score` : '; all groups match'}.`,
    );
  for (const n of table.notes ?? []) lines.push(`note: ${n}`);
  for (const w of table.warnings) lines.push(`warning: ${w}`);
  return lines.join('\n');
}

export async function scoreCli(cmd: CommandOf<'score'>, io: CommandIO): Promise<number> {
  io.out(formatScoreTable(await scoreTarget(cmd.target, { format: cmd.format, metric: cmd.metric }), cmd.json));
  return 0;
}
