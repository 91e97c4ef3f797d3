// `bench score TARGET`: re-scores finished predictions without calling any model. TARGET is a bench run directory
// (or its samples.jsonl) or another tool's result files, read by the score sources the families register
// (harness/scorers/sources/target.ts decides which).
import { basename } from 'node:path';
import type { ScoreTable } from '../../harness/scorers/aggregate.js';
import { scorePercent } from '../../harness/protocol/round.js';
import { scoreTargetWith, type ScoreEnv } from '../../harness/scorers/sources/target.js';
import type { CommandIO, CommandOf } from '../../harness/config/commands.js';
import type { CliContext } from '../context.js';
import { builtinCatalog } from '../../generators/index.js';
import { plural } from '../../harness/util/plural.js';

export type { ScoreRow, ScoreTable } from '../../harness/scorers/aggregate.js';

export interface ScoreOptions {
  /** 'auto' (default: decided from the files) or a registered score source (memagent, ruler, longbench). */
  format?: string;
  /** A metric of the registry that replaces the one each file or record would be scored with (bench score --metric). */
  metric?: string;
  /** Switches for the source, e.g. LongBench's `e` (bucket by `length`; default: when result.json is bucketed or
   *  every file stem ends in _e). */
  options?: Readonly<Record<string, unknown>>;
}

/**
 * Re-scores TARGET and returns one row per task × method × model × length (LongBench: per dataset, or per bucket).
 * `env` is the catalog's metrics and score sources; the built-in catalog by default (tests and scripts).
 */
export async function scoreTarget(
  target: string,
  opts: ScoreOptions = {},
  env: ScoreEnv = builtinCatalog(),
): Promise<ScoreTable> {
  return scoreTargetWith(target, opts, env);
}

function pct(x: number | null | undefined): string {
  return x === null || x === undefined ? 'n/a' : x.toFixed(2);
}

function extrasText(extras: Record<string, number>): string {
  return Object.entries(extras)
    .map(([k, v]) => `${k}=${pct(scorePercent('mean', v))}`)
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
        scale:
          "mean: 0..1; percent: mean x 100, 2 decimals (Python's round); LongBench's tasks 100 x total / n rounded as its eval.py (LongBench-E's buckets as numpy rounds); errors and truncated samples count as 0",
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
    `${basename(table.target)} (${table.format}): ${plural(table.rows.length, 'group')}`,
    '',
    ...pad([header, ...body]),
    '',
  ];
  lines.push(
    "score: mean x 100, 2 decimals (Python's round; LongBench's tasks: 100 x total / n, rounded as its eval.py); errors and truncated samples count as 0 and are counted in n. extras: means x 100.",
  );
  if (labels.length > 0)
    lines.push(
      `ref: ${labels.join('; ')}${differs > 0 ? `; * marks ${plural(differs, 'group that differs', 'groups that differ')} from our score` : '; all groups match'}.`,
    );
  for (const n of table.notes ?? []) lines.push(`note: ${n}`);
  for (const w of table.warnings) lines.push(`warning: ${w}`);
  return lines.join('\n');
}

export async function scoreCli(cmd: CommandOf<'score'>, io: CommandIO, ctx: CliContext): Promise<number> {
  const table = await scoreTarget(cmd.target, { format: cmd.format, metric: cmd.metric }, await ctx.catalog());
  io.out(formatScoreTable(table, cmd.json));
  return 0;
}
