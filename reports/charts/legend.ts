// The legend every chart draws itself (chart.js's own shows one kind of box for all): per entry a sample of exactly
// what the plot draws (line with its dash, marker filled or hollow, band, bar, glyph) and its label. Groups start on
// a new row; a group that does not fit one row is laid out as a grid.
import type { SKRSContext2D } from '@napi-rs/canvas';
import { drawPoint } from 'chart.js/helpers';
import { font, textWidth } from './canvas.js';
import { chartJsMarker, markerRadius, withAlpha, type MarkerShape } from './style.js';

/** One legend entry; with no sample (line, marker, band, box, glyph) it is a heading. */
export interface LegendEntry {
  label: string;
  color: string;
  /** A line through the sample: its dash (pt; [] solid) and width. */
  line?: { dash: number[]; width: number };
  /** A marker at the sample's centre; hollow = white inside. */
  marker?: { shape: MarkerShape; hollow?: boolean; radius?: number };
  /** A translucent band with edge lines (a confidence interval). */
  band?: boolean;
  /** A filled box (bars); `stroke` outlines it. */
  box?: { fill: string; stroke?: string };
  /** A text mark in place of a sample (e.g. '*'). */
  glyph?: string;
}

export type LegendGroups = LegendEntry[][];

interface Placed {
  entry: LegendEntry;
  x: number;
  width: number;
}

export interface LegendLayout {
  rows: Placed[][];
  /** Height in pt, 0 without entries. */
  height: number;
  rowHeight: number;
}

const SAMPLE_PT = 14;

/** Width of the entry's sample; 0 for a heading (an entry with text only). */
function sampleWidth(e: LegendEntry, f: number): number {
  if (e.line || e.band) return SAMPLE_PT;
  if (e.glyph) return textWidth(e.glyph, f, 'bold') + 1;
  return e.marker || e.box ? f : 0;
}

function labelOffset(e: LegendEntry, f: number): number {
  const w = sampleWidth(e, f);
  return w > 0 ? w + f * 0.35 : 0;
}

/**
 * Rows of entries within `width` pt at font `f` pt. A group that fits one row is one centred row; a longer group is a
 * grid of equal columns (as wide as its widest entry) where two or more fit, else rows filled in turn.
 */
export function layoutLegend(groups: LegendGroups, width: number, f: number): LegendLayout {
  const gap = f * 0.9;
  const rowHeight = f * 1.3;
  const rows: Placed[][] = [];
  for (const group of groups) {
    const widths = group.map((entry) => labelOffset(entry, f) + textWidth(entry.label, f));
    const total = widths.reduce((a, b) => a + b, 0) + gap * Math.max(0, group.length - 1);
    if (total <= width) {
      let x = (width - total) / 2;
      rows.push(
        group.map((entry, i) => {
          const p = { entry, x, width: widths[i] };
          x += widths[i] + gap;
          return p;
        }),
      );
      continue;
    }
    const column = Math.max(...widths);
    const columns = Math.floor((width + gap) / (column + gap));
    if (columns >= 2) {
      const left = (width - (columns * column + (columns - 1) * gap)) / 2;
      for (let i = 0; i < group.length; i += columns)
        rows.push(
          group
            .slice(i, i + columns)
            .map((entry, k) => ({ entry, x: left + k * (column + gap), width: widths[i + k] })),
        );
      continue;
    }
    // Entries too unequal for columns: fill rows in turn, each row centred.
    let row: Placed[] = [];
    let used = 0;
    const flush = () => {
      const shift = (width - used) / 2;
      rows.push(row.map((p) => ({ ...p, x: p.x + shift })));
      row = [];
      used = 0;
    };
    group.forEach((entry, i) => {
      if (row.length > 0 && used + gap + widths[i] > width) flush();
      const x = row.length ? used + gap : 0;
      row.push({ entry, x, width: widths[i] });
      used = x + widths[i];
    });
    if (row.length) flush();
  }
  return { rows, height: rows.length ? rows.length * rowHeight : 0, rowHeight };
}

/** Draws a marker (the same shapes as the plot's points) filled or hollow. */
export function drawMarker(
  ctx: SKRSContext2D,
  shape: MarkerShape,
  x: number,
  y: number,
  radius: number,
  color: string,
  hollow = false,
  borderWidth = 0.8,
): void {
  const m = chartJsMarker(shape);
  ctx.save();
  ctx.fillStyle = hollow ? '#ffffff' : color;
  ctx.strokeStyle = color;
  ctx.lineWidth = borderWidth;
  ctx.setLineDash([]);
  drawPoint(
    ctx as unknown as CanvasRenderingContext2D,
    {
      pointStyle: m.pointStyle,
      rotation: m.rotation,
      radius: markerRadius(shape, radius),
      borderWidth,
    },
    x,
    y,
  );
  ctx.restore();
}

function drawSample(ctx: SKRSContext2D, e: LegendEntry, x: number, cy: number, f: number): void {
  const w = sampleWidth(e, f);
  if (e.band) {
    const h = f * 0.7;
    ctx.fillStyle = withAlpha(e.color, 0.12);
    ctx.fillRect(x, cy - h / 2, w, h);
    ctx.strokeStyle = withAlpha(e.color, 0.8);
    ctx.lineWidth = 0.5;
    ctx.setLineDash([]);
    ctx.beginPath();
    ctx.moveTo(x, cy - h / 2);
    ctx.lineTo(x + w, cy - h / 2);
    ctx.moveTo(x, cy + h / 2);
    ctx.lineTo(x + w, cy + h / 2);
    ctx.stroke();
  }
  if (e.line) {
    ctx.strokeStyle = e.color;
    ctx.lineWidth = e.line.width;
    ctx.setLineDash(e.line.dash);
    ctx.beginPath();
    ctx.moveTo(x, cy);
    ctx.lineTo(x + w, cy);
    ctx.stroke();
    ctx.setLineDash([]);
  }
  if (e.box) {
    const s = f * 0.75;
    ctx.fillStyle = e.box.fill;
    ctx.fillRect(x + (w - s) / 2, cy - s / 2, s, s);
    if (e.box.stroke) {
      ctx.strokeStyle = e.box.stroke;
      ctx.lineWidth = 0.6;
      ctx.strokeRect(x + (w - s) / 2, cy - s / 2, s, s);
    }
  }
  if (e.marker) drawMarker(ctx, e.marker.shape, x + w / 2, cy, e.marker.radius ?? f * 0.26, e.color, e.marker.hollow);
  if (e.glyph) {
    ctx.fillStyle = e.color;
    ctx.font = font(f, 'bold');
    ctx.textAlign = 'left';
    ctx.textBaseline = 'middle';
    ctx.fillText(e.glyph, x, cy);
  }
}

/** Draws the laid-out legend with its top-left corner at (left, top). */
export function drawLegend(ctx: SKRSContext2D, layout: LegendLayout, left: number, top: number, f: number): void {
  ctx.save();
  layout.rows.forEach((row, i) => {
    const cy = top + (i + 0.5) * layout.rowHeight;
    for (const p of row) {
      const x = left + p.x;
      drawSample(ctx, p.entry, x, cy, f);
      ctx.font = font(f);
      ctx.fillStyle = '#222222';
      ctx.textAlign = 'left';
      ctx.textBaseline = 'middle';
      ctx.fillText(p.entry.label, x + labelOffset(p.entry, f), cy);
    }
  });
  ctx.restore();
}
