// Accuracy vs context length on a log axis: one line per method × model (colour and marker = method, dash = model),
// its 95% interval as a band, paper curves thin, dashed and grey. A point whose cell has fewer samples than its run
// planned (row.complete === false) is drawn hollow; nothing else is.
import type { ChartConfiguration, ChartDataset, Scale } from 'chart.js';
import type { PaperBaseline, PaperLength } from '../baselines.js';
import { paperCurves } from '../baselines.js';
import type { SummaryRow } from '../summary.js';
import type { RenderedChart } from '../../harness/report/facet.js';
import { DEFAULT_OUTPUT, textWidth, type ChartOutput, type ChartSize } from './canvas.js';
import { chartFrame, renderFrame, type FramedChart } from './frame.js';
import { shortModel } from '../labels.js';
import { modelLabel } from '../format.js';
import { fmtCount } from '../completeness.js';
import { dodge, intervalBandsPlugin, type Band } from './bands.js';
import type { LegendEntry } from './legend.js';
import {
  chartJsMarker,
  legendModel,
  markerRadius,
  methodStyle,
  modelDashes,
  PAPER_DASH,
  paperStyle,
  type MarkerShape,
} from './style.js';

/** The legend entry that explains hollow points. */
export const HOLLOW_LEGEND = 'incomplete (n < planned)';

/** Line width and marker radius (pt) of our series, and of paper curves. */
export const SERIES_LINE = 1.2;
export const SERIES_MARKER = 2.1;
const PAPER_LINE = 0.75;
const PAPER_MARKER = 1.5;

export interface AccuracyChartInput {
  task: string;
  rows: SummaryRow[];
  /** Paper tables to overlay (dashed); their task should match. */
  paper?: PaperBaseline[];
  /** Document-count → paper-label table used to place docs:N lengths (baselines/paper lengths), overlay or not. */
  lengthTable?: PaperLength[];
  size: ChartSize;
  /** Format and title; default a PNG with its title. */
  output?: ChartOutput;
}

interface Tick {
  x: number;
  label: string;
}

/**
 * Where the paper's length sits on the token axis: its measured mean context tokens; where the source did not
 * measure it (12800, 25600 documents), the largest measured length's tokens per document times its documents.
 */
export function paperTokens(l: PaperLength, table: readonly PaperLength[]): number {
  if (l.approxTokens) return l.approxTokens;
  const measured = table.filter((m) => m.approxTokens).sort((a, b) => a.docs - b.docs);
  const base = measured.filter((m) => m.docs <= l.docs).pop() ?? measured[0];
  return base ? ((base.approxTokens as number) * l.docs) / base.docs : l.nominalTokens;
}

/** Where a row sits on the token axis and its tick label: docs:N at the paper's length for N, tokens at themselves. */
export function xPosition(
  row: Pick<SummaryRow, 'lengthKind' | 'length' | 'lengthLabel' | 'meanBuiltTokens'>,
  table: PaperLength[],
): Tick {
  if (row.lengthKind === 'docs') {
    const l = table.find((p) => p.docs === row.length);
    if (l) return { x: paperTokens(l, table), label: l.label };
    // Not a paper length: the measured tokens, or the paper's ~140 tokens per document.
    return { x: row.meanBuiltTokens > 0 ? row.meanBuiltTokens : row.length * 140, label: row.lengthLabel };
  }
  return { x: row.length, label: row.lengthLabel };
}

/** The x axis title for rows of these kinds: each names its convention. */
export function lengthAxisTitle(kinds: ReadonlySet<string>): string {
  if (kinds.has('docs') && kinds.has('tokens')) return 'context (k = 1024 tokens; K, M: paper labels)';
  if (kinds.has('docs')) return "documents (paper's labels ≈ tokens)";
  return 'context length (tokens, k = 1024)';
}

function notesFor(rows: SummaryRow[], paper: PaperBaseline[], table: PaperLength[]): string[] {
  const notes: string[] = [];
  const partial = rows.filter((r) => r.complete === false);
  const cells = partial.map((r) => `${r.method} ${r.lengthLabel} ${fmtCount(r)}`);
  if (cells.length > 8) cells.splice(7, cells.length - 7, `${cells.length - 7} more cells`);
  if (cells.length) notes.push(`Hollow markers: cells with fewer samples than planned (${cells.join('; ')}).`);
  const cut = rows.filter((r) => r.middleTruncated > 0);
  for (const method of [...new Set(cut.map((r) => r.method))]) {
    const at = cut.filter((r) => r.method === method).map((r) => r.lengthLabel);
    notes.push(`${method}: context cut in the middle to fit the model at ${at.join(', ')}.`);
  }
  if (rows.some((r) => r.lengthKind === 'docs'))
    notes.push(
      "Ours at N documents stand at the paper's length for N (its measured mean tokens) and carry its label (50 docs = 7K … 25600 docs = 3.5M).",
    );
  if (rows.some((r) => r.lengthKind === 'tokens')) notes.push('Ours at token lengths: target tokens, k = 1024.');
  if (rows.length)
    notes.push(
      `Bands: 95% intervals (${[...new Set(rows.map((r) => (r.ci_method === 'wilson' ? 'Wilson' : r.ci_method === 'price-bonett' ? 'Price–Bonett' : 'bootstrap')))].sort().join(' / ')}).`,
    );
  if (paper.length) {
    const src = [...new Set(paper.map((b) => `arXiv ${b.source.arxiv} ${b.source.location}`))].join(', ');
    const estimated = table.filter((l) => !l.approxTokens).map((l) => l.label);
    notes.push(
      `Dashed grey: paper (${src}), each point at its length's measured mean tokens${
        estimated.length
          ? ` (${estimated.join(', ')}: not measured, scaled by documents from the largest measured)`
          : ''
      }.`,
    );
  }
  return notes;
}

/** chart.js point options of a series whose points are hollow where `hollow[i]`. */
function points(shape: MarkerShape, color: string, hollow: boolean[], radius: number) {
  const m = chartJsMarker(shape);
  return {
    pointStyle: m.pointStyle,
    pointRotation: m.rotation,
    pointRadius: markerRadius(shape, radius),
    pointHoverRadius: markerRadius(shape, radius),
    pointBorderColor: color,
    pointBorderWidth: hollow.map((h) => (h ? 0.9 : 0.5)),
    pointBackgroundColor: hollow.map((h) => (h ? '#ffffff' : color)),
  };
}

/** Accuracy chart's configuration, height and caption. */
export function accuracyChartFrame(input: AccuracyChartInput): FramedChart {
  const output = input.output ?? DEFAULT_OUTPUT;
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
  const ours: LegendEntry[] = [];

  // Series in a stable order (method, then model), whatever order the rows came in.
  const seriesKeys = [...new Set(rows.map((r) => `${r.method}\u0000${r.model}`))].sort();
  const models = [...new Set(rows.map((r) => r.model))];
  const referenceModels = new Set(rows.filter((r) => r.isReferenceReader).map((r) => r.model));
  const dashes = modelDashes(models, (m) => referenceModels.has(m));
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
    const style = methodStyle(group[0].method);
    const dash = dashes.get(group[0].model) ?? [];
    bands.push({
      color: style.color,
      offsetPx: dodge(i, seriesKeys.length),
      points: group.map((r) => ({ x: xPosition(r, table).x, low: r.ci95_low * 100, high: r.ci95_high * 100 })),
    });
    const label = oneModel
      ? group[0].method
      : `${group[0].method} · ${legendModel(group[0].model, group[0].isReferenceReader)}`;
    datasets.push({
      label,
      data: placed.map(({ x, y }) => ({ x, y })),
      borderColor: style.color,
      backgroundColor: style.color,
      borderWidth: SERIES_LINE,
      borderDash: dash,
      tension: 0,
      clip: 4,
      ...points(
        style.marker,
        style.color,
        placed.map((p) => p.hollow),
        SERIES_MARKER,
      ),
    });
    ours.push({
      label,
      color: style.color,
      line: { dash, width: SERIES_LINE },
      marker: { shape: style.marker, radius: SERIES_MARKER },
    });
  });

  const paperEntries: LegendEntry[] = [];
  const paperTicks = new Map<number, string>();
  let paperIndex = 0;
  for (const b of paper) {
    for (const l of b.lengths) paperTicks.set(paperTokens(l, b.lengths), l.label);
    for (const curve of paperCurves(b)) {
      const style = paperStyle(paperIndex++);
      const byLabel = new Map(b.lengths.map((l) => [l.label, paperTokens(l, b.lengths)]));
      datasets.push({
        label: `paper: ${curve.model}`,
        data: curve.points.map((p) => ({ x: byLabel.get(p.lengthLabel) ?? p.tokens, y: p.score })),
        borderColor: style.color,
        backgroundColor: style.color,
        borderDash: PAPER_DASH,
        borderWidth: PAPER_LINE,
        tension: 0,
        clip: 4,
        ...points(
          style.marker,
          style.color,
          curve.points.map(() => false),
          PAPER_MARKER,
        ),
      });
      paperEntries.push({
        label: curve.model,
        color: style.color,
        line: { dash: PAPER_DASH, width: PAPER_LINE },
        marker: { shape: style.marker, radius: PAPER_MARKER },
      });
    }
  }

  const kinds = new Set(rows.map((r) => r.lengthKind));
  const allDocs = kinds.size === 1 && kinds.has('docs');
  // On the paper's document grid ours and the paper's share one axis; on a token grid the paper's labels go on top.
  if (allDocs || rows.length === 0) for (const [x, label] of paperTicks) ticks.set(x, label);
  const topTicks = allDocs || rows.length === 0 ? new Map<number, string>() : paperTicks;
  const all = [...ticks.keys(), ...topTicks.keys()];
  const xMin = all.length ? Math.min(...all) / 1.25 : 1000;
  const xMax = all.length ? Math.max(...all) * 1.25 : 4e6;
  const f = input.size.font;
  const plotWidth = input.size.width - f * 6;

  const keys: LegendEntry[] = [];
  if (rows.length) keys.push({ label: '95% interval', color: '#555555', band: true });
  if (rows.some((r) => r.complete === false))
    keys.push({
      label: HOLLOW_LEGEND,
      color: '#444444',
      marker: { shape: 'circle', hollow: true, radius: SERIES_MARKER },
    });
  const legend = [
    [...ours, ...keys],
    ...(paperEntries.length ? [[{ label: 'paper:', color: '#222222' }, ...paperEntries]] : []),
  ];
  const title = `${input.task}: accuracy vs context length`;
  return chartFrame({
    type: 'line',
    data: { datasets: datasets as ChartDataset[] },
    size: input.size,
    output,
    title,
    subtitle:
      models.length === 0
        ? undefined
        : oneModel
          ? `model: ${shortModel(models[0], rows[0].isReferenceReader)}`
          : `models: ${models.length} (line dash = model)`,
    captionSubtitle:
      models.length === 0
        ? undefined
        : `${oneModel ? 'model' : 'models'}: ${models.map((m) => modelLabel(m, referenceModels.has(m))).join(', ')}`,
    legend: legend.filter((g) => g.length > 0),
    notes: notesFor(rows, paper, table),
    x: lengthAxis(xMin, xMax, ticks, f, lengthAxisTitle(kinds.size ? kinds : new Set(['docs'])), plotWidth),
    ...(topTicks.size
      ? {
          scales: {
            paper: {
              ...lengthAxis(xMin, xMax, topTicks, f, 'paper (labels ≈ tokens)', plotWidth),
              position: 'top',
              axis: 'x',
              grid: { display: false },
            },
          },
        }
      : {}),
    y: { min: 0, max: 100, title: `${metric} ×100`, stepSize: 20 },
    plugins: [intervalBandsPlugin(bands)],
  });
}

/** Backwards-compatible name: the chart.js configuration and title. */
export function accuracyChartConfig(input: AccuracyChartInput): { config: ChartConfiguration; title: string } {
  const framed = accuracyChartFrame(input);
  return { config: framed.config, title: framed.caption.title };
}

export function accuracyFigure(input: AccuracyChartInput): RenderedChart {
  return renderFrame(accuracyChartFrame(input), input.size, input.output ?? DEFAULT_OUTPUT);
}

/** The chart's bytes (PNG unless `output` says otherwise). */
export function renderAccuracyChart(input: AccuracyChartInput): Buffer {
  return accuracyFigure(input).bytes;
}

/**
 * Tick labels that fit: walking left to right, a label is shown only when it clears the last one shown by a third of an em
 * (positions estimated on a plot `plotWidth` pt wide); its tick and grid line stay.
 */
export function visibleTickLabels(
  xMin: number,
  xMax: number,
  ticks: ReadonlyMap<number, string>,
  f: number,
  plotWidth: number,
): Map<number, string> {
  const at = (x: number) => (Math.log(x / xMin) / Math.log(xMax / xMin)) * plotWidth;
  const shown = new Map<number, string>();
  let right = -Infinity;
  for (const x of [...ticks.keys()].sort((a, b) => a - b)) {
    const label = ticks.get(x) as string;
    const half = textWidth(label, f) / 2;
    if (at(x) - half >= right + f * 0.35) {
      shown.set(x, label);
      right = at(x) + half;
    }
  }
  return shown;
}

/** A log-scale context-length axis with a tick at each length given, labelled where the labels fit. */
export function lengthAxis(
  xMin: number,
  xMax: number,
  ticks: ReadonlyMap<number, string>,
  f: number,
  title: string,
  plotWidth: number,
) {
  const xs = [...ticks.keys()].sort((a, b) => a - b);
  const shown = visibleTickLabels(xMin, xMax, ticks, f, plotWidth);
  return {
    type: 'logarithmic' as const,
    min: xMin,
    max: xMax,
    title: { display: true, text: title, font: { size: f }, padding: { top: 1, bottom: 0 } },
    grid: { color: '#e6e6e6', lineWidth: 0.5, tickLength: 3 },
    border: { color: '#888888', width: 0.6 },
    ticks: {
      font: { size: f },
      autoSkip: false,
      maxRotation: 0,
      padding: 1,
      callback: (value: string | number) => shown.get(Number(value)) ?? '',
    },
    afterBuildTicks: (scale: Scale) => {
      scale.ticks = xs.map((value) => ({ value }));
    },
  };
}
