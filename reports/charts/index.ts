// Decides which charts a set of runs gets and writes each at both sizes.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SampleRecord } from '../../harness/types.js';
import { paperBaselinesFor, type PaperBaseline, type PaperLength } from '../baselines.js';
import type { SummaryRow } from '../summary.js';
import { renderAccuracyChart } from './accuracy.js';
import { CHART_SIZES, type ChartSize, type ChartSizeName } from './canvas.js';
import { depthOf, renderHeatmap } from '../../generators/ruler/heatmap-chart.js';
import { hasPlacement, placementLabel, renderProbeChart } from '../../generators/ruler-hqa/probe-chart.js';
import { renderLongBenchChart } from '../../generators/longbench/scores-chart.js';
import { hasRouge, renderRougeChart } from '../../generators/longbench/rouge-chart.js';
import { shortModel, slug } from '../labels.js';
import type { DiffRow } from '../paired.js';
import { chartableDiffRows, renderDifferenceChart } from './difference.js';

export type ChartKind = 'accuracy' | 'niah-heatmap' | 'probe' | 'rouge' | 'longbench' | 'difference';

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
  /** Paper tables to overlay on accuracy charts; empty = no overlay. */
  paper: PaperBaseline[];
  /** docs → paper-label table for placing docs:N lengths. */
  lengthTable: PaperLength[];
  sizes?: ChartSize[];
  /** Paired differences (reports/paired.ts): one difference-vs-length chart per task with two lengths or more. */
  paired?: DiffRow[];
  /** α the paired rows were Holm-marked with. Default 0.05. */
  alpha?: number;
}

interface Job {
  kind: ChartKind;
  title: string;
  base: string;
  render: (size: ChartSize) => Buffer;
}

function groupRecords(records: SampleRecord[], pick: (r: SampleRecord) => boolean): Map<string, SampleRecord[]> {
  const groups = new Map<string, SampleRecord[]>();
  for (const r of records) {
    if (!pick(r)) continue;
    const key = `${r.task}\u0000${r.method}\u0000${r.model}`;
    const list = groups.get(key);
    if (list) list.push(r);
    else groups.set(key, [r]);
  }
  return groups;
}

/** The chart jobs for these rows/records, in a stable order. */
function plan(p: ChartPlan): Job[] {
  const jobs: Job[] = [];
  const refModels = new Set(p.rows.filter((r) => r.isReferenceReader).map((r) => r.model));
  // Plain RULER-HQA records carry placement "random" too: the probe chart needs two placements or more.
  const probeGroups = [...groupRecords(p.records, hasPlacement).values()].filter(
    (g) => new Set(g.map((r) => placementLabel(r.metadata?.placement))).size >= 2,
  );
  const probeTasks = new Set(probeGroups.map((g) => g[0].task));
  const tasks = [...new Set(p.rows.map((r) => r.task))].filter((t) => !probeTasks.has(t));
  // Native-length tasks (LongBench) have no length axis: a log axis cannot place their length 0, nor their buckets.
  const onAxis = (r: SummaryRow) => r.lengthKind === 'tokens' || r.lengthKind === 'docs';
  for (const task of tasks) {
    const rows = p.rows.filter((r) => r.task === task && onAxis(r) && !hasRouge(r));
    const overlay = paperBaselinesFor(task, p.paper);
    const lengths = new Set(rows.map((r) => `${r.lengthKind}:${r.length}`));
    if (rows.length === 0 || (lengths.size < 2 && overlay.length === 0)) continue;
    jobs.push({
      kind: 'accuracy',
      title: `${task}: accuracy vs context length`,
      base: `accuracy-${slug(task)}`,
      render: (size) => renderAccuracyChart({ task, rows, paper: overlay, lengthTable: p.lengthTable, size }),
    });
  }
  for (const group of groupRecords(p.records, (r) => depthOf(r) !== null).values()) {
    const { task, method, model } = group[0];
    jobs.push({
      kind: 'niah-heatmap',
      title: `${task}: score by needle depth and context length (${method})`,
      base: `niah-${slug(task)}-${slug(method)}-${slug(model)}`,
      render: (size) =>
        renderHeatmap({ task, method, model, isReferenceReader: refModels.has(model), records: group, size }),
    });
  }
  for (const group of probeGroups) {
    const { task, method, model, metric } = group[0];
    jobs.push({
      kind: 'probe',
      title: `${task}: accuracy by key-information placement (${method})`,
      base: `probe-${slug(task)}-${slug(method)}-${slug(model)}`,
      render: (size) =>
        renderProbeChart({
          task,
          method,
          model,
          metric,
          isReferenceReader: refModels.has(model),
          records: group,
          size,
        }),
    });
  }
  if (p.rows.some((r) => r.lengthKind === 'native')) {
    jobs.push({
      kind: 'longbench',
      title: 'LongBench: score per dataset',
      base: 'longbench-scores',
      render: (size) => renderLongBenchChart({ rows: p.rows, size }),
    });
  }
  // One ROUGE chart per model, its methods side by side.
  for (const model of [
    ...new Set(p.rows.filter((r) => r.lengthKind !== 'bucket' && hasRouge(r)).map((r) => r.model)),
  ]) {
    jobs.push({
      kind: 'rouge',
      title: `Summarisation: ROUGE recall — ${shortModel(model, refModels.has(model))}`,
      base: `rouge-recall-${slug(model)}`,
      render: (size) => renderRougeChart({ model, isReferenceReader: refModels.has(model), rows: p.rows, size }),
    });
  }
  for (const task of [...new Set(chartableDiffRows(p.paired ?? []).map((r) => r.task))]) {
    const rows = chartableDiffRows(p.paired ?? []).filter((r) => r.task === task);
    if (new Set(rows.map((r) => `${r.lengthKind}:${r.length}`)).size < 2) continue;
    jobs.push({
      kind: 'difference',
      title: `${task}: paired difference vs context length`,
      base: `difference-${slug(task)}`,
      render: (size) =>
        renderDifferenceChart({ task, rows: p.paired ?? [], lengthTable: p.lengthTable, alpha: p.alpha ?? 0.05, size }),
    });
  }
  // Distinct file names even when slugs collide.
  const seen = new Map<string, number>();
  for (const job of jobs) {
    const count = seen.get(job.base) ?? 0;
    seen.set(job.base, count + 1);
    if (count > 0) job.base = `${job.base}-${count + 1}`;
  }
  return jobs;
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
