// Shared pieces for grouped bar charts: value labels, error and interval whiskers, sizing, axes and series.
import type { Chart, ChartConfiguration, Plugin } from 'chart.js';
import { fmt2 } from '../format.js';
import { placeBarValues, type ValueBar } from './bar-values.js';
import { font, textWidth } from './canvas.js';

/** A bar's whisker from low to high (data units, ×100), or null for none. */
export type WhiskerBound = (value: unknown, datasetIndex: number, barIndex: number) => [number, number] | null;

/** The whiskers' end caps: half as wide as 4 pt, or a quarter of a narrower bar. */
function capOf(width: number): number {
  return Math.min(2, width * 0.25);
}

/**
 * Writes each bar's value (already ×100) above it, or above its whisker when `whiskers` gives one, by
 * `placeBarValues`: upright, else all turned 90° where upright ones would touch, else none. Labels may rise half a
 * line above the plot (frame.ts keeps 0.8 of a line free under a legend), and `headroom` (pt, frame's) more.
 */
export function barValuesPlugin(px: number, whiskers?: WhiskerBound, headroom = 0): Plugin<'bar'> {
  return {
    id: 'barValues',
    afterDatasetsDraw(chart: Chart<'bar'>) {
      const y = chart.scales.y;
      const bars: ValueBar[] = [];
      chart.data.datasets.forEach((ds, i) => {
        const meta = chart.getDatasetMeta(i);
        if (meta.hidden) return;
        meta.data.forEach((bar, j) => {
          const v = ds.data[j];
          if (typeof v !== 'number') return;
          const { width, base } = bar.getProps(['width', 'base'], true) as { width: number; base: number };
          const b = whiskers?.(v, i, j);
          bars.push({
            x: bar.x,
            width,
            top: Math.min(bar.y, base),
            bottom: Math.max(bar.y, base),
            text: String(Number(fmt2(v))),
            ...(b
              ? { whisker: { top: y.getPixelForValue(b[1]), bottom: y.getPixelForValue(b[0]), cap: capOf(width) } }
              : {}),
          });
        });
      });
      const { chartArea } = chart;
      const layout = placeBarValues(bars, {
        area: {
          left: chartArea.left,
          right: chartArea.right,
          top: chartArea.top - px * 0.5 - headroom,
          bottom: chartArea.bottom,
        },
        height: px,
        measure: (t) => textWidth(t, px),
      });
      const ctx = chart.ctx;
      ctx.save();
      ctx.font = font(px);
      ctx.fillStyle = '#222222';
      for (const l of layout.labels) {
        if (layout.rotated) {
          ctx.save();
          ctx.translate(l.x, l.y);
          ctx.rotate(-Math.PI / 2);
          ctx.textAlign = 'left';
          ctx.textBaseline = 'middle';
          ctx.fillText(l.text, 0, 0);
          ctx.restore();
        } else {
          ctx.textAlign = 'center';
          ctx.textBaseline = 'bottom';
          ctx.fillText(l.text, l.x, l.y);
        }
      }
      ctx.restore();
    },
  };
}

/**
 * Room (pt) above the plot for value labels (frame's `headroom`, barValuesPlugin's): none while the value axis runs at
 * least 10 above the tallest mark (`top`: value or whisker, ×100); else two and a half lines, enough for a turned
 * "66.67".
 */
export function valueHeadroom(yMax: number, top: number, px: number): number {
  return yMax - top >= 10 ? 0 : px * 2.5;
}

/**
 * Tick font size (pt) and rotation for multi-line category labels: the largest size from `maxPx` down to `minPx`
 * at which the widest line fits its category; rotated 45° when even `minPx` does not fit (90° when categories are
 * narrower than about two lines).
 */
export function categoryTicks(
  labels: string[][],
  plotWidth: number,
  maxPx: number,
  minPx: number,
): { size: number; maxRotation: number } {
  const category = plotWidth / Math.max(1, labels.length);
  const widest = (px: number) => Math.max(0, ...labels.flat().map((line) => textWidth(line, px)));
  for (let px = maxPx; px >= minPx; px -= 0.5) if (widest(px) <= category * 0.94) return { size: px, maxRotation: 0 };
  // Too dense for slanted labels to clear each other: upright.
  return { size: minPx, maxRotation: category < minPx * 2.2 ? 90 : 45 };
}

/** A plugin drawing a whisker with end caps on each bar from `bound`'s low to high (data units, ×100); none where
 *  `bound` gives null. */
function whiskersPlugin(id: string, bound: WhiskerBound): Plugin<'bar'> {
  return {
    id,
    afterDatasetsDraw(chart: Chart<'bar'>) {
      const ctx = chart.ctx;
      const y = chart.scales.y;
      ctx.save();
      ctx.strokeStyle = '#333333';
      ctx.lineWidth = 0.6;
      chart.data.datasets.forEach((ds, i) => {
        chart.getDatasetMeta(i).data.forEach((bar, j) => {
          const b = bound(ds.data[j], i, j);
          if (!b) return;
          const { width } = bar.getProps(['width'], true) as { width: number };
          const top = y.getPixelForValue(b[1]);
          const bottom = y.getPixelForValue(b[0]);
          const cap = capOf(width);
          ctx.beginPath();
          ctx.moveTo(bar.x, top);
          ctx.lineTo(bar.x, bottom);
          ctx.moveTo(bar.x - cap, top);
          ctx.lineTo(bar.x + cap, top);
          ctx.moveTo(bar.x - cap, bottom);
          ctx.lineTo(bar.x + cap, bottom);
          ctx.stroke();
        });
      });
      ctx.restore();
    },
  };
}

/** Draws ±half-width whiskers (same units as the data) on bars; halfWidths[datasetIndex][barIndex]. */
export function errorBarsPlugin(halfWidths: number[][]): Plugin<'bar'> {
  return whiskersPlugin('errorBars', errorBounds(halfWidths));
}

/** ±halfWidths[datasetIndex][barIndex] around each bar's value, within 0..100. */
export function errorBounds(halfWidths: number[][]): WhiskerBound {
  return (v, i, j) => {
    const h = halfWidths[i]?.[j];
    if (typeof v !== 'number' || h === undefined || !(h > 0)) return null;
    return [Math.max(0, v - h), Math.min(100, v + h)];
  };
}

/** Each bar's interval low to high; bounds[datasetIndex][barIndex], null for none. */
export function intervalBounds(bounds: ReadonlyArray<ReadonlyArray<[number, number] | null>>): WhiskerBound {
  return (_, i, j) => bounds[i]?.[j] ?? null;
}

/** Draws whiskers from each bar's interval low to high (×100); bounds[datasetIndex][barIndex], null for none. */
export function intervalBarsPlugin(bounds: ReadonlyArray<ReadonlyArray<[number, number] | null>>): Plugin<'bar'> {
  return whiskersPlugin('intervalBars', intervalBounds(bounds));
}

/**
 * Bar sizing for grouped bars: bars at most `maxBarPx` wide and touching within a group. (chart.js centres a capped
 * bar in its slot, so a cap alone leaves wide gaps inside a group when there are few groups.)
 */
export function groupedBarSizing(
  groups: number,
  series: number,
  plotWidth: number,
  maxBarPx: number,
): { categoryPercentage: number; barPercentage: number } {
  const barPercentage = 0.92;
  const category = plotWidth / Math.max(1, groups);
  const slots = Math.max(1, series);
  const bar = Math.min(maxBarPx, (category * 0.8 * barPercentage) / slots);
  return { categoryPercentage: Math.min(0.8, (slots * bar) / barPercentage / category), barPercentage };
}

/** One series of grouped bars: its legend label, colour and one value (×100, null for none) per category. */
export interface BarSeries {
  label: string;
  color: string;
  data: Array<number | null>;
}

/** The chart.js datasets of grouped bars (no border, `groupedBarSizing`'s sizing) and the legend row naming them. */
export function groupedBars(
  series: readonly BarSeries[],
  sizing: { categoryPercentage: number; barPercentage: number },
) {
  return {
    datasets: series.map((s) => ({
      label: s.label,
      data: s.data,
      backgroundColor: s.color,
      borderWidth: 0,
      ...sizing,
    })) as ChartConfiguration<'bar'>['data']['datasets'],
    legend: series.map((s) => ({ label: s.label, color: s.color, box: { fill: s.color } })),
  };
}

/** The category (x) axis of grouped bars, at the tick size and rotation `categoryTicks` chose. */
export function categoryAxis(ticks: { size: number; maxRotation: number }) {
  return {
    ticks: {
      font: { size: ticks.size },
      minRotation: ticks.maxRotation,
      maxRotation: ticks.maxRotation,
      autoSkip: false,
      padding: 1,
    },
    grid: { display: false },
    border: { color: '#888888', width: 0.6 },
  };
}

/** The value axis' top for bars whose tallest is `top` (×100): 15% headroom, up to the next 10, within 10..100. */
export function barAxisMax(top: number): number {
  return Math.min(100, Math.max(10, Math.ceil((top * 1.15) / 10) * 10));
}

/** Category labels as drawn: their lines, or one line joined with ' · ' when rotated (rotated lines would overlap). */
export function categoryLabels(labels: string[][], ticks: { maxRotation: number }): Array<string[] | string> {
  return ticks.maxRotation > 0 ? labels.map((l) => l.join(' · ')) : labels;
}

/**
 * Extra figure height (pt) that upright category labels need beyond the room chart.js gives an axis, so long labels
 * are not cut at the bottom edge.
 */
export function uprightLabelHeight(labels: string[][], ticks: { size: number; maxRotation: number }, height: number) {
  if (ticks.maxRotation < 90) return 0;
  const widest = Math.max(0, ...categoryLabels(labels, ticks).map((l) => textWidth(String(l), ticks.size)));
  return Math.max(0, widest * 1.6 - height * 0.35);
}
