// `bench export RUN --format F --out DIR`: a run's predictions in the file layout that the peer tool's own scorer
// reads (docs/PROTOCOLS.md §h), so its numbers can be checked with its code. Each layout is an ExportLayout that its
// family registers (generators/<family>/export.ts: ruler, longbench, memagent); this file is the generic driver.
// <name> is `<model>__<method>` with the model made safe as one folder name. `pred` is the answer the run's metric
// scored (the extracted answer, not the raw reply), so the peer's scorer reproduces the run's score. A sample that
// ended in error or truncated is written as a failed generation (empty pred) and scores 0 there too, as in the run.
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { CommandIO, CommandOf } from '../../harness/config/commands.js';
import { UserError } from '../../harness/errors.js';
import {
  exportName,
  type ExportedFile,
  type ExportLayout,
  type ExportResult,
} from '../../harness/formats/export-layout.js';
import type { Catalog } from '../../harness/registry/family.js';
import { writeFileAtomic } from '../../harness/run-dir/atomic-write.js';
import { readManifest } from '../../harness/run-dir/manifest.js';
import { latestRunRecords } from '../../harness/scorers/sources/run.js';
import type { SampleRecord } from '../../harness/types.js';
import type { CliContext } from '../context.js';

export { exportName, safeName } from '../../harness/formats/export-layout.js';
export type { ExportedFile, ExportResult } from '../../harness/formats/export-layout.js';

/** A --format name of the catalog's export layouts (ruler, longbench, memagent built in). */
export type ExportFormat = string;

export interface ExportOptions {
  runDir: string;
  format: ExportFormat;
  out: string;
  /** Export only these tasks of the run. */
  tasks?: string[];
}

type ExportCatalog = Pick<Catalog, 'exportLayouts' | 'exportFormats' | 'metrics'>;

function jsonLine(row: Array<[string, unknown]>): string {
  return JSON.stringify(Object.fromEntries(row));
}

/** The layout named by --format, or one line listing the known ones. */
function layoutOf(format: string, catalog: ExportCatalog): ExportLayout {
  const layout = catalog.exportLayouts.find(format);
  if (!layout) throw new UserError(`unknown --format '${format}': use ${catalog.exportFormats().join(', ')}`);
  return layout;
}

/** Writes the export; throws UserError (one line) when the run does not fit the format. */
export function exportRun(opts: ExportOptions, catalog: ExportCatalog): ExportResult {
  const { runDir, format, out } = opts;
  const layout = layoutOf(format, catalog);
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
    const why = layout.misfit(r);
    if (why !== null && !bad.has(r.task)) bad.set(r.task, { why, record: r });
  }
  if (bad.size > 0) {
    const list = [...bad].map(([t, { why }]) => `${t} (${why})`).join(', ');
    const fitting = runTasks.filter((t) => !bad.has(t) && (opts.tasks === undefined || opts.tasks.includes(t)));
    // The formats each misfit task would fit, one hint per set of formats.
    const byHint = new Map<string, string[]>();
    for (const [t, { record }] of bad) {
      const others = catalog
        .exportFormats()
        .filter((f) => f !== format && catalog.exportLayouts.get(f).misfit(record) === null);
      if (others.length > 0) byHint.set(others.join(' or '), [...(byHint.get(others.join(' or ')) ?? []), t]);
    }
    const hints = [...byHint].map(([f, ts]) => `--format ${f} for ${ts.join(', ')}`);
    const also = fitting.length > 0 ? `; export the others with --tasks ${fitting.join(',')}` : '';
    throw new UserError(
      `--format ${format} takes ${layout.fits}; this run has ${list}${hints.length ? ` (use ${hints.join(', ')})` : ''}${also}`,
    );
  }

  const files = new Map<string, { placed: Array<{ index: number; line: string }>; file: ExportedFile }>();
  const names: string[] = [];
  let errors = 0;
  let truncated = 0;
  for (const r of records) {
    const { rel, row } = layout.place(r, catalog.metrics);
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

export async function exportCli(cmd: CommandOf<'export'>, io: CommandIO, ctx: CliContext): Promise<number> {
  const catalog = await ctx.catalog();
  const result = exportRun({ runDir: cmd.runDir, format: cmd.format, out: cmd.out, tasks: cmd.tasks }, catalog);
  const layout = catalog.exportLayouts.get(result.format);
  const label = layout.label;
  for (const f of result.files)
    io.out(`${relative(result.out, f.path) || f.path}: ${f.rows} rows${f.failed ? ` (${f.failed} failed)` : ''}`);
  io.out(`wrote ${result.rows} samples in ${result.files.length} file(s) under ${result.out} in ${label}'s layout`);
  const failed = result.errors + result.truncated;
  if (failed > 0) {
    io.out(
      `${failed} of ${result.rows} samples ended in error (${result.errors}) or truncated (${result.truncated}): written as a failed generation ` +
        `(empty pred${layout.failedNote ?? ''}), so ${label}'s scorer counts them as 0, as the run does`,
    );
  }
  io.out(`score with ${label}'s own script:`);
  for (const line of layout.peerCommands(result)) io.out(`  ${line}`);
  for (const w of result.warnings) io.err(`bench: warning: ${w}`);
  return 0;
}
