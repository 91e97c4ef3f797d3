// The paper's RULER heatmap (MemAgent figs/avg_00.png, fwe_00.png): rows = model × method, columns = context lengths,
// each cell a score ×100 on the NIAH heatmap's viridis scale (heatmap-draw.ts; the paper's is red → yellow → green). Our rows first,
// each cell with its 95% interval where the cell has room (and "k/K" where tasks of the average are missing, "*"
// when there is no room); the paper's rows below when the report overlays them, grouped as in its figure. Drawn in
// points on the shared figure surface (PNG, SVG or PDF; the title block only when asked); the notes go to the
// caption file.
import type { SKRSContext2D } from '@napi-rs/canvas';
import type { RenderedChart } from '../../harness/report/facet.js';
import type { PaperBaseline } from '../../harness/report/paper.js';
import type { SummaryRow } from '../../harness/report/summary-row.js';
import {
  DEFAULT_OUTPUT,
  drawFigure,
  textWidth,
  wrapText,
  type ChartOutput,
  type ChartSize,
} from '../../reports/charts/canvas.js';
import { drawTitleBlock, titleBlock } from '../../reports/charts/frame.js';
import { fmt2, fmtPct } from '../../reports/format.js';
import { displayLength, shortModel } from '../../reports/labels.js';
import {
  colourBarMinHeight,
  colourBarWidth,
  drawCellBorders,
  drawColourBar,
  drawText as text,
  heatColor,
  heatTextColour,
} from '../../reports/charts/heatmap-draw.js';

export interface HeatCell {
  /** Percent 0..100. */
  score: number;
  /** The 95% interval in percent (the paper's cells have none). */
  interval?: { low: number; high: number };
  /** "10/11" when tasks of an average are missing, else ''. */
  partial: string;
}

export interface HeatRow {
  label: string;
  /** Paper rows: the figure's group (drawn as separated bands); ours: undefined. */
  group?: string;
  paper: boolean;
  /** By column label (upper-case, e.g. "8K"). */
  cells: Map<string, HeatCell>;
}

export interface SuiteHeatmapInput {
  title: string;
  subtitle: string;
  /** Column labels in order (e.g. "8K", "16K"). */
  columns: string[];
  rows: HeatRow[];
  /** The caption's notes (never drawn). */
  notes: string[];
  size: ChartSize;
  output?: ChartOutput;
}

/** Column label of a length: "8k" → "8K"; the paper's labels are already upper-case. */
export function columnOf(label: string): string {
  return displayLength(label);
}

/** Our rows of one task (or suite) as heatmap rows: one per method × model, in the summary's order. */
export function ourHeatRows(rows: readonly SummaryRow[]): HeatRow[] {
  const out = new Map<string, HeatRow>();
  for (const r of rows) {
    const key = `${r.method}\u0000${r.model}`;
    let row = out.get(key);
    if (!row) {
      row = { label: `${r.method} · ${shortModel(r.model, r.isReferenceReader)}`, paper: false, cells: new Map() };
      out.set(key, row);
    }
    const a = r.aggregate;
    row.cells.set(columnOf(r.lengthLabel), {
      score: Number(fmtPct(r.score)),
      interval: { low: Number(fmtPct(r.ci95_low)), high: Number(fmtPct(r.ci95_high)) },
      partial: a && a.missing.length ? `${a.subsets.length}/${a.subsets.length + a.missing.length}` : '',
    });
  }
  return [...out.values()];
}

/** A paper table's series as heatmap rows (labelled with the paper's model names). */
export function paperHeatRows(b: PaperBaseline): HeatRow[] {
  return b.series.map((s) => ({
    label: s.model,
    group: s.group ?? s.method,
    paper: true,
    cells: new Map(
      b.lengths.flatMap((l, i) => {
        const v = s.scores[i];
        return v === null ? [] : [[columnOf(l.label), { score: v, partial: '' }] as const];
      }),
    ),
  }));
}

/** Columns: the lengths of every row, ordered by their token value ("8K" < "16K" < "1M"). */
export function heatColumns(rows: readonly HeatRow[]): string[] {
  const tokens = (label: string) => {
    const m = /^([\d.]+)([KM])$/.exec(label);
    return m ? Number(m[1]) * (m[2] === 'K' ? 1024 : 1048576) : Number.POSITIVE_INFINITY;
  };
  const all = new Set(rows.flatMap((r) => [...r.cells.keys()]));
  return [...all].sort((a, b) => tokens(a) - tokens(b) || (a < b ? -1 : 1));
}

/** Pale band colours for the paper's row groups, as its figure's legend (violet, sand, sky, rose, mint). */
const GROUP_BANDS = ['#ebe1fb', '#f8efd2', '#d9f1fb', '#fbcfcf', '#dcf5d9', '#eeeeee'];

/** The heatmap in `input.output`'s format, with its caption. Rows are as tall as their wrapped labels need, and
 *  taller (up to 2.6 lines) when the size's height leaves room; the figure grows past the size's height for many. */
export function suiteHeatmapFigure(input: SuiteHeatmapInput): RenderedChart {
  const { size } = input;
  const output = input.output ?? DEFAULT_OUTPUT;
  const f = size.font;
  const W = size.width;
  const block = titleBlock(size, output, input.title, input.subtitle);
  const tickPx = f;
  const top = 3 + block.height + f * 0.4;
  const right = W - colourBarWidth(f, tickPx);
  // Labels wrap within 42% of the width; a single word longer than that widens the column (up to half the width).
  const labels = input.rows.map((r) => wrapText(r.label, f, W * 0.42 - f * 0.6));
  const widestLabel = Math.max(f * 4, ...labels.flat().map((l) => textWidth(l, f)));
  const left = 4 + Math.min(W * 0.5, widestLabel + f * 0.6);
  const nRows = Math.max(1, input.rows.length);
  const nCols = Math.max(1, input.columns.length);
  const cw = (right - left) / nCols;
  // Length ticks turn 45° when they do not fit their column.
  const widestTick = Math.max(0, ...input.columns.map((c) => textWidth(c, tickPx)));
  const rotate = widestTick > cw - 2;
  const ticksH = rotate ? widestTick * Math.SQRT1_2 + tickPx * 0.8 : tickPx * 1.2;
  const bottomPad = 2 + ticksH + f * 1.3 + 3;
  const rowMin = Math.max(f * 1.5, Math.max(1, ...labels.map((l) => l.length)) * f * 1.15 + f * 0.35);
  const rowMax = Math.max(rowMin, f * 2.6);
  const fit = (size.height - top - bottomPad) / nRows;
  // Rows no lower than the colour bar's rotated label needs, so that a one-row figure still fits it.
  const ch = Math.max(Math.min(rowMax, Math.max(rowMin, fit)), colourBarMinHeight(f) / nRows);
  const height = Math.ceil((top + nRows * ch + bottomPad) / 6) * 6;
  const bottom = top + nRows * ch;

  // Two decimals where they fit; else whole points (a single-column figure with the paper's seven lengths).
  const valueDigits = cw >= textWidth('100.00', f) + 2 ? 2 : cw >= textWidth('100', f) + 2 ? 0 : null;
  /** A cell's second line: its interval with 2, 1 or 0 decimals, whichever fits, and k/K; '' when none fits. */
  const subLine = (cell: HeatCell): string => {
    if (ch < f * 2.3) return '';
    const partial = cell.partial ? [cell.partial] : [];
    const iv = cell.interval;
    for (const digits of iv ? [2, 1, 0] : [0]) {
      const parts = iv ? [`${iv.low.toFixed(digits)}–${iv.high.toFixed(digits)}`, ...partial] : partial;
      const line = parts.join(' · ');
      if (textWidth(line, f) + 4 <= cw) return line;
    }
    return '';
  };
  const draw = (ctx: SKRSContext2D) => {
    drawTitleBlock(ctx, block, size);
    // Group bands behind the labels of the paper's rows.
    const groups = [...new Set(input.rows.filter((r) => r.paper).map((r) => r.group ?? ''))];
    input.rows.forEach((r, i) => {
      if (!r.paper) return;
      ctx.fillStyle = GROUP_BANDS[groups.indexOf(r.group ?? '') % GROUP_BANDS.length];
      ctx.fillRect(2, top + i * ch, left - 2, ch);
    });
    input.rows.forEach((r, i) => {
      const y = top + i * ch;
      const lines = labels[i];
      lines.forEach((line, k) =>
        text(ctx, line, left - f * 0.3, y + ch / 2 + (k - (lines.length - 1) / 2) * f * 1.15, f, 'right', 'middle', {
          color: r.paper ? '#333333' : '#111111',
        }),
      );
      input.columns.forEach((col, j) => {
        const x = left + j * cw;
        const cell = r.cells.get(col);
        ctx.fillStyle = cell ? heatColor(cell.score / 100) : '#e3e3e3';
        ctx.fillRect(x, y, cw, ch);
        if (!cell) {
          text(ctx, '–', x + cw / 2, y + ch / 2, f, 'center', 'middle', { color: '#777777' });
          return;
        }
        if (valueDigits === null) return;
        const value = valueDigits === 2 ? fmt2(cell.score) : cell.score.toFixed(0);
        const sub = subLine(cell);
        const color = heatTextColour(cell.score / 100);
        if (sub) {
          text(ctx, value, x + cw / 2, y + ch / 2 - f * 0.6, f, 'center', 'middle', { color });
          text(ctx, sub, x + cw / 2, y + ch / 2 + f * 0.6, f, 'center', 'middle', { color });
        } else text(ctx, cell.partial ? `${value}*` : value, x + cw / 2, y + ch / 2, f, 'center', 'middle', { color });
      });
    });
    drawCellBorders(ctx, { left, top, right, bottom }, nRows, nCols, { color: '#555555', width: 0.4 });
    // Thick grey lines between our rows and the paper's, and between the paper's groups.
    ctx.strokeStyle = '#888888';
    ctx.lineWidth = 1.5;
    input.rows.forEach((r, i) => {
      const prev = input.rows[i - 1];
      if (i === 0 || !prev || (prev.paper === r.paper && prev.group === r.group)) return;
      ctx.beginPath();
      ctx.moveTo(2, top + i * ch);
      ctx.lineTo(right, top + i * ch);
      ctx.stroke();
    });
    input.columns.forEach((c, j) => {
      const cx = left + (j + 0.5) * cw;
      if (rotate) text(ctx, c, cx + tickPx * 0.3, bottom + 2, tickPx, 'right', 'top', { rotate: -Math.PI / 4 });
      else text(ctx, c, cx, bottom + 2, tickPx, 'center', 'top');
    });
    text(ctx, 'context length (tokens, K = 1024)', (left + right) / 2, bottom + bottomPad - 3, f, 'center', 'bottom');
    // Ticks every 20, 25, 50 or 100, the finest whose labels do not overlap on this bar.
    const step = [20, 25, 50, 100].find((s) => ((bottom - top) * s) / 100 >= tickPx * 1.5) ?? 100;
    drawColourBar(ctx, { x: right, top, bottom, W, f, tickPx, step });
  };
  const notes = [
    ...input.notes,
    ...(input.rows.some((r) => [...r.cells.values()].some((c) => c.partial && !subLine(c)))
      ? ['*: tasks of the average missing from the run (k/K in summary.csv).']
      : []),
  ];
  return {
    bytes: drawFigure(size, output, input.title, draw, height),
    caption: { title: input.title, subtitle: input.subtitle, notes },
  };
}
