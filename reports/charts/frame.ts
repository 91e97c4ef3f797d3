// The Chart.js configuration every chart of a report shares: bold title (with an optional grey subtitle below it),
// legend, the value (y) axis, and the wrapped footnote at the bottom. Line charts (accuracy, paired difference) and
// bar charts (LongBench scores, ROUGE, the placement probe) differ only in a few sizes, chosen here by `type`.
import type { ChartConfiguration, Plugin, ScriptableScaleContext } from 'chart.js';
import { footnotePadding, footnotePlugin, type ChartSize } from './canvas.js';

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
  title: string;
  /** Grey line under the title (the model, or method · model); `display: false` keeps the title's spacing. */
  subtitle?: { display: boolean; text: string };
  legend: {
    position: 'top' | 'right' | 'bottom';
    /** Label font and spacing between entries, in multiples of the base font. */
    font: number;
    padding: number;
  };
  /** Footnote text (parts separated by "; " wrap) and its font size in multiples of the base font. */
  footnote: string;
  footnoteFont: number;
  /** The category or length axis, as the chart builds it. */
  x: object;
  y: ValueAxis;
  /** Drawn besides the footnote (value labels, whiskers, interval bands). */
  plugins?: Plugin[];
}

/** The whole Chart.js configuration of one report chart. */
export function chartConfig(frame: ChartFrame): ChartConfiguration {
  const f = frame.size.font;
  const line = frame.type === 'line';
  const footPx = f * frame.footnoteFont;
  const y = frame.y;
  return {
    type: frame.type,
    data: frame.data,
    options: {
      layout: {
        padding: {
          left: 8,
          right: line ? 24 : 16,
          top: 8,
          bottom: footnotePadding(frame.footnote, footPx, frame.size.width),
        },
      },
      plugins: {
        title: {
          display: true,
          text: frame.title,
          font: { size: f * (line ? 1.15 : 1.1), weight: 'bold' },
          padding: { bottom: frame.subtitle ? 4 : 6 },
        },
        ...(frame.subtitle
          ? {
              subtitle: {
                display: frame.subtitle.display,
                text: frame.subtitle.text,
                font: { size: f * 0.72 },
                color: '#444444',
                padding: { bottom: 6 },
              },
            }
          : {}),
        legend: {
          position: frame.legend.position,
          labels: {
            font: { size: f * frame.legend.font },
            padding: f * frame.legend.padding,
            // Line charts show a short thick line per series; bar charts a box.
            ...(line ? { boxWidth: f * 1.6, boxHeight: 3 } : { boxWidth: f * 1.1 }),
          },
        },
      },
      scales: {
        x: frame.x,
        y: {
          min: y.min,
          max: y.max,
          title: { display: true, text: y.title, font: { size: f * 0.9 } },
          grid: y.grid ?? { color: '#e6e6e6' },
          ticks: { font: { size: f * 0.8 }, ...(y.stepSize === undefined ? {} : { stepSize: y.stepSize }) },
        },
      },
    },
    plugins: [footnotePlugin(frame.footnote, footPx), ...(frame.plugins ?? [])],
  } as ChartConfiguration;
}
