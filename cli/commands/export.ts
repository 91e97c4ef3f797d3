// `bench export RUN --format F --out DIR`: a run's predictions in the file layout that the peer tool's own scorer
// reads (docs/PROTOCOLS.md §h), so its numbers can be checked with its code. Each layout is an ExportLayout that its
// family registers (generators/<family>/export.ts: ruler, longbench, memagent); this file is the generic driver.
// <name> is `<model>__<method>` with the model made safe as one folder name. `pred` is the answer the run's metric
// scored (the extracted answer, not the raw reply), so the peer's scorer reproduces the run's score. A sample that
// ended in error or truncated is written as a failed generation (empty pred) and scores 0 there too, as in the run.
// An --out folder may hold the exports of several runs: `.bench-export.json` there names the run each file was
// written from, and an export replaces only its own run's files (another run's file, or a file no export wrote, is
// refused before anything is written).
import { existsSync, mkdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { CommandIO, CommandOf } from '../../harness/config/commands.js';
import { UserError } from '../../harness/errors.js';
import {
  exportName,
  type ExportedFile,
  type ExportLayout,
  type ExportResult,
  type PlacedRow,
} from '../../harness/formats/export-layout.js';
import type { Catalog } from '../../harness/registry/family.js';
import { writeFileAtomic, writeJsonAtomic } from '../../harness/run-dir/atomic-write.js';
import { guardFiles } from '../../harness/run-dir/io-errors.js';
import { checkOutputDir } from '../../harness/path-checks.js';
import { readManifest } from '../../harness/run-dir/manifest.js';
import { latestRunRecords } from '../../harness/scorers/sources/run.js';
import type { SampleRecord } from '../../harness/types.js';
import type { CliContext } from '../context.js';
import { plural } from '../../harness/util/plural.js';

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

/** The file in an export folder naming which run wrote each file there. */
export const EXPORT_OWNERS = '.bench-export.json';

interface ExportOwners {
  /** Path relative to the export folder (with '/') → the real path of the run directory it was exported from. */
  files: Record<string, string>;
}

function readOwners(out: string): ExportOwners {
  const file = join(out, EXPORT_OWNERS);
  if (!existsSync(file)) return { files: {} };
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as ExportOwners;
    if (value && typeof value.files === 'object' && value.files !== null) return { files: { ...value.files } };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code) throw err;
  }
  throw new UserError(`${file} is damaged; remove it (and the exports it listed) or use another --out`);
}

const posix = (rel: string) => rel.split('\\').join('/');

/** Refuses (one line) an export that would replace a file another run, or no export, wrote. */
function checkOwners(out: string, rels: string[], run: string, owners: ExportOwners): void {
  for (const rel of rels) {
    const path = join(out, rel);
    if (!existsSync(path)) continue;
    const owner = owners.files[posix(rel)];
    if (owner === run) continue;
    throw new UserError(
      owner
        ? `--out ${out} already holds ${rel} exported from another run (${owner}); bench export replaces only its own run's files: use another --out`
        : `--out ${out} already holds ${rel}, not written by bench export of this run; remove it or use another --out`,
    );
  }
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

  const files = new Map<string, { placed: Array<{ index: number; row: PlacedRow['row'] }>; file: ExportedFile }>();
  const companions = new Map<string, string>();
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
      for (const c of layout.companions?.(rel, r) ?? []) companions.set(c.rel, c.text);
    }
    entry.placed.push({ index: r.index, row });
    entry.file.rows++;
    if (r.status !== 'ok') entry.file.failed++;
    if (r.status === 'error') errors++;
    if (r.status === 'truncated') truncated++;
    const name = exportName(r);
    if (!names.includes(name)) names.push(name);
  }
  if (existsSync(out) && !statSync(out).isDirectory())
    throw new UserError(`--out ${out} is a file; bench export writes a folder tree there`);
  // Below a file, on /proc (where a recursive mkdir never ends), not writable: one line before any write.
  checkOutputDir(out, '--out', 'pass a folder for the export, e.g. --out bench-out/export');
  const sorted = [...files.keys()].sort();
  const owned = [...sorted, ...companions.keys()].sort();
  const run = realpathSync(runDir);
  // A read-only mount, a file in the way, another user's folder: one line naming the file (exit 2).
  guardFiles('writing', out, {}, () => {
    const owners = readOwners(out);
    checkOwners(out, owned, run, owners);
    // Claimed before the files are written, so an export killed halfway still owns what it left.
    for (const rel of owned) owners.files[posix(rel)] = run;
    mkdirSync(out, { recursive: true });
    writeJsonAtomic(join(out, EXPORT_OWNERS), owners);
    for (const rel of sorted) {
      const { placed, file } = files.get(rel)!;
      // The peers write in data order.
      placed.sort((a, b) => a.index - b.index);
      mkdirSync(dirname(file.path), { recursive: true });
      const rows = placed.map((p) => p.row);
      writeFileAtomic(
        file.path,
        layout.serialize ? layout.serialize(rows) : rows.map((row) => jsonLine(row) + '\n').join(''),
      );
    }
    for (const [rel, text] of companions) writeFileAtomic(join(out, rel), text);
  });
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
    io.out(
      `${relative(result.out, f.path) || f.path}: ${plural(f.rows, 'row')}${f.failed ? ` (${f.failed} failed)` : ''}`,
    );
  io.out(
    `wrote ${plural(result.rows, 'sample')} in ${plural(result.files.length, 'file')} under ${result.out} in ${label}'s layout`,
  );
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
