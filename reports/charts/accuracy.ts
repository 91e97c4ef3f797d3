// Accuracy vs context length: one solid line per method × model on a log-scale token axis, paper curves dashed.
// A point whose cell has fewer samples than its run planned (row.complete === false) is drawn hollow.
import type { ChartConfiguration, ChartDataset, Scale } from 'chart.js';
import type { PaperBaseline, PaperLength } from '../baselines.js';
import { paperCurves } from '../baselines.js';
import type { SummaryRow } from '../summary.js';
import { colorAt, renderChartJs, type ChartSize } from './canvas.js';
import { chartConfig } from './frame.js';
import { displayLength, shortModel } from '../labels.js';
import { modelLabel } from '../format.js';
import { fmtCount } from '../completeness.js';

/** The legend entry that explains hollow points (its own marker is the ○ in the text). */
export const HOLLOW_LEGEND = '○ hollow: incomplete';
import { dodge, intervalBandsPlugin, type Band } from './bands.js';

export interface AccuracyChartInput {
  task: string;
  rows: SummaryRow[];
  /** Paper tables to overlay (dashed); their task should match. */
  paper?: PaperBaseline[];
  /** Document-count → paper-label table used to place docs:N lengths (baselines/paper lengths), overlay or not. */
  lengthTable?: PaperLength[];
  size: ChartSize;
}

interface Tick {
  x: number;
  label: string;
}

/** Where a row sits on the token axis, and how that was decided (for the footnote). */
export function xPosition(
  row: Pick<SummaryRow, 'lengthKind' | 'length' | 'lengthLabel' | 'meanBuiltTokens'>,
  table: PaperLength[],
): Tick {
  if (row.lengthKind === 'docs') {
    const l = table.find((p) => p.docs === row.length);
    if (l) return { x: l.nominalTokens, label: l.label };
    // Not a paper length: the measured tokens, or the paper's ~140 tokens per document.
    return { x: row.meanBuiltTokens > 0 ? row.meanBuiltTokens : row.length * 140, label: row.lengthLabel };
  }
  return { x: row.length, label: displayLength(row.lengthLabel) };
}

function mappingNote(rows: SummaryRow[], paper: PaperBaseline[], overlaid: boolean): string {
  const parts: string[] = [];
  const partial = rows.filter((r) => r.complete === false);
  // One "; " part per cell so the footnote wraps between them; a long list is cut after 8.
  const cells = partial.map((r) => `${r.method} ${displayLength(r.lengthLabel)} ${fmtCount(r)}`);
  if (cells.length > 8) cells.splice(7, cells.length - 7, `${cells.length - 7} more cells`);
  if (cells.length) parts.push(`incomplete (hollow): ${cells.join('; ')}`);
  const cut = rows.filter((r) => r.middleTruncated > 0);
  for (const method of [...new Set(cut.map((r) => r.method))]) {
    const at = cut.filter((r) => r.method === method).map((r) => displayLength(r.lengthLabel));
    parts.push(`${method}: context cut in the middle at ${at.join(', ')}`);
  }
  if (rows.some((r) => r.lengthKind === 'docs'))
    parts.push("ours: N documents placed at the paper's label (50 docs = 7K … 25600 docs = 3.5M)");
  if (rows.some((r) => r.lengthKind === 'tokens')) parts.push('ours: target tokens (k = 1024)');
  if (rows.length)
    parts.push(
      `shaded with error bars: 95% intervals (${[...new Set(rows.map((r) => (r.ci_method === 'wilson' ? 'Wilson' : r.ci_method === 'price-bonett' ? 'Price–Bonett' : 'bootstrap')))].sort().join(' / ')})`,
    );
  if (overlaid) {
    const src = [...new Set(paper.map((b) => `arXiv ${b.source.arxiv} ${b.source.location}`))].join(', ');
    // RULER's tables are at MemAgent's token targets (8K = 8,192); RULER-HQA's labels are read as 7K = 7,000.
    const byDocs = paper.some((b) => b.lengths.some((l) => l.docs > 0));
    parts.push(
      `dashed: paper (${src}) at ${byDocs ? 'its labels read as tokens (7K = 7,000)' : 'its token targets (8K = 8,192)'}`,
    );
  }
  return parts.join('; ');
}

export function accuracyChartConfig(input: AccuracyChartInput): { config: ChartConfiguration; title: string } {
  const paper = input.paper ?? [];
  const table = input.lengthTable ?? paper.flatMap((b) => b.lengths);
  // Only rows with a length on the axis: native-length rows (length 0) and LongBench-E buckets have none.
  const rows = input.rows.filter(
    (r) => r.task === input.task && (r.lengthKind === 'tokens' || r.lengthKind === 'docs'),
  );
  const metric = [...new Set(rows.map((r) => r.metric).filter(Boolean))].join('/') || (paper[0]?.metric ?? 'score');
  const datasets: ChartDataset<'line', Array<{ x: number; y: number }>>[] = [];
  const ticks = new Map<number, string>();
  const bands: Band[] = [];

  const seriesKeys = [...new Set(rows.map((r) => `${r.method}\u0000${r.model}`))];
  const models = [...new Set(rows.map((r) => r.model))];
  // One model: the legend names methods and the subtitle names the model; several: "method · model".
  const oneModel = models.length === 1;
  seriesKeys.forEach((key, i) => {
    const group = rows.filter((r) => `${r.method}\u0000${r.model}` === key);
    const placed = group
      .map((r) => {
        const t = xPosition(r, table);
        ticks.set(t.x, t.label);
        return { x: t.x, y: r.score * 100, hollow: r.complete === false };
      })
      .sort((a, b) => a.x - b.x);
    const color = colorAt(i);
    bands.push({
      color,
      offsetPx: dodge(i, seriesKeys.length),
      points: group.map((r) => ({ x: xPosition(r, table).x, low: r.ci95_low * 100, high: r.ci95_high * 100 })),
    });
    datasets.push({
      label: oneModel
        ? group[0].method
        : `${group[0].method} · ${shortModel(group[0].model, group[0].isReferenceReader)}`,
      data: placed.map(({ x, y }) => ({ x, y })),
      borderColor: color,
      backgroundColor: color,
      borderWidth: 3,
      pointHoverRadius: 5,
      tension: 0,
      clip: 8,
      // Hollow (white fill, thicker ring, a little larger) where the cell is incomplete.
      pointBackgroundColor: placed.map((p) => (p.hollow ? '#ffffff' : color)),
      pointBorderColor: color,
      pointBorderWidth: placed.map((p) => (p.hollow ? 3 : 1)),
      pointRadius: placed.map((p) => (p.hollow ? 7 : 5)),
    });
  });

  let paperIndex = 0;
  for (const b of paper) {
    for (const curve of paperCurves(b)) {
      const color = colorAt(seriesKeys.length + paperIndex++);
      datasets.push({
        label: `paper: ${curve.model}`,
        data: curve.points.map((p) => ({ x: p.tokens, y: p.score })),
        borderColor: color,
        backgroundColor: color,
        borderDash: [9, 6],
        borderWidth: 2,
        pointRadius: 3,
        pointStyle: 'rect',
        tension: 0,
        clip: 8,
      });
    }
  }
  // An entry with an invisible box whose text carries the marker: chart.js draws one kind of legend box for all.
  if (rows.some((r) => r.complete === false)) {
    datasets.push({
      label: HOLLOW_LEGEND,
      data: [],
      borderColor: 'rgba(0,0,0,0)',
      backgroundColor: 'rgba(0,0,0,0)',
      borderWidth: 0,
      pointRadius: 0,
    });
  }
  // Paper labels become ticks where ours do not already label that part of the axis.
  const ours = [...ticks.keys()];
  const lo = ours.length ? Math.min(...ours) / 1.15 : Infinity;
  const hi = ours.length ? Math.max(...ours) * 1.15 : -Infinity;
  const oursAreDocs = rows.length > 0 && rows.every((r) => r.lengthKind === 'docs');
  for (const b of paper) {
    for (const l of b.lengths) {
      const crowded = ours.some((x) => Math.max(x, l.nominalTokens) / Math.min(x, l.nominalTokens) < 1.4);
      if ((oursAreDocs || l.nominalTokens < lo || l.nominalTokens > hi) && !crowded && !ticks.has(l.nominalTokens))
        ticks.set(l.nominalTokens, l.label);
    }
  }

  const xs = [...ticks.keys()].sort((a, b) => a - b);
  const xMin = xs.length ? xs[0] / 1.3 : 1000;
  const xMax = xs.length ? xs[xs.length - 1] * 1.3 : 4e6;
  const f = input.size.font;
  const title = `${input.task}: accuracy vs context length`;
  const legendFont = 0.68;
  // chart.js caps a side legend at a quarter of the width; long labels go underneath instead.
  const longest = Math.max(0, ...datasets.map((d) => String(d.label).length));
  const legendPx = f * legendFont;
  const legendPosition =
    datasets.length <= 3 ? 'top' : longest * legendPx * 0.6 + f * 2.5 < input.size.width / 4 ? 'right' : 'bottom';
  const config = chartConfig({
    type: 'line',
    data: { datasets: datasets as ChartDataset[] },
    size: input.size,
    title,
    subtitle: {
      display: models.length > 0,
      text: oneModel ? `model: ${modelLabel(models[0], rows[0].isReferenceReader)}` : `models: ${models.length}`,
    },
    legend: { position: legendPosition, font: legendFont, padding: 0.45 },
    footnote: mappingNote(rows, paper, paper.length > 0),
    footnoteFont: 0.62,
    x: lengthAxis(xMin, xMax, xs, ticks, f),
    y: { min: 0, max: 100, title: `${metric} ×100`, stepSize: 20 },
    plugins: [intervalBandsPlugin(bands)],
  });
  return { config, title };
}

export function renderAccuracyChart(input: AccuracyChartInput): Buffer {
  const { config, title } = accuracyChartConfig(input);
  return renderChartJs(config, input.size, title);
}

/** The log-scale context-length x axis shared by the accuracy and difference charts: a tick at each length shown. */
export function lengthAxis(
  xMin: number,
  xMax: number,
  xs: readonly number[],
  ticks: ReadonlyMap<number, string>,
  f: number,
) {
  return {
    type: 'logarithmic' as const,
    min: xMin,
    max: xMax,
    title: { display: true, text: 'Context length (tokens, log scale)', font: { size: f * 0.9 } },
    grid: { color: '#e6e6e6' },
    ticks: {
      font: { size: f * 0.8 },
      autoSkip: false,
      maxRotation: 0,
      callback: (value: string | number) => ticks.get(Number(value)) ?? '',
    },
    afterBuildTicks: (scale: Scale) => {
      scale.ticks = xs.map((value) => ({ value }));
    },
  };
}
