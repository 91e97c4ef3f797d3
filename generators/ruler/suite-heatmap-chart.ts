// The paper's RULER heatmap (MemAgent figs/avg_00.png, fwe_00.png): rows = model × method, columns = context lengths,
// each cell a score ×100 on the red → yellow → green scale of the NIAH heatmap. Our rows first, each cell with its
// 95% interval (and "k/K" where tasks of the average are missing); the paper's rows below when the report overlays
// them, grouped as in its figure. Drawn on the canvas directly (chart.js has no heatmap type).
import type { SKRSContext2D } from '@napi-rs/canvas';
import type { PaperBaseline } from '../../harness/report/paper.js';
import type { SummaryRow } from '../../harness/report/summary-row.js';
import { blankCanvas, encodePng, font, textWidth, type ChartSize } from '../../reports/charts/canvas.js';
import { fmt2, fmtPct } from '../../reports/format.js';
import { displayLength, shortModel } from '../../reports/labels.js';
import { heatColor } from './heatmap-chart.js';

/** The note's lines at width `width`, wrapped at "; ". */
function footnoteLines(text: string, size: number, width: number): string[] {
  const lines: string[] = [];
  for (const part of text ? text.split('; ') : []) {
    const last = lines.length - 1;
    if (last >= 0 && textWidth(`${lines[last]}; ${part}`, size) <= width) lines[last] = `${lines[last]}; ${part}`;
    else lines.push(part);
  }
  return lines;
}

export interface HeatCell {
  /** Percent 0..100. */
  score: number;
  /** "72.10–80.30" or '' (the paper's cells have none). */
  interval: string;
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
  note: string;
  size: ChartSize;
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
      interval: `${fmtPct(r.ci95_low)}–${fmtPct(r.ci95_high)}`,
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
        return v === null ? [] : [[columnOf(l.label), { score: v, interval: '', partial: '' }] as const];
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

function text(
  ctx: SKRSContext2D,
  s: string,
  x: number,
  y: number,
  px: number,
  align: CanvasTextAlign,
  opts: { weight?: 'normal' | 'bold'; color?: string; rotate?: number; baseline?: CanvasTextBaseline } = {},
): void {
  ctx.save();
  ctx.font = font(px, opts.weight);
  ctx.fillStyle = opts.color ?? '#222222';
  ctx.textAlign = align;
  ctx.textBaseline = opts.baseline ?? 'middle';
  ctx.translate(x, y);
  if (opts.rotate) ctx.rotate(opts.rotate);
  ctx.fillText(s, 0, 0);
  ctx.restore();
}

/** Pale band colours for the paper's row groups, as its figure's legend (violet, sand, sky, rose, mint). */
const GROUP_BANDS = ['#ebe1fb', '#f8efd2', '#d9f1fb', '#fbcfcf', '#dcf5d9', '#eeeeee'];

export function renderSuiteHeatmap(input: SuiteHeatmapInput): Buffer {
  const f = input.size.font;
  const labelPx = f * 0.68;
  const rowMin = f * 1.75;
  const top = f * 3.3;
  const notePx = f * 0.55;
  const lines = footnoteLines(input.note, notePx, input.size.width - 16);
  const bottomPad = f * 2.3 + lines.length * notePx * 1.25;
  const nRows = Math.max(1, input.rows.length);
  // Rows between rowMin and rowMax tall: a few rows make a shorter image, the paper's 14 under ours a taller one.
  const rowMax = f * 2.6;
  const fit = (input.size.height - top - bottomPad) / nRows;
  const height = Math.ceil(top + nRows * Math.min(rowMax, Math.max(rowMin, fit)) + bottomPad);
  const size = { ...input.size, height };
  const { canvas, ctx } = blankCanvas(size);
  const W = size.width;

  text(ctx, input.title, W / 2, f * 0.5, f * 1.05, 'center', { weight: 'bold', baseline: 'top' });
  text(ctx, input.subtitle, W / 2, f * 1.85, f * 0.68, 'center', { color: '#444444', baseline: 'top' });

  const labelW = Math.min(W * 0.42, Math.max(...input.rows.map((r) => textWidth(r.label, labelPx)), f * 4) + f * 0.9);
  const left = labelW + f * 0.3;
  const right = W - f * 3.6;
  const bottom = height - bottomPad;
  const nCols = Math.max(1, input.columns.length);
  const cw = (right - left) / nCols;
  const ch = (bottom - top) / nRows;

  // Group bands behind the labels of the paper's rows.
  const groups = [...new Set(input.rows.filter((r) => r.paper).map((r) => r.group ?? ''))];
  input.rows.forEach((r, i) => {
    if (!r.paper) return;
    ctx.fillStyle = GROUP_BANDS[groups.indexOf(r.group ?? '') % GROUP_BANDS.length];
    ctx.fillRect(4, top + i * ch, left - 4, ch);
  });

  const valuePx = Math.min(f * 0.68, ch * 0.42, cw * 0.2);
  const smallPx = Math.min(f * 0.44, ch * 0.26);
  const twoLines = ch >= f * 1.45 && cw >= textWidth('100.00–100.00', smallPx) + 4;
  input.rows.forEach((r, i) => {
    const y = top + i * ch;
    text(ctx, r.label, left - f * 0.35, y + ch / 2, labelPx, 'right', { color: r.paper ? '#333333' : '#111111' });
    input.columns.forEach((col, j) => {
      const x = left + j * cw;
      const cell = r.cells.get(col);
      ctx.fillStyle = cell ? heatColor(cell.score / 100) : '#e3e3e3';
      ctx.fillRect(x, y, cw, ch);
      if (!cell) {
        text(ctx, '–', x + cw / 2, y + ch / 2, valuePx, 'center', { color: '#777777' });
        return;
      }
      const value = fmt2(cell.score);
      const sub = [cell.interval, cell.partial].filter(Boolean).join(' · ');
      if (twoLines && sub) {
        text(ctx, value, x + cw / 2, y + ch / 2 - smallPx * 0.55, valuePx, 'center', { color: '#1a1a1a' });
        text(ctx, sub, x + cw / 2, y + ch / 2 + valuePx * 0.6, smallPx, 'center', { color: '#333333' });
      } else text(ctx, cell.partial ? `${value}*` : value, x + cw / 2, y + ch / 2, valuePx, 'center');
    });
  });

  // Cell borders; thick grey lines between our rows and the paper's, and between the paper's groups.
  ctx.strokeStyle = '#333333';
  ctx.lineWidth = 1;
  for (let i = 0; i <= nRows; i++) {
    ctx.beginPath();
    ctx.moveTo(left, top + i * ch);
    ctx.lineTo(right, top + i * ch);
    ctx.stroke();
  }
  for (let j = 0; j <= nCols; j++) {
    ctx.beginPath();
    ctx.moveTo(left + j * cw, top);
    ctx.lineTo(left + j * cw, bottom);
    ctx.stroke();
  }
  ctx.strokeStyle = '#888888';
  ctx.lineWidth = Math.max(3, f * 0.16);
  input.rows.forEach((r, i) => {
    const prev = input.rows[i - 1];
    if (i === 0 || !prev || (prev.paper === r.paper && prev.group === r.group)) return;
    ctx.beginPath();
    ctx.moveTo(4, top + i * ch);
    ctx.lineTo(right, top + i * ch);
    ctx.stroke();
  });

  const tickPx = f * 0.7;
  input.columns.forEach((c, j) => text(ctx, c, left + (j + 0.5) * cw, bottom + f * 0.55, tickPx, 'center'));
  text(ctx, 'Context length (tokens, K = 1024)', (left + right) / 2, bottom + f * 1.45, f * 0.62, 'center', {
    color: '#444444',
  });

  // Colour bar.
  const barX = right + f * 0.8;
  const barW = f * 0.8;
  const gradient = ctx.createLinearGradient(0, bottom, 0, top);
  for (const t of [0, 0.5, 1]) gradient.addColorStop(t, heatColor(t));
  ctx.fillStyle = gradient;
  ctx.fillRect(barX, top, barW, bottom - top);
  ctx.strokeStyle = '#777777';
  ctx.lineWidth = 1;
  ctx.strokeRect(barX, top, barW, bottom - top);
  // Fewer ticks on a short bar (one or two rows) so their labels do not overlap.
  const tickStep = bottom - top < f * 4.5 ? 50 : 20;
  for (let v = 0; v <= 100; v += tickStep) {
    const y = bottom - (v / 100) * (bottom - top);
    text(ctx, String(v), barX + barW + f * 0.2, y, f * 0.55, 'left');
  }

  lines.forEach((line, i) =>
    text(ctx, line, 8, height - 4 - (lines.length - 1 - i) * notePx * 1.25, notePx, 'left', {
      color: '#555555',
      baseline: 'bottom',
    }),
  );
  return encodePng(canvas, size, input.title);
}
