// Decides which charts a set of runs gets and writes each at every size and format asked for: the accuracy charts, then each report
// facet's charts (the families' own: harness/report/facet.ts), then the paired differences.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DEFAULT_FIGURES,
  type FacetChart,
  type FigureOptions,
  type RenderedChart,
  type ReportFacet,
} from '../../harness/report/facet.js';
import type { SampleRecord } from '../../harness/types.js';
import { paperBaselinesFor, paperLengthTable, type PaperBaseline, type PaperLength } from '../baselines.js';
import type { SummaryRow } from '../summary.js';
import { accuracyFigure } from './accuracy.js';
import { atDpi, CHART_SIZES, type ChartFormat, type ChartSize, type ChartSizeName } from './canvas.js';
import { captionText } from './frame.js';
import { slug } from '../labels.js';
import type { DiffRow } from '../paired.js';
import { chartableDiffRows, differenceFigure } from './difference.js';
import { costFigure, costPoints } from './cost.js';
import { retentionFigure, retentionRecords } from './retention.js';

/** 'accuracy', 'difference', or a facet chart's kind ('niah-heatmap', 'probe', 'longbench', 'rouge', ...). */
export type ChartKind = string;

export interface ChartFile {
  kind: ChartKind;
  title: string;
  size: ChartSizeName;
  format: ChartFormat;
  /** Path as written (outDir joined with name). */
  file: string;
  /** File name relative to the output directory (charts/<base>-<size>.<format>). */
  name: string;
  bytes: Buffer;
  /**
   * This chart as PNG at this size: the file's bytes for a png file; for the first other format, a PNG rendered in
   * memory when no png is written (report.html embeds PNGs).
   */
  png?: Buffer;
  /** The caption file beside the figure (charts/<base>.caption.txt), shared by its sizes and formats. */
  caption: string;
  captionText: string;
}

export interface ChartPlan {
  rows: SummaryRow[];
  records: SampleRecord[];
  /** The families' report facets: their charts, and the paper tables' task names and length table. */
  facets: readonly ReportFacet[];
  /** Paper tables to overlay on accuracy charts; empty = no overlay. */
  paper: PaperBaseline[];
  /** docs → paper-label table for placing docs:N lengths. Default: the facets' (paperLengthTable). */
  lengthTable?: PaperLength[];
  /** Default: single and double column. */
  sizes?: ChartSize[];
  /** Default: png. */
  formats?: ChartFormat[];
  /** Draw titles in the images (default true); the caption files hold them either way. */
  title?: boolean;
  /** Paired differences (reports/paired.ts): one difference-vs-length chart per task with two lengths or more. */
  paired?: DiffRow[];
  /** α the paired rows were Holm-marked with. Default 0.05. */
  alpha?: number;
  /** A chart that cannot give a requested format (default: stderr). */
  onWarning?: (message: string) => void;
}

/** The chart jobs for these rows/records, in a stable order. */
function plan(p: ChartPlan): FacetChart[] {
  const jobs: FacetChart[] = [];
  const lengthTable = p.lengthTable ?? paperLengthTable(p.facets);
  const referenceModels = new Set(p.rows.filter((r) => r.isReferenceReader).map((r) => r.model));
  const facets = [...p.facets].sort((a, b) => a.order - b.order);
  const contributed = facets.map((f) =>
    f.charts?.({ rows: p.rows, records: p.records, referenceModels, paper: p.paper }),
  );
  const claimed = (r: SummaryRow) => contributed.some((c) => c?.claims?.(r) ?? false);
  // Native-length tasks (LongBench) have no length axis: a log axis cannot place their length 0, nor their buckets.
  const onAxis = (r: SummaryRow) => r.lengthKind === 'tokens' || r.lengthKind === 'docs';
  for (const task of [...new Set(p.rows.map((r) => r.task))]) {
    const rows = p.rows.filter((r) => r.task === task && onAxis(r) && !claimed(r));
    const overlay = paperBaselinesFor(task, p.paper, p.facets);
    const lengths = new Set(rows.map((r) => `${r.lengthKind}:${r.length}`));
    if (rows.length === 0 || (lengths.size < 2 && overlay.length === 0)) continue;
    jobs.push({
      kind: 'accuracy',
      title: `${task}: accuracy vs context length`,
      base: `accuracy-${slug(task)}`,
      render: (size, output) => accuracyFigure({ task, rows, paper: overlay, lengthTable, size, output }),
    });
  }
  // A memory agent's retention of the gold after its evidence chunk, per task (records with a memory trace).
  for (const task of [...new Set(retentionRecords(p.records).map((r) => r.task))]) {
    jobs.push({
      kind: 'retention',
      title: `${task}: memory retention after the evidence`,
      base: `retention-${slug(task)}`,
      render: (size, output) => retentionFigure({ task, records: p.records, size, output }),
    });
  }
  for (const c of contributed) jobs.push(...(c?.charts ?? []));
  // Accuracy against estimated cost, per task with two points or more (every length, LongBench's native too).
  for (const task of [...new Set(p.rows.map((r) => r.task))]) {
    if (costPoints(p.rows, task).length < 2) continue;
    jobs.push({
      kind: 'cost',
      title: `${task}: accuracy vs estimated GPU cost`,
      base: `cost-${slug(task)}`,
      render: (size, output) => costFigure({ task, rows: p.rows, size, output }),
    });
  }
  for (const task of [...new Set(chartableDiffRows(p.paired ?? []).map((r) => r.task))]) {
    const rows = chartableDiffRows(p.paired ?? []).filter((r) => r.task === task);
    if (new Set(rows.map((r) => `${r.lengthKind}:${r.length}`)).size < 2) continue;
    jobs.push({
      kind: 'difference',
      title: `${task}: paired difference vs length`,
      base: `difference-${slug(task)}`,
      render: (size, output) =>
        differenceFigure({ task, rows: p.paired ?? [], lengthTable, alpha: p.alpha ?? 0.05, size, output }),
    });
  }
  // Distinct file names even when slugs collide.
  const seen = new Map<string, number>();
  return jobs.map((job) => {
    const count = seen.get(job.base) ?? 0;
    seen.set(job.base, count + 1);
    return count > 0 ? { ...job, base: `${job.base}-${count + 1}` } : job;
  });
}

/** A chart's rendering as bytes and caption; a plain Buffer (the older PNG-only API) has the title alone. */
function rendered(job: FacetChart, out: RenderedChart | Buffer): RenderedChart {
  return Buffer.isBuffer(out) ? { bytes: out, caption: { title: job.title, notes: [] } } : out;
}

/**
 * Renders every chart at every size and format into outDir/charts/ (charts/<base>-<size>.<format>), and each chart's
 * caption (title, subtitle, notes) into charts/<base>.caption.txt; notes are never drawn in the images.
 */
export function writeCharts(outDir: string, p: ChartPlan): ChartFile[] {
  const dir = join(outDir, 'charts');
  const sizes = p.sizes ?? Object.values(CHART_SIZES);
  const formats = p.formats ?? ['png'];
  const title = p.title ?? true;
  const warn = p.onWarning ?? ((m: string) => process.stderr.write(`warning: ${m}\n`));
  const files: ChartFile[] = [];
  const jobs = plan(p);
  if (jobs.length) mkdirSync(dir, { recursive: true });
  for (const job of jobs) {
    const captionName = `charts/${job.base}.caption.txt`;
    let caption: string | null = null;
    let legacySkipped = false;
    for (const size of sizes) {
      for (const [k, format] of formats.entries()) {
        const out = job.render(size, { format, title });
        if (Buffer.isBuffer(out) && format !== 'png') {
          if (!legacySkipped) warn(`${job.title}: this chart is drawn as PNG only; no ${format} written`);
          legacySkipped = true;
          continue;
        }
        const r = rendered(job, out);
        caption ??= captionText(r.caption);
        const name = `charts/${job.base}-${size.name}.${format}`;
        const file = join(outDir, name);
        writeFileSync(file, r.bytes);
        const png =
          format === 'png'
            ? r.bytes
            : k === 0 && !formats.includes('png')
              ? rendered(job, job.render(size, { format: 'png', title })).bytes
              : undefined;
        files.push({
          kind: job.kind,
          title: job.title,
          size: size.name,
          format,
          file,
          name,
          bytes: r.bytes,
          ...(png ? { png } : {}),
          caption: join(outDir, captionName),
          captionText: caption,
        });
      }
    }
    if (caption !== null) writeFileSync(join(outDir, captionName), caption);
  }
  return files;
}

/** The caption files writeCharts wrote, once each, in chart order. */
export function captionFiles(files: readonly ChartFile[]): string[] {
  return [...new Set(files.map((f) => f.caption))];
}

/** writeCharts' sizes (at --dpi), formats and title flag for a command's figure options (default DEFAULT_FIGURES). */
export function chartOptions(figures: FigureOptions = DEFAULT_FIGURES): Pick<ChartPlan, 'sizes' | 'formats' | 'title'> {
  return {
    sizes: figures.sizes.map((s) => atDpi(CHART_SIZES[s], figures.dpi)),
    formats: figures.formats,
    title: figures.title,
  };
}
