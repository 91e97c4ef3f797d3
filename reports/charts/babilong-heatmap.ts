// BABILong's figure (collect_results.py plot_results): task rows × context length columns for one method and model,
// each cell the accuracy ×100 printed as a whole number, as BABILong prints it. The colours are the NIAH heatmap's
// viridis scale (heatmap-draw.ts) in place of BABILong's red → yellow → green, which colour-blind readers cannot tell
// apart; the cell text is black or white, whichever contrasts more with the fill.
import type { SKRSContext2D } from '@napi-rs/canvas';
import type { RenderedChart } from '../../harness/report/facet.js';
import { modelLabel } from '../format.js';
import { shortModel } from '../labels.js';
import { DEFAULT_OUTPUT, drawFigure, textWidth, type ChartOutput, type ChartSize } from './canvas.js';
import { drawTitleBlock, titleBlock } from './frame.js';
import {
  colourBarMinHeight,
  colourBarWidth,
  drawCellBorders,
  drawColourBar,
  drawText as text,
  heatColor,
  heatTextColour,
} from './heatmap-draw.js';

export interface TaskLengthCell {
  /** Accuracy ×100 (errors count as 0). */
  score: number;
  n: number;
  errors: number;
}

export interface TaskLengthGrid {
  /** Row labels: BABILong's task names, qa1 first. */
  tasks: string[];
  /** Column labels: BABILong's length names (0k, 1k … 128k, 512k, 1M, 10M), shortest first. */
  lengths: string[];
  /** cells[task][length]; null where the run has no such cell. */
  cells: Array<Array<TaskLengthCell | null>>;
}

/** A cell's printed value: whole points, as BABILong's figure prints them. */
export function cellText(cell: TaskLengthCell | null): string {
  return cell ? cell.score.toFixed(0) : '–';
}

/** The smallest value text (pt) drawn when cells are too narrow for the size's font; below it none is drawn. */
export const MIN_VALUE_PT = 6;

export interface BabilongHeatmapInput {
  method: string;
  model: string;
  isReferenceReader?: boolean;
  grid: TaskLengthGrid;
  size: ChartSize;
  output?: ChartOutput;
}

export const BABILONG_HEATMAP_TITLE = 'BABILong accuracy by task and length';

export function babilongHeatmapFigure(input: BabilongHeatmapInput): RenderedChart {
  const { size } = input;
  const output = input.output ?? DEFAULT_OUTPUT;
  const f = size.font;
  const W = size.width;
  const { grid } = input;
  const title = BABILONG_HEATMAP_TITLE;
  const block = titleBlock(
    size,
    output,
    title,
    `${input.method} · ${shortModel(input.model, input.isReferenceReader)}`,
  );

  const top = 3 + block.height + f * 0.4;
  const yTickW = Math.max(textWidth('qa20', f), ...grid.tasks.map((t) => textWidth(t, f)));
  const left = 2 + f * 1.3 + yTickW + 3;
  const nRows = Math.max(1, grid.tasks.length);
  const nCols = Math.max(1, grid.lengths.length);
  // Values at the size's font where "100" fits its cell, else smaller; where even MIN_VALUE_PT does not fit (a
  // 3.25 in figure of all 14 lengths), the colour bar gives its width to the cells, whose values say what it would.
  const valuePtAt = (right: number) => Math.min(f, ((right - left) / nCols - 2) / (textWidth('100', f) / f));
  const bar = valuePtAt(W - colourBarWidth(f, f)) >= MIN_VALUE_PT || valuePtAt(W - 3) < MIN_VALUE_PT;
  const right = bar ? W - colourBarWidth(f, f) : W - 3;
  const cw = (right - left) / nCols;
  const valuePt = valuePtAt(right);
  const widestTick = Math.max(0, ...grid.lengths.map((l) => textWidth(l, f)));
  const rotate = widestTick > cw - 2;
  const ticksH = rotate ? widestTick * Math.SQRT1_2 + f * 0.8 : f * 1.2;
  const bottomPad = 2 + ticksH + f * 1.3 + 3;
  // Rows as tall as 2.2 lines where the size's height leaves room, never lower than their text needs (20 tasks grow
  // the figure past the size's height; a few tasks leave it shorter).
  const fit = (size.height - top - bottomPad) / nRows;
  const ch = Math.max(Math.min(f * 2.2, fit), f * 1.45, bar ? colourBarMinHeight(f) / nRows : 0);
  const height = Math.ceil((top + nRows * ch + bottomPad) / 6) * 6;
  const bottom = top + nRows * ch;

  const draw = (ctx: SKRSContext2D) => {
    drawTitleBlock(ctx, block, size);
    if (grid.tasks.length === 0)
      text(ctx, 'no BABILong rows', (left + right) / 2, (top + bottom) / 2, f, 'center', 'middle', {
        color: '#777777',
      });
    grid.cells.forEach((row, i) =>
      row.forEach((cell, j) => {
        const x = left + j * cw;
        const y = top + i * ch;
        ctx.fillStyle = cell ? heatColor(cell.score / 100) : '#e3e3e3';
        ctx.fillRect(x, y, cw, ch);
        if (valuePt >= MIN_VALUE_PT)
          text(ctx, cellText(cell), x + cw / 2, y + ch / 2, valuePt, 'center', 'middle', {
            color: cell ? heatTextColour(cell.score / 100) : '#555555',
          });
      }),
    );
    drawCellBorders(ctx, { left, top, right, bottom }, nRows, nCols, { color: '#9a9a9a', width: 0.4 });
    grid.tasks.forEach((t, i) => text(ctx, t, left - 2, top + (i + 0.5) * ch, f, 'right', 'middle'));
    text(ctx, 'task', 2 + f * 0.55, (top + bottom) / 2, f, 'center', 'middle', { rotate: -Math.PI / 2 });
    grid.lengths.forEach((l, j) => {
      const cx = left + (j + 0.5) * cw;
      if (rotate) text(ctx, l, cx + f * 0.3, bottom + 2, f, 'right', 'top', { rotate: -Math.PI / 4 });
      else text(ctx, l, cx, bottom + 2, f, 'center', 'top');
    });
    text(ctx, "context length (BABILong's names)", (left + right) / 2, bottom + bottomPad - 3, f, 'center', 'bottom');
    const step = [20, 25, 50, 100].find((s) => ((bottom - top) * s) / 100 >= f * 1.5) ?? 100;
    if (bar) drawColourBar(ctx, { x: right, top, bottom, W, f, tickPx: f, step });
  };

  const filled = grid.cells.flat().filter((c): c is TaskLengthCell => c !== null);
  const counts = filled.map((c) => c.n);
  const [lo, hi] = [Math.min(...counts), Math.max(...counts)];
  const errors = filled.reduce((s, c) => s + c.errors, 0);
  const notes = [
    counts.length ? `Samples per cell: ${lo === hi ? lo : `${lo}–${hi}`}.` : '',
    errors ? `${errors} errored sample${errors > 1 ? 's' : ''}, counted as wrong.` : '',
    "Cell values: accuracy ×100 by BABILong's compare_answers, in whole points as BABILong's figure prints them (summary.md has 2 decimals); errors count as 0.",
    grid.cells.flat().some((c) => c === null) ? 'Grey, –: not run at that length.' : '',
    valuePt < MIN_VALUE_PT
      ? 'Cells too narrow for their values at this size; the double-column figure prints them.'
      : '',
    bar
      ? ''
      : `No colour bar at this size: the cells print their values (${Number(valuePt.toFixed(1))} pt) in its room.`,
    "Lengths as BABILong names them (1k = 1,000 tokens of the whole prompt, 1M = 1,000,000). Colour: viridis, dark violet 0 to yellow 100 (BABILong's own figure is red to green).",
  ].filter(Boolean);
  return {
    bytes: drawFigure(size, output, title, draw, height),
    caption: { title, subtitle: `${input.method} · ${modelLabel(input.model, input.isReferenceReader)}`, notes },
  };
}
