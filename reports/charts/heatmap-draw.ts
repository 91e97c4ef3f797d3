// What the heatmaps draw alike (RULER's NIAH depth × length and suite heatmaps in generators/ruler/, BABILong's task ×
// length one in babilong-heatmap.ts), in points on any surface (PNG, SVG, PDF): the viridis scale (perceptually
// uniform, legible to colour-blind readers and in greyscale), cell text dark or light by the cell's luminance, cell
// borders and the colour bar with its "score ×100" label.
import type { SKRSContext2D } from '@napi-rs/canvas';
import { font, textWidth } from './canvas.js';

/** matplotlib's viridis sampled at 9 evenly spaced points (0 = dark violet, 1 = yellow); linear between them. */
const VIRIDIS = ['#440154', '#472d7b', '#3b528b', '#2c728e', '#21918c', '#28ae80', '#5ec962', '#addc30', '#fde725'];
const STOPS: Array<[number, [number, number, number]]> = VIRIDIS.map((hex, i) => [
  i / (VIRIDIS.length - 1),
  [parseInt(hex.slice(1, 3), 16), parseInt(hex.slice(3, 5), 16), parseInt(hex.slice(5, 7), 16)],
]);

function rgbAt(fraction: number): [number, number, number] {
  const t = Math.min(1, Math.max(0, Number.isFinite(fraction) ? fraction : 0));
  let i = 0;
  while (i < STOPS.length - 2 && t > STOPS[i + 1][0]) i++;
  const [t0, c0] = STOPS[i];
  const [t1, c1] = STOPS[i + 1];
  const u = (t - t0) / (t1 - t0);
  return c0.map((v, k) => Math.round(v + (c1[k] - v) * u)) as [number, number, number];
}

/** Colour for a score fraction 0..1 on the viridis scale. */
export function heatColor(fraction: number): string {
  const c = rgbAt(fraction);
  return `rgb(${c[0]}, ${c[1]}, ${c[2]})`;
}

/** WCAG relative luminance of an 8-bit sRGB colour. */
export function luminance(rgb: readonly [number, number, number]): number {
  const [r, g, b] = rgb.map((v) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export const DARK_TEXT = '#000000';
export const LIGHT_TEXT = '#ffffff';

/** Cell text on a fill of this luminance: black or white, whichever contrasts more (WCAG contrast ratio; the better
 *  of the two is never below 4.58:1, reached at luminance 0.18). */
export function textColourOn(fillLuminance: number): string {
  return (fillLuminance + 0.05) / 0.05 >= 1.05 / (fillLuminance + 0.05) ? DARK_TEXT : LIGHT_TEXT;
}

/** The text colour on a score's cell. */
export function heatTextColour(fraction: number): string {
  return textColourOn(luminance(rgbAt(fraction)));
}

export function drawText(
  ctx: SKRSContext2D,
  s: string,
  x: number,
  y: number,
  px: number,
  align: CanvasTextAlign,
  baseline: CanvasTextBaseline,
  opts: { weight?: 'normal' | 'bold'; color?: string; rotate?: number } = {},
): void {
  ctx.save();
  ctx.font = font(px, opts.weight);
  ctx.fillStyle = opts.color ?? '#222222';
  ctx.textAlign = align;
  ctx.textBaseline = baseline;
  ctx.translate(x, y);
  if (opts.rotate) ctx.rotate(opts.rotate);
  ctx.fillText(s, 0, 0);
  ctx.restore();
}

/** The grid's area in points. */
export interface CellBox {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Borders of nRows × nCols cells filling the box. */
export function drawCellBorders(
  ctx: SKRSContext2D,
  box: CellBox,
  nRows: number,
  nCols: number,
  style: { color: string; width: number },
): void {
  const ch = (box.bottom - box.top) / nRows;
  const cw = (box.right - box.left) / nCols;
  ctx.strokeStyle = style.color;
  ctx.lineWidth = style.width;
  for (let i = 0; i <= nRows; i++) {
    ctx.beginPath();
    ctx.moveTo(box.left, box.top + i * ch);
    ctx.lineTo(box.right, box.top + i * ch);
    ctx.stroke();
  }
  for (let j = 0; j <= nCols; j++) {
    ctx.beginPath();
    ctx.moveTo(box.left + j * cw, box.top);
    ctx.lineTo(box.left + j * cw, box.bottom);
    ctx.stroke();
  }
}

export const COLOUR_BAR_LABEL = 'score ×100';

/** The shortest bar its rotated label fits beside (a grid this tall or taller). */
export function colourBarMinHeight(f: number): number {
  return textWidth(COLOUR_BAR_LABEL, f) + 2;
}

/** Width the colour bar, its ticks and its rotated label take right of the grid. */
export function colourBarWidth(f: number, tickPx: number): number {
  return 2 + f * 1.3 + textWidth('100', tickPx) + 3 + f * 0.8 + f * 0.6;
}

/** The colour bar right of the grid (x = the grid's right edge), ticks every `step` points of score, and its label at
 *  the figure's right edge `W`. */
export function drawColourBar(
  ctx: SKRSContext2D,
  opts: { x: number; top: number; bottom: number; W: number; f: number; tickPx: number; step: number },
): void {
  const { top, bottom, f, tickPx } = opts;
  const barX = opts.x + f * 0.6;
  const barW = f * 0.8;
  const gradient = ctx.createLinearGradient(0, bottom, 0, top);
  for (const [t] of STOPS) gradient.addColorStop(t, heatColor(t));
  ctx.fillStyle = gradient;
  ctx.fillRect(barX, top, barW, bottom - top);
  ctx.strokeStyle = '#777777';
  ctx.lineWidth = 0.4;
  ctx.strokeRect(barX, top, barW, bottom - top);
  for (let v = 0; v <= 100; v += opts.step) {
    const y = bottom - (v / 100) * (bottom - top);
    ctx.beginPath();
    ctx.moveTo(barX + barW, y);
    ctx.lineTo(barX + barW + 2, y);
    ctx.stroke();
    drawText(ctx, String(v), barX + barW + 3, y, tickPx, 'left', 'middle');
  }
  drawText(ctx, COLOUR_BAR_LABEL, opts.W - 2 - f * 0.55, (top + bottom) / 2, f, 'center', 'middle', {
    rotate: Math.PI / 2,
  });
}
