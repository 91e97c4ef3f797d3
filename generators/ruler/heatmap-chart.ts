// NIAH heatmap in the gkamradt convention: depth % rows (0% at top) × context length columns, here on the viridis
// scale (dark violet 0 → yellow 100; heatmap-draw.ts) in place of the original's red → green, which colour-blind
// readers cannot tell apart. chart.js has no heatmap type, so this one is drawn on the canvas directly.
import type { SKRSContext2D } from '@napi-rs/canvas';
import type { SampleRecord } from '../../harness/types.js';
import { fmt2, modelLabel } from '../../reports/format.js';
import { methodExtra } from '../../reports/records.js';
import type { RenderedChart } from '../../harness/report/facet.js';
import {
  DEFAULT_OUTPUT,
  drawFigure,
  textWidth,
  type ChartOutput,
  type ChartSize,
} from '../../reports/charts/canvas.js';
import { drawTitleBlock, titleBlock } from '../../reports/charts/frame.js';
import { shortModel } from '../../reports/labels.js';
import {
  colourBarWidth,
  drawCellBorders,
  drawColourBar,
  drawText as text,
  heatColor,
  heatTextColour,
} from '../../reports/charts/heatmap-draw.js';

export { heatColor } from '../../reports/charts/heatmap-draw.js';

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
  output?: ChartOutput;
  /** Depth bin width in percent; default: none when ≤ 21 distinct depths, else 10. */
  depthBin?: number;
}

/** "62.50" → "62.5", "100.00" → "100" (the value is already rounded to 2 decimals). */
function trimZeros(fixed: string): string {
  return String(Number(fixed));
}

/** Labels of the lengths where some sample's context was middle-truncated (the method's extra middle_truncated). */
export function cutLengths(records: SampleRecord[]): string[] {
  const cut = new Map<string, { kind: string; length: number; label: string }>();
  for (const r of records)
    if (methodExtra(r).middle_truncated === true)
      cut.set(`${r.lengthKind}:${r.length}`, { kind: r.lengthKind, length: r.length, label: r.lengthLabel });
  return [...cut.values()]
    .sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : a.length - b.length))
    .map((l) => l.label);
}

/** The heatmap's drawing in points, its caption, and the bytes in `input.output`'s format. */
export function heatmapFigure(input: HeatmapInput): RenderedChart {
  const { size } = input;
  const output = input.output ?? DEFAULT_OUTPUT;
  const f = size.font;
  const distinct = new Set(input.records.map(depthOf).filter((d) => d !== null)).size;
  const bin = input.depthBin ?? (distinct > 21 ? 10 : 0);
  const grid = heatmapGrid(input.records, bin);
  const W = size.width;
  const H = size.height;
  const title = `${input.task}: score by needle depth and context length`;
  const subtitle = `${input.method} · ${modelLabel(input.model, input.isReferenceReader)}`;
  const block = titleBlock(
    size,
    output,
    title,
    `${input.method} · ${shortModel(input.model, input.isReferenceReader)}`,
  );

  const tickPx = f;
  const labels = grid.lengths.map((l) => l.label);
  const depthLabels = grid.depths.map((d) => trimZeros(fmt2(d)));
  const yTickW = Math.max(textWidth('100', tickPx), ...depthLabels.map((d) => textWidth(d, tickPx)));
  const left = 2 + f * 1.3 + yTickW + 3;
  const right = W - colourBarWidth(f, tickPx);
  const top = 3 + block.height + f * 0.4;
  const nRows = Math.max(1, grid.depths.length);
  const nCols = Math.max(1, grid.lengths.length);
  const cw = (right - left) / nCols;
  const widest = Math.max(0, ...labels.map((l) => textWidth(l, tickPx)));
  const rotate = widest > cw - 2;
  const xTicksH = rotate ? widest * Math.SQRT1_2 + tickPx * 0.8 : tickPx * 1.2;
  const bottom = H - (3 + f * 1.3 + xTicksH + 2);
  const ch = (bottom - top) / nRows;

  const draw = (ctx: SKRSContext2D) => {
    drawTitleBlock(ctx, block, size);
    if (grid.depths.length === 0) {
      text(ctx, 'no samples with a needle depth', (left + right) / 2, (top + bottom) / 2, f, 'center', 'middle', {
        color: '#777777',
      });
    }
    const valuePx = [f].find((px) => cw >= textWidth('100', px) + 2 && ch >= px * 1.05);
    grid.cells.forEach((row, i) =>
      row.forEach((cell, j) => {
        const x = left + j * cw;
        const y = top + i * ch;
        ctx.fillStyle = cell ? heatColor(cell.mean) : '#e3e3e3';
        ctx.fillRect(x, y, cw, ch);
        if (valuePx !== undefined)
          text(
            ctx,
            cell ? trimZeros(fmt2(cell.mean * 100)) : '–',
            x + cw / 2,
            y + ch / 2,
            valuePx,
            'center',
            'middle',
            { color: cell ? heatTextColour(cell.mean) : '#555555' },
          );
      }),
    );
    // Thin grey cell borders, as in the seaborn original.
    drawCellBorders(ctx, { left, top, right, bottom }, nRows, nCols, { color: '#9a9a9a', width: 0.4 });

    // Y ticks: depth %, thinned so labels never overlap.
    const every = Math.max(1, Math.ceil((tickPx * 1.15) / ch));
    depthLabels.forEach((d, i) => {
      if (i % every === 0) text(ctx, d, left - 2, top + (i + 0.5) * ch, tickPx, 'right', 'middle');
    });
    text(ctx, 'needle depth (%)', 2 + f * 0.55, (top + bottom) / 2, f, 'center', 'middle', { rotate: -Math.PI / 2 });

    // X ticks: lengths, rotated 45° only when they do not fit their cell.
    labels.forEach((l, j) => {
      const cx = left + (j + 0.5) * cw;
      if (rotate) text(ctx, l, cx + tickPx * 0.3, bottom + 2, tickPx, 'right', 'top', { rotate: -Math.PI / 4 });
      else text(ctx, l, cx, bottom + 2, tickPx, 'center', 'top');
    });
    text(ctx, 'context length (tokens, k = 1024)', (left + right) / 2, H - 3, f, 'center', 'bottom');

    // Colour bar with its "score" label.
    drawColourBar(ctx, { x: right, top, bottom, W, f, tickPx, step: 20 });
  };

  const counts = grid.cells
    .flat()
    .filter((c): c is { mean: number; n: number } => c !== null)
    .map((c) => c.n);
  const lo = Math.min(...counts);
  const hi = Math.max(...counts);
  const cut = cutLengths(input.records);
  const notes = [
    counts.length ? `Samples per cell: ${lo === hi ? lo : `${lo}–${hi}`}.` : '',
    grid.cells.flat().some((c) => c === null) ? 'Grey: no sample at that depth.' : '',
    cut.length ? `Context cut in the middle to fit the limit at ${cut.join(', ')}.` : '',
    bin > 0 ? `Depth = first needle, rounded to the nearest ${bin}%.` : 'Depth = first needle.',
    'Cell values: mean score ×100; errors count as 0. Colour: viridis, dark violet 0 to yellow 100.',
  ].filter(Boolean);
  return { bytes: drawFigure(size, output, title, draw), caption: { title, subtitle, notes } };
}

/** The heatmap's bytes (PNG unless `output` says otherwise). */
export function renderHeatmap(input: HeatmapInput): Buffer {
  return heatmapFigure(input).bytes;
}
