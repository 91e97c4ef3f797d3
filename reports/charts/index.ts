// Decides which charts a set of runs gets and writes each at both sizes: the accuracy charts, then each report
// facet's charts (the families' own: harness/report/facet.ts), then the paired differences.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FacetChart, ReportFacet } from '../../harness/report/facet.js';
import type { SampleRecord } from '../../harness/types.js';
import { paperBaselinesFor, paperLengthTable, type PaperBaseline, type PaperLength } from '../baselines.js';
import type { SummaryRow } from '../summary.js';
import { renderAccuracyChart } from './accuracy.js';
import { CHART_SIZES, type ChartSize, type ChartSizeName } from './canvas.js';
import { slug } from '../labels.js';
import type { DiffRow } from '../paired.js';
import { chartableDiffRows, renderDifferenceChart } from './difference.js';

/** 'accuracy', 'difference', or a facet chart's kind ('niah-heatmap', 'probe', 'longbench', 'rouge', ...). */
export type ChartKind = string;

export interface ChartFile {
  kind: ChartKind;
  title: string;
  size: ChartSizeName;
  /** Absolute or out-relative path as written. */
  file: string;
  /** File name relative to the output directory (charts/…png). */
  name: string;
  png: Buffer;
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
  sizes?: ChartSize[];
  /** Paired differences (reports/paired.ts): one difference-vs-length chart per task with two lengths or more. */
  paired?: DiffRow[];
  /** α the paired rows were Holm-marked with. Default 0.05. */
  alpha?: number;
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
      render: (size) => renderAccuracyChart({ task, rows, paper: overlay, lengthTable, size }),
    });
  }
  for (const c of contributed) jobs.push(...(c?.charts ?? []));
  for (const task of [...new Set(chartableDiffRows(p.paired ?? []).map((r) => r.task))]) {
    const rows = chartableDiffRows(p.paired ?? []).filter((r) => r.task === task);
    if (new Set(rows.map((r) => `${r.lengthKind}:${r.length}`)).size < 2) continue;
    jobs.push({
      kind: 'difference',
      title: `${task}: paired difference vs context length`,
      base: `difference-${slug(task)}`,
      render: (size) =>
        renderDifferenceChart({ task, rows: p.paired ?? [], lengthTable, alpha: p.alpha ?? 0.05, size }),
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

/** Renders every chart at every size into outDir/charts/. */
export function writeCharts(outDir: string, p: ChartPlan): ChartFile[] {
  const dir = join(outDir, 'charts');
  const sizes = p.sizes ?? Object.values(CHART_SIZES);
  const files: ChartFile[] = [];
  const jobs = plan(p);
  if (jobs.length) mkdirSync(dir, { recursive: true });
  for (const job of jobs) {
    for (const size of sizes) {
      const png = job.render(size);
      const name = `charts/${job.base}-${size.name}.png`;
      const file = join(outDir, name);
      writeFileSync(file, png);
      files.push({ kind: job.kind, title: job.title, size: size.name, file, name, png });
    }
  }
  return files;
}
