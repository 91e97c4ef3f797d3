// RULER's suite facet: the suite average rows (suite-average.ts) and the paper's heatmaps of them: charts/heatmap-ruler
// (MemAgent's average, figs/avg_00.png), heatmap-ruler-all (every RULER task), and one per task as figs/fwe_00.png
// (heatmap-ruler-<task>). With bench report --paper the paper's rows (baselines/paper/memagent-ruler-*.json, read
// from its figures) are drawn under ours.
import type { FacetChart, ReportFacet } from '../../harness/report/facet.js';
import type { PaperBaseline } from '../../harness/report/paper.js';
import type { SummaryRow } from '../../harness/report/summary-row.js';
import { slug } from '../../reports/labels.js';
import { heatColumns, ourHeatRows, paperHeatRows, suiteHeatmapFigure } from './suite-heatmap-chart.js';
import {
  RULER_ALL_SUITE,
  RULER_SUITE,
  SUITE_AVERAGES,
  rulerSuiteAggregate,
  type SuiteAverage,
} from './suite-average.js';

function countNote(rows: readonly SummaryRow[]): string {
  const ns = rows.map((r) => r.n);
  const lo = Math.min(...ns);
  const hi = Math.max(...ns);
  return `Samples per cell: ${lo === hi ? lo : `${lo}–${hi}`}.`;
}

function paperNote(b: PaperBaseline | undefined): string {
  return b
    ? `Paper rows: ${b.source.location}, arXiv ${b.source.arxiv}, read from the figure (not a table); names and groups as the figure's.`
    : '';
}

function suiteTitle(suite: SuiteAverage): string {
  return suite === RULER_SUITE
    ? `RULER average over MemAgent's ${suite.tasks.length} tasks`
    : `RULER average over all ${suite.tasks.length} tasks`;
}

function chart(
  kind: string,
  base: string,
  title: string,
  rows: SummaryRow[],
  paper: PaperBaseline | undefined,
  note: string,
): FacetChart {
  const heatRows = [...ourHeatRows(rows), ...(paper ? paperHeatRows(paper) : [])];
  const notes = [
    note,
    countNote(rows),
    'Cell values: score ×100, drawn where the cells have room (the double-width figure), with the 95% interval below where there is room for it; all in summary.csv / summary.json.',
    paperNote(paper),
  ].filter(Boolean);
  return {
    kind,
    title,
    base,
    render: (size, output) =>
      suiteHeatmapFigure({
        title,
        subtitle: paper
          ? 'ours (top) and the paper’s (below, read from its figure)'
          : 'model × method by context length',
        columns: heatColumns(heatRows),
        rows: heatRows,
        notes,
        size,
        output,
      }),
  };
}

/** The suites' heatmaps and each task's, for the series that have a suite average. */
export function suiteCharts(rows: readonly SummaryRow[], paper: readonly PaperBaseline[]): FacetChart[] {
  const charts: FacetChart[] = [];
  const withSuite = new Set<string>();
  for (const suite of SUITE_AVERAGES) {
    const mine = rows.filter((r) => r.aggregate?.suite === suite.name);
    if (mine.length === 0) continue;
    for (const r of mine) withSuite.add(`${r.method}\u0000${r.model}`);
    const note =
      suite === RULER_SUITE
        ? "Cell = mean of the tasks' scores, each task weighted equally (8 NIAH, vt, fwe, qa_1; qa_1 only up to 256K); interval: Price–Bonett's for a mean of proportions; k/K: tasks of the average in the run."
        : "Cell = mean of the tasks' scores, each task weighted equally (MemAgent's 11 with cwe and qa_2; qa_1 only up to 256K); interval: Price–Bonett's for a mean of proportions; k/K: tasks of the average in the run.";
    charts.push(
      chart(
        'ruler-heatmap',
        suite === RULER_SUITE ? 'heatmap-ruler' : `heatmap-${slug(suite.name)}`,
        suiteTitle(suite),
        mine,
        paper.find((b) => b.task === suite.name),
        note,
      ),
    );
  }
  for (const task of RULER_ALL_SUITE.tasks) {
    const mine = rows.filter(
      (r) =>
        r.task === task && !r.aggregate && r.lengthKind === 'tokens' && withSuite.has(`${r.method}\u0000${r.model}`),
    );
    if (mine.length === 0) continue;
    charts.push(
      chart(
        'ruler-task-heatmap',
        `heatmap-ruler-${slug(task)}`,
        `RULER ${task} by context length`,
        mine,
        paper.find((b) => b.task === task),
        `${task} alone (metric ${[...new Set(mine.map((r) => r.metric))].join('/')}).`,
      ),
    );
  }
  return charts;
}

export const rulerSuiteReportFacet: ReportFacet = {
  name: 'ruler-suite',
  // After the NIAH depth heatmaps (10), before RULER-HQA's probe (20).
  order: 11,
  aggregate: rulerSuiteAggregate,
  charts: ({ rows, paper }) => ({ charts: suiteCharts(rows, paper ?? []) }),
};
