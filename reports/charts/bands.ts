// 95% interval bands drawn under a chart.js line chart's datasets: a light fill in the series colour plus thin edge
// lines in that colour, so overlapping bands stay readable (each edge keeps its colour; the fills are faint enough
// not to turn grey). A series with a single point gets an error bar instead. The legend says what a band is.
import type { Chart, Plugin } from 'chart.js';
import { withAlpha } from './style.js';

export { withAlpha } from './style.js';

export interface BandPoint {
  /** Data x (the same value the line's point uses). */
  x: number;
  /** Data y of the interval's ends (the chart's y units, e.g. ×100). */
  low: number;
  high: number;
}

export interface Band {
  /** The line's colour, '#rrggbb'. */
  color: string;
  points: BandPoint[];
  /** Shift of a lone point's error bar in pt, so bars of several series at one x stay apart. */
  offsetPx?: number;
}

/** Error-bar offsets for `count` series: centred, `step` pt apart. */
export function dodge(index: number, count: number, step = 1.6): number {
  return (index - (count - 1) / 2) * step;
}

/** Fill opacity of one or two bands (fainter for three or four, none beyond: edges alone), and edge width (pt). */
export const BAND_FILL_ALPHA = 0.06;
export const BAND_EDGE_WIDTH = 0.55;

/** Draws each band before the lines and points, clipped to the plot area. */
export function intervalBandsPlugin(bands: Band[], options: { fillAlpha?: number; edgeWidth?: number } = {}): Plugin {
  const fillAlpha =
    options.fillAlpha ?? (bands.length <= 2 ? BAND_FILL_ALPHA : bands.length <= 4 ? BAND_FILL_ALPHA / 2 : 0);
  const edgeWidth = options.edgeWidth ?? BAND_EDGE_WIDTH;
  return {
    id: 'intervalBands',
    beforeDatasetsDraw(chart: Chart) {
      const { ctx, chartArea: area } = chart;
      const xs = chart.scales.x;
      const ys = chart.scales.y;
      if (!xs || !ys) return;
      ctx.save();
      ctx.beginPath();
      ctx.rect(area.left, area.top, area.right - area.left, area.bottom - area.top);
      ctx.clip();
      for (const band of bands) {
        const pts = [...band.points]
          .filter((p) => Number.isFinite(p.low) && Number.isFinite(p.high))
          .sort((a, b) => a.x - b.x)
          .map((p) => ({
            x: xs.getPixelForValue(p.x),
            low: ys.getPixelForValue(p.low),
            high: ys.getPixelForValue(p.high),
          }));
        if (pts.length === 0) continue;
        ctx.strokeStyle = withAlpha(band.color, 0.85);
        ctx.lineWidth = edgeWidth;
        ctx.setLineDash([]);
        if (pts.length === 1) {
          const p = pts[0];
          const x = p.x + (band.offsetPx ?? 0);
          const cap = 2;
          ctx.beginPath();
          ctx.moveTo(x, p.low);
          ctx.lineTo(x, p.high);
          ctx.moveTo(x - cap, p.low);
          ctx.lineTo(x + cap, p.low);
          ctx.moveTo(x - cap, p.high);
          ctx.lineTo(x + cap, p.high);
          ctx.stroke();
          continue;
        }
        ctx.beginPath();
        pts.forEach((p, i) => (i === 0 ? ctx.moveTo(p.x, p.high) : ctx.lineTo(p.x, p.high)));
        for (let i = pts.length - 1; i >= 0; i--) ctx.lineTo(pts[i].x, pts[i].low);
        ctx.closePath();
        if (fillAlpha > 0) {
          ctx.fillStyle = withAlpha(band.color, fillAlpha);
          ctx.fill();
        }
        for (const edge of ['high', 'low'] as const) {
          ctx.beginPath();
          pts.forEach((p, i) => (i === 0 ? ctx.moveTo(p.x, p[edge]) : ctx.lineTo(p.x, p[edge])));
          ctx.stroke();
        }
      }
      ctx.restore();
    },
  };
}
