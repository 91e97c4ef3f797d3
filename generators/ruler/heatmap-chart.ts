// NIAH heatmap in the gkamradt convention: depth % rows (0% at top) × context length columns, red→yellow→green.
// chart.js has no heatmap type, so this one is drawn on the canvas directly.
import type { SKRSContext2D } from '@napi-rs/canvas';
import type { SampleRecord } from '../../harness/types.js';
import { fmt2, modelLabel } from '../../reports/format.js';
import { methodExtra } from '../../reports/records.js';
import { blankCanvas, encodePng, font, type ChartSize } from '../../reports/charts/canvas.js';
import { displayLength } from '../../reports/labels.js';

const STOPS: Array<[number, [number, number, number]]> = [
  [0, [0xf0, 0x49, 0x6e]],
  [0.5, [0xeb, 0xb8, 0x39]],
  [1, [0x0c, 0xd7, 0x9f]],
];

/** Colour for a score fraction 0..1 on the #F0496E → #EBB839 → #0CD79F scale. */
export function heatColor(fraction: number): string {
  const t = Math.min(1, Math.max(0, fraction));
  let i = 0;
  while (i < STOPS.length - 2 && t > STOPS[i + 1][0]) i++;
  const [t0, c0] = STOPS[i];
  const [t1, c1] = STOPS[i + 1];
  const u = (t - t0) / (t1 - t0);
  const c = c0.map((v, k) => Math.round(v + (c1[k] - v) * u));
  return `rgb(${c[0]}, ${c[1]}, ${c[2]})`;
}

/** Depth percent of a NIAH record: metadata.needles[0].depth, else metadata.depth; null when absent. */
export function depthOf(record: Pick<SampleRecord, 'metadata'>): number | null {
  const m = record.metadata ?? {};
  const needles = m.needles;
  if (Array.isArray(needles) && needles.length > 0) {
    const d = (needles[0] as { depth?: unknown })?.depth;
    if (typeof d === 'number' && Number.isFinite(d)) return d;
  }
  return typeof m.depth === 'number' && Number.isFinite(m.depth) ? m.depth : null;
}

export interface HeatmapGrid {
  depths: number[];
  lengths: Array<{ kind: string; length: number; label: string }>;
  /** cells[row][col]: mean score 0..1 and sample count; null where no sample fell. */
  cells: Array<Array<{ mean: number; n: number } | null>>;
}

/**
 * Mean score per (depth, length); errors count as 0. Records without a depth are ignored. With binWidth > 0
 * depths are rounded to the nearest multiple of it (RULER draws depths at random from 40 values, which leaves
 * sparse rows otherwise).
 */
export function heatmapGrid(records: Iterable<SampleRecord>, binWidth = 0): HeatmapGrid {
  const lengthMap = new Map<string, { kind: string; length: number; label: string }>();
  const sums = new Map<string, { sum: number; n: number }>();
  const depthSet = new Set<number>();
  for (const r of records) {
    const raw = depthOf(r);
    if (raw === null) continue;
    const depth = binWidth > 0 ? Math.round(raw / binWidth) * binWidth : raw;
    const lk = `${r.lengthKind}:${r.length}`;
    if (!lengthMap.has(lk)) lengthMap.set(lk, { kind: r.lengthKind, length: r.length, label: r.lengthLabel });
    depthSet.add(depth);
    const key = `${depth}|${lk}`;
    const s = sums.get(key) ?? { sum: 0, n: 0 };
    s.sum += r.status === 'error' ? 0 : r.score;
    s.n++;
    sums.set(key, s);
  }
  const depths = [...depthSet].sort((a, b) => a - b);
  const lengths = [...lengthMap.values()].sort((a, b) =>
    a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : a.length - b.length,
  );
  const cells = depths.map((d) =>
    lengths.map((l) => {
      const s = sums.get(`${d}|${l.kind}:${l.length}`);
      return s ? { mean: s.sum / s.n, n: s.n } : null;
    }),
  );
  return { depths, lengths, cells };
}

export interface HeatmapInput {
  task: string;
  method: string;
  model: string;
  isReferenceReader?: boolean;
  records: SampleRecord[];
  size: ChartSize;
  /** Depth bin width in percent; default: none when ≤ 21 distinct depths, else 10. */
  depthBin?: number;
}

/** "62.50" → "62.5", "100.00" → "100" (the value is already rounded to 2 decimals). */
function trimZeros(fixed: string): string {
  return String(Number(fixed));
}

function text(
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

/** Display labels of the lengths where some sample's context was middle-truncated (the method's extra middle_truncated). */
export function cutLengths(records: SampleRecord[]): string[] {
  const cut = new Map<string, { kind: string; length: number; label: string }>();
  for (const r of records)
    if (methodExtra(r).middle_truncated === true)
      cut.set(`${r.lengthKind}:${r.length}`, { kind: r.lengthKind, length: r.length, label: r.lengthLabel });
  return [...cut.values()]
    .sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : a.length - b.length))
    .map((l) => displayLength(l.label));
}

export function renderHeatmap(input: HeatmapInput): Buffer {
  const { size } = input;
  const f = size.font;
  const distinct = new Set(input.records.map(depthOf).filter((d) => d !== null)).size;
  const bin = input.depthBin ?? (distinct > 21 ? 10 : 0);
  const grid = heatmapGrid(input.records, bin);
  const { canvas, ctx } = blankCanvas(size);
  const W = size.width;
  const H = size.height;

  const title = `${input.task}: score by needle depth and context length`;
  text(ctx, title, W / 2, f * 0.5, f * 1.1, 'center', 'top', { weight: 'bold' });
  text(
    ctx,
    `${input.method} · ${modelLabel(input.model, input.isReferenceReader)}`,
    W / 2,
    f * 1.9,
    f * 0.72,
    'center',
    'top',
    { color: '#444444' },
  );

  const left = f * 5.2;
  const right = W - f * 5.2;
  const top = f * 3.4;
  const bottom = H - f * 5.4;
  const nRows = Math.max(1, grid.depths.length);
  const nCols = Math.max(1, grid.lengths.length);
  const cw = (right - left) / nCols;
  const ch = (bottom - top) / nRows;

  if (grid.depths.length === 0) {
    text(ctx, 'no samples with a needle depth', (left + right) / 2, (top + bottom) / 2, f, 'center', 'middle', {
      color: '#777777',
    });
  }
  const showValues = cw >= f * 2.8 && ch >= f * 0.95;
  const valuePx = Math.min(f * 0.7, ch * 0.6);
  grid.cells.forEach((row, i) =>
    row.forEach((cell, j) => {
      const x = left + j * cw;
      const y = top + i * ch;
      ctx.fillStyle = cell ? heatColor(cell.mean) : '#e3e3e3';
      ctx.fillRect(x, y, cw, ch);
      if (showValues)
        text(ctx, cell ? trimZeros(fmt2(cell.mean * 100)) : '–', x + cw / 2, y + ch / 2, valuePx, 'center', 'middle', {
          color: '#1a1a1a',
        });
    }),
  );
  // Thin grey cell borders, as in the seaborn original.
  ctx.strokeStyle = '#9a9a9a';
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

  // Y ticks: depth %, thinned so labels never overlap.
  const tickPx = f * 0.75;
  const every = Math.max(1, Math.ceil((tickPx * 1.25) / ch));
  grid.depths.forEach((d, i) => {
    if (i % every === 0) text(ctx, trimZeros(fmt2(d)), left - f * 0.4, top + (i + 0.5) * ch, tickPx, 'right', 'middle');
  });
  text(ctx, 'Depth Percent', f * 0.9, (top + bottom) / 2, f * 0.9, 'center', 'middle', { rotate: -Math.PI / 2 });

  // X ticks: lengths, rotated 45°.
  grid.lengths.forEach((l, j) => {
    text(ctx, displayLength(l.label), left + (j + 0.5) * cw + tickPx * 0.3, bottom + f * 0.45, tickPx, 'right', 'top', {
      rotate: -Math.PI / 4,
    });
  });
  text(ctx, 'Token Limit', (left + right) / 2, H - f * 1.6, f * 0.9, 'center', 'bottom');

  // Colour bar with its "Score" label.
  const barX = right + f * 1.2;
  const barW = f * 1.0;
  const gradient = ctx.createLinearGradient(0, bottom, 0, top);
  for (const [t] of STOPS) gradient.addColorStop(t, heatColor(t));
  ctx.fillStyle = gradient;
  ctx.fillRect(barX, top, barW, bottom - top);
  ctx.strokeStyle = '#777777';
  ctx.strokeRect(barX, top, barW, bottom - top);
  for (let v = 0; v <= 100; v += 20) {
    const y = bottom - (v / 100) * (bottom - top);
    ctx.beginPath();
    ctx.moveTo(barX + barW, y);
    ctx.lineTo(barX + barW + f * 0.25, y);
    ctx.stroke();
    text(ctx, String(v), barX + barW + f * 0.35, y, tickPx, 'left', 'middle');
  }
  text(ctx, 'Score', W - f * 0.9, (top + bottom) / 2, f * 0.9, 'center', 'middle', { rotate: Math.PI / 2 });

  const counts = grid.cells
    .flat()
    .filter((c): c is { mean: number; n: number } => c !== null)
    .map((c) => c.n);
  const lo = Math.min(...counts);
  const hi = Math.max(...counts);
  const nNote = counts.length ? `samples per cell ${lo === hi ? lo : `${lo}–${hi}`}` : '';
  const cut = cutLengths(input.records);
  const note = [
    nNote,
    grid.cells.flat().some((c) => c === null) ? 'grey = no sample at that depth' : '',
    cut.length ? `context cut in the middle to fit the limit at ${cut.join(', ')}` : '',
    bin > 0 ? `depth = first needle, rounded to the nearest ${bin}%` : 'depth = first needle',
    'score ×100',
  ]
    .filter(Boolean)
    .join('; ');
  text(ctx, note, 8, H - 4, f * 0.6, 'left', 'bottom', { color: '#555555' });
  return encodePng(canvas, size, title);
}
