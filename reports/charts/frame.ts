// The Chart.js configuration every chart of a report shares, at print size: an optional bold title with its grey
// subtitle, the legend (legend.ts) under it, the value (y) axis, and the notes, which go to the caption file and are
// never drawn. Line charts (accuracy, paired difference) and bar charts (LongBench, ROUGE, the probe) differ only in
// the datasets and the category or length axis they hand in.
import type { SKRSContext2D } from '@napi-rs/canvas';
import type { ChartConfiguration, Plugin, ScriptableScaleContext } from 'chart.js';
import type { ChartCaption, ChartOutput, RenderedChart } from '../../harness/report/facet.js';
import { font, renderChartJs, textWidth, wrapText, type ChartSize } from './canvas.js';
import { drawLegend, layoutLegend, type LegendGroups, type LegendLayout } from './legend.js';

/** The y axis: a fixed range, its title, and (default) light grid lines. */
export interface ValueAxis {
  min: number;
  max: number;
  title: string;
  stepSize?: number;
  /** Grid line colour and width per tick (the difference chart draws its 0 line darker). */
  grid?: {
    color: (ctx: ScriptableScaleContext) => string;
    lineWidth: (ctx: ScriptableScaleContext) => number;
  };
}

export interface ChartFrame {
  type: 'line' | 'bar';
  data: ChartConfiguration['data'];
  size: ChartSize;
  output: ChartOutput;
  title: string;
  /** Grey line under the title (the model, or method · model). */
  subtitle?: string;
  /** The caption's subtitle when it says more than the image's (the model's full id). Default: `subtitle`. */
  captionSubtitle?: string;
  /** Legend entries in groups; each group starts a new row. */
  legend: LegendGroups;
  /** Sentences for the caption file (what the marks mean beyond the legend, sources, conventions). */
  notes: string[];
  /** The category or length axis, as the chart builds it. */
  x: object;
  y: ValueAxis;
  /** Further scales (e.g. the paper's length axis on top). */
  scales?: Record<string, object>;
  /** Drawn besides the title and legend (value labels, whiskers, interval bands). */
  plugins?: Plugin[];
  /** Height (pt) added for long upright category labels. */
  extraHeight?: number;
  /** Room (pt) added between the legend and the plot, for value labels over bars that reach the plot's top. */
  headroom?: number;
}

/** A chart ready to render: its configuration, its height in pt, and its caption. */
export interface FramedChart {
  config: ChartConfiguration;
  height: number;
  caption: ChartCaption;
  /** The legend as drawn (its groups), for tests and for figures that share a key. */
  legend: LegendGroups;
}

const MARGIN = 3;

/** Title lines (bold, wrapped) and subtitle lines of the title block; none without a title. */
export interface TitleBlock {
  title: string[];
  subtitle: string[];
  height: number;
}

export function titleBlock(size: ChartSize, output: ChartOutput, title: string, subtitle?: string): TitleBlock {
  if (!output.title) return { title: [], subtitle: [], height: 0 };
  const f = size.font;
  const width = size.width - 2 * MARGIN;
  const t = wrapText(title, f * 1.125, width, 'bold');
  const s = subtitle ? wrapText(subtitle, f, width) : [];
  return { title: t, subtitle: s, height: t.length * f * 1.35 + s.length * f * 1.25 + f * 0.3 };
}

/** Draws the title block centred at the top, starting `MARGIN` pt down. */
export function drawTitleBlock(ctx: SKRSContext2D, block: TitleBlock, size: ChartSize): void {
  const f = size.font;
  ctx.save();
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  let y = MARGIN;
  ctx.fillStyle = '#111111';
  ctx.font = font(f * 1.125, 'bold');
  for (const line of block.title) {
    ctx.fillText(line, size.width / 2, y);
    y += f * 1.35;
  }
  ctx.fillStyle = '#444444';
  ctx.font = font(f);
  for (const line of block.subtitle) {
    ctx.fillText(line, size.width / 2, y);
    y += f * 1.25;
  }
  ctx.restore();
}

/**
 * A chart's height: the size's, plus what its title block and legend take beyond a one-line title, a subtitle and
 * one legend row (so a long legend does not squeeze the plot), rounded up to whole 6 pt.
 */
export function grownHeight(size: ChartSize, header: number, more = 0): number {
  const extra = Math.max(0, header - size.font * 5.7) + more;
  return Math.ceil((size.height + extra) / 6) * 6;
}

function headerPlugin(block: TitleBlock, legend: LegendLayout, size: ChartSize): Plugin {
  return {
    id: 'header',
    afterDraw(chart) {
      const ctx = chart.ctx as unknown as SKRSContext2D;
      drawTitleBlock(ctx, block, size);
      drawLegend(ctx, legend, MARGIN, MARGIN + block.height, size.font);
    },
  };
}

/** An axis title in one line when it fits `width`, else two split before its parenthesis when both fit, else wrapped. */
export function axisTitleLines(title: string, f: number, width: number): string | string[] {
  if (textWidth(title, f) <= width) return title;
  const paren = title.indexOf(' (');
  const parts = paren > 0 ? [title.slice(0, paren), title.slice(paren + 1)] : [];
  if (parts.length && parts.every((p) => textWidth(p, f) <= width)) return parts;
  return wrapText(title, f, width);
}

/** The whole Chart.js configuration of one report chart, its height and its caption. */
export function chartFrame(frame: ChartFrame): FramedChart {
  const f = frame.size.font;
  const line = frame.type === 'line';
  const y = frame.y;
  const block = titleBlock(frame.size, frame.output, frame.title, frame.subtitle);
  const legend = layoutLegend(frame.legend, frame.size.width - 2 * MARGIN, f);
  const top = MARGIN + block.height + legend.height + (legend.height ? f * 0.8 : f * 0.4) + (frame.headroom ?? 0);
  // Headroom comes out of the plot, not on top of the print size.
  const height = grownHeight(frame.size, top - (frame.headroom ?? 0), frame.extraHeight ?? 0);
  const axisTitle = { display: true, font: { size: f } };
  // The value axis's title in lines no longer than the plot is tall (about: less the length axis's ticks and title),
  // so that it never runs past the plot into the legend or off the figure.
  const plotHeight = height - top - MARGIN - f * 5 - (frame.extraHeight ?? 0);
  const yTitle = axisTitleLines(y.title, f, Math.max(plotHeight, f * 4));
  const config = {
    type: frame.type,
    data: frame.data,
    options: {
      layout: { padding: { left: MARGIN, right: line ? f * 1.2 : MARGIN + 2, top, bottom: MARGIN } },
      plugins: { legend: { display: false }, title: { display: false } },
      scales: {
        x: frame.x,
        y: {
          min: y.min,
          max: y.max,
          title: { ...axisTitle, text: yTitle, padding: { top: 0, bottom: 2 } },
          grid: y.grid ?? { color: '#e6e6e6', lineWidth: 0.5 },
          border: { color: '#888888', width: 0.6 },
          ticks: {
            font: { size: f },
            padding: 2,
            autoSkip: false,
            ...(y.stepSize === undefined ? {} : { stepSize: y.stepSize }),
          },
        },
        ...(frame.scales ?? {}),
      },
    },
    plugins: [...(frame.plugins ?? []), headerPlugin(block, legend, frame.size)],
  } as ChartConfiguration;
  return {
    config,
    height,
    legend: frame.legend,
    caption: {
      title: frame.title,
      ...((frame.captionSubtitle ?? frame.subtitle) ? { subtitle: frame.captionSubtitle ?? frame.subtitle } : {}),
      notes: frame.notes,
    },
  };
}

/** Renders a framed chart in its output format. */
export function renderFrame(framed: FramedChart, size: ChartSize, output: ChartOutput): RenderedChart {
  return {
    bytes: renderChartJs(framed.config, size, output, framed.caption.title, framed.height),
    caption: framed.caption,
  };
}

/** The text of a caption file: title, subtitle, a blank line, then one note per line. */
export function captionText(caption: ChartCaption): string {
  const head = [caption.title, ...(caption.subtitle ? [caption.subtitle] : [])];
  return `${[...head, ...(caption.notes.length ? ['', ...caption.notes] : [])].join('\n')}\n`;
}
