// `bench report <run-dir>... [--out DIR] [--paper] [--format png,svg,pdf] [--size single,double] [--no-title]`: summary
// CSV/JSON/markdown, charts with caption files, and a self-contained report.html.
import { costModel } from '../cost-preset.js';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { UserError } from '../../harness/errors.js';
import { writeFileAtomic } from '../../harness/run-dir/atomic-write.js';
import { guardFiles, guardFilesAsync } from '../../harness/run-dir/io-errors.js';
import { modelRecordKey } from '../../harness/run-dir/record-key.js';
import { checkOutputDir } from '../../harness/path-checks.js';
import type { SampleRecord } from '../../harness/types.js';
import { DEFAULT_DPI, DEFAULT_FIGURES, type FigureOptions, type ReportFacet } from '../../harness/report/facet.js';
import { builtinCatalog } from '../../generators/index.js';
import type { CliContext } from '../context.js';
import { plural } from '../../harness/util/plural.js';
import {
  paperBaselinesFor,
  loadPaperBaselines,
  paperLengthTable,
  type PaperBaseline,
} from '../../reports/baselines.js';
import { captionFiles, chartOptions, writeCharts } from '../../reports/charts/index.js';
import { comparison } from '../../reports/comparison.js';
import { expectedSources, markCompleteness, missingCells } from '../../reports/completeness.js';
import { facetTableHtml, renderHtml, type ReportRun } from '../../reports/html.js';
import { loadManifestView } from '../../reports/manifest.js';
import { facetTableMarkdown, reportMarkdown } from '../../reports/markdown.js';
import { loadRecords } from '../../reports/records.js';
import { summarize, writeSummary, type SummaryRow } from '../../reports/summary.js';
import { fixtureNote } from '../../reports/fixtures.js';
import type { CommandIO, CommandOf } from '../../harness/config/commands.js';
import { applyHolm, DEFAULT_ALPHA, pairSeries, type DiffRow } from '../../reports/paired.js';
import {
  diffColumns,
  diffCsv,
  diffJson,
  holmSentence,
  pairedHtml,
  pairedMarkdown,
  textTable,
} from '../../reports/paired-report.js';

export interface ReportOptions {
  runDirs: string[];
  /** Output directory. Default: the run directory itself (one run) or bench-out/report (several). */
  out?: string;
  /** Overlay and tabulate the paper's published numbers (baselines/paper). */
  paper?: boolean;
  /** Warnings (torn lines, missing manifests, duplicates); default: stderr. */
  onWarning?: (message: string) => void;
  /** The families' report facets (charts, breakdown rows, paper tables). Default: the built-in catalog's. */
  facets?: readonly ReportFacet[];
  /** Chart formats, sizes and title (--format, --size, --no-title). Default: PNG, single and double, titled. */
  figures?: FigureOptions;
  /** The simulated GPU behind est_gpu_seconds_per_sample (--cost-preset). Default: qwen2.5-7b-h100. */
  costPreset?: string;
}

export interface ReportResult {
  files: string[];
  rows: SummaryRow[];
  warnings: string[];
  /** Paired differences between methods (or models) sharing sample ids, Holm-marked across all of them. */
  paired: DiffRow[];
  /** How the charts were written (--format, --size, --no-title, --dpi), the PNG dpi filled in. */
  figures: FigureOptions & { dpi: number };
}

/** The real path of `dir` (symlinks followed) where it exists, else its absolute path. */
function realDir(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return resolve(dir);
  }
}

/** Whether `dir` holds a run (a manifest or samples.jsonl written by bench run or bench merge). */
function isRunDir(dir: string): boolean {
  return existsSync(join(dir, 'manifest.json')) || existsSync(join(dir, 'samples.jsonl'));
}

/**
 * A report writes into a run directory only when that run is the whole report (its summary files and report.html
 * are that run's own); another run's directory, or one of several reported runs, is refused before anything is read.
 */
function checkReportOut(out: string, runDirs: string[]): void {
  const target = realDir(out);
  const inputs = runDirs.map(realDir);
  if (inputs.length === 1 && inputs[0] === target) return;
  const fix =
    'a report goes to its own folder or its one run directory: use another --out, e.g. --out bench-out/report';
  if (inputs.includes(target))
    throw new UserError(`--out ${out} is one of the ${inputs.length} run directories reported together; ${fix}`);
  if (isRunDir(target))
    throw new UserError(`--out ${out} is another run's directory (its summary and report.html are its own); ${fix}`);
}

export async function reportCommand(options: ReportOptions): Promise<ReportResult> {
  if (options.runDirs.length === 0)
    throw new UserError(
      'bench report needs at least one run directory (bench report <run-dir>... [--out DIR] [--paper])',
    );
  for (const dir of options.runDirs) {
    if (!existsSync(dir)) throw new UserError(`run directory not found: ${dir}`);
    // Another user's directory that this one may not open: say so, not "has no samples.jsonl".
    guardFiles('reading', dir, { reading: true }, () => readdirSync(dir));
    if (!existsSync(join(dir, 'samples.jsonl')))
      throw new UserError(`${dir} has no samples.jsonl (is it a run directory written by "bench run"?)`);
  }
  const out = options.out ?? (options.runDirs.length === 1 ? options.runDirs[0] : join('bench-out', 'report'));
  if (options.out !== undefined)
    checkOutputDir(options.out, '--out', 'pass a directory for the report, e.g. --out bench-out/report');
  checkReportOut(out, options.runDirs);
  const facets = options.facets ?? builtinCatalog().reportFacets.all();
  const warnings: string[] = [];
  const warn = (m: string) => {
    warnings.push(m);
    (options.onWarning ?? ((x: string) => process.stderr.write(`warning: ${x}\n`)))(m);
  };

  // Later run directories win when the same sample (method, model, id) appears in several.
  const byKey = new Map<string, SampleRecord>();
  const runs: ReportRun[] = [];
  const referenceModels = new Set<string>();
  for (const dir of options.runDirs) {
    const manifest = guardFiles('reading', dir, { reading: true }, () => loadManifestView(dir, warn));
    if (manifest?.model?.id && manifest.model.isReferenceReader) referenceModels.add(manifest.model.id);
    const records = await guardFilesAsync('reading', dir, { reading: true }, () =>
      loadRecords(dir, { onWarning: warn }),
    );
    let replaced = 0;
    for (const r of records) {
      const key = modelRecordKey(r);
      if (byKey.delete(key)) replaced++;
      byKey.set(key, r);
    }
    if (replaced)
      warn(
        `${dir}: ${plural(replaced, 'sample also appears', 'samples also appear')} in an earlier run directory; using this run's copies`,
      );
    runs.push({ dir, manifest, records: records.length });
  }
  const records = [...byKey.values()];
  const rows = summarize(records, facets, costModel(options.costPreset));
  for (const row of rows) if (referenceModels.has(row.model)) row.isReferenceReader = true;
  // Cells with fewer samples than their run planned (interrupted, unfinished shard) are flagged, not shown as complete.
  const planned = runs.flatMap((r) => expectedSources(r.manifest));
  markCompleteness(rows, planned);
  const missing = missingCells(rows, planned);
  const partial = rows.filter((r) => r.complete === false).length;
  if (partial || missing.length) {
    warn(
      `incomplete runs: ${[
        partial ? `${partial} cell${partial > 1 ? 's have' : ' has'} fewer samples than planned (shown "n of N")` : '',
        missing.length
          ? `${missing.length} planned cell${missing.length > 1 ? 's have' : ' has'} no finished sample`
          : '',
      ]
        .filter(Boolean)
        .join('; ')}; ` + 'rerun the same bench run command to finish (or bench merge every shard)',
    );
  }

  // A read-only or foreign directory, a file in the way: one line naming the file (exit 2), not errno text.
  return guardFiles('writing', out, {}, () => {
    mkdirSync(out, { recursive: true });
    const skipped = runs.flatMap((r) => r.manifest?.manifest.skipped ?? []);
    const files = writeSummary(out, rows, missing, skipped);

    const figures = options.figures ?? DEFAULT_FIGURES;
    const lengthTable = paperLengthTable(facets);
    const paper: PaperBaseline[] = options.paper ? loadPaperBaselines() : [];
    const overlays = paper.filter((b) => rows.some((r) => paperBaselinesFor(r.task, [b], facets).length > 0));
    const comparisons = overlays.map((b) => comparison(rows, b));
    if (options.paper && overlays.length === 0)
      warn('--paper: no task of these runs has published numbers in baselines/paper/');

    const paired = applyHolm(pairSeries(records), DEFAULT_ALPHA);
    // The families' own tables (BABILong's task × length accuracies and its leaderboard), after the summary.
    const tables = [...facets]
      .sort((a, b) => a.order - b.order)
      .flatMap((f) => f.tables?.({ rows, records, referenceModels, paper: overlays }) ?? []);
    if (paired.length) {
      for (const [name, body] of [
        ['paired.csv', diffCsv(paired)],
        ['paired.json', `${JSON.stringify(diffJson(paired, DEFAULT_ALPHA), null, 2)}\n`],
      ]) {
        writeFileAtomic(join(out, name), body);
        files.push(join(out, name));
      }
    }

    const charts = writeCharts(out, {
      rows,
      records,
      facets,
      paper: overlays,
      lengthTable,
      paired,
      alpha: DEFAULT_ALPHA,
      onWarning: warn,
      ...chartOptions(figures),
    });
    files.push(...charts.map((c) => c.file), ...captionFiles(charts));
    // summary.md links the smallest size's first format; report.html embeds the largest size's PNG.
    const linkSize = figures.sizes.includes('single') ? 'single' : 'double';
    const embedSize = figures.sizes.includes('double') ? 'double' : 'single';

    const mdFile = join(out, 'summary.md');
    writeFileAtomic(
      mdFile,
      reportMarkdown(
        rows,
        facets,
        comparisons,
        charts.filter((c) => c.size === linkSize && c.format === figures.formats[0]).map((c) => c.name),
        missing,
        [...tables.map(facetTableMarkdown), ...(paired.length ? [pairedMarkdown(paired, DEFAULT_ALPHA)] : [])],
      ),
    );
    files.push(mdFile);

    const htmlFile = join(out, 'report.html');
    writeFileAtomic(
      htmlFile,
      renderHtml({
        runs,
        rows,
        records,
        facets,
        charts: charts.flatMap((c) =>
          c.size === embedSize && c.png ? [{ title: c.title, name: c.name, png: c.png, caption: c.captionText }] : [],
        ),
        comparisons,
        warnings,
        missing,
        sections: [...tables.map(facetTableHtml), ...(paired.length ? [pairedHtml(paired, DEFAULT_ALPHA)] : [])],
      }),
    );
    files.push(htmlFile);
    return { files, rows, warnings, paired, figures: { ...figures, dpi: figures.dpi ?? DEFAULT_DPI } };
  });
}

/** `bench report --json`: the files written, summary.json's document, the warnings, the paired differences and the
 *  charts' formats, sizes, title flag and PNG dpi. */
export function reportJson(result: ReportResult): Record<string, unknown> {
  const summaryFile = result.files.find((f) => f.endsWith('summary.json'));
  return {
    command: 'report',
    files: result.files,
    summary: summaryFile ? (JSON.parse(readFileSync(summaryFile, 'utf8')) as unknown) : null,
    warnings: result.warnings,
    paired: result.paired.length ? diffJson(result.paired, DEFAULT_ALPHA) : null,
    html: result.files.find((f) => f.endsWith('report.html')) ?? null,
    figures: result.figures,
  };
}

export async function reportCli(cmd: CommandOf<'report'>, io: CommandIO, ctx: CliContext): Promise<number> {
  const result = await reportCommand({
    facets: (await ctx.catalog()).reportFacets.all(),
    runDirs: cmd.runDirs,
    out: cmd.out,
    paper: cmd.paper,
    ...(cmd.figures ? { figures: cmd.figures } : {}),
    ...(cmd.costPreset ? { costPreset: cmd.costPreset } : {}),
    onWarning: (m) => io.err(`warning: ${m}`),
  });
  const html = result.files.find((f) => f.endsWith('report.html'));
  if (cmd.json) {
    io.out(JSON.stringify(reportJson(result), null, 2));
    return 0;
  }
  for (const f of result.files) io.out(f);
  if (fixtureNote(result.rows)) io.out(`\n${fixtureNote(result.rows)}`);
  if (result.paired.length)
    io.out(
      `\npaired differences (B − A over shared sample ids)\n${textTable(result.paired, diffColumns(DEFAULT_ALPHA))}\n${holmSentence(result.paired, DEFAULT_ALPHA)}`,
    );
  if (html) io.out(`next: open ${html} in a browser`);
  return 0;
}
