// 95% interval bands with error bars, drawn under a chart.js line chart's datasets (no chart.js Filler needed, and
// nothing added to the legend: the footnote says what the shading is).
import type { Chart, Plugin } from 'chart.js';

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
  /** Shift of the error bars in px (the band stays at the true x), so bars of several series at one x stay apart. */
  offsetPx?: number;
}

/** Error-bar offsets for `count` series: centred, `stepPx` apart. */
export function dodge(index: number, count: number, stepPx = 7): number {
  return (index - (count - 1) / 2) * stepPx;
}

/** '#rrggbb' → 'rgba(r, g, b, alpha)'. */
export function withAlpha(hex: string, alpha: number): string {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) return hex;
  return `rgba(${parseInt(m[1], 16)}, ${parseInt(m[2], 16)}, ${parseInt(m[3], 16)}, ${alpha})`;
}

/**
 * Draws each band as a translucent area between its lows and highs (points joined in x order, as the line is), and
 * an error bar with caps at every point, before the lines and points are drawn; clipped to the plot area.
 */
export function intervalBandsPlugin(
  bands: Band[],
  options: { fillAlpha?: number; capPx?: number; lineWidth?: number } = {},
): Plugin {
  const fillAlpha = options.fillAlpha ?? 0.14;
  const cap = options.capPx ?? 6;
  const lineWidth = options.lineWidth ?? 2;
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
        if (pts.length > 1) {
          ctx.beginPath();
          pts.forEach((p, i) => (i === 0 ? ctx.moveTo(p.x, p.high) : ctx.lineTo(p.x, p.high)));
          for (let i = pts.length - 1; i >= 0; i--) ctx.lineTo(pts[i].x, pts[i].low);
          ctx.closePath();
          ctx.fillStyle = withAlpha(band.color, fillAlpha);
          ctx.fill();
        }
        ctx.strokeStyle = withAlpha(band.color, 0.85);
        ctx.lineWidth = lineWidth;
        for (const q of pts) {
          const p = { ...q, x: q.x + (band.offsetPx ?? 0) };
          ctx.beginPath();
          ctx.moveTo(p.x, p.low);
          ctx.lineTo(p.x, p.high);
          ctx.moveTo(p.x - cap, p.low);
          ctx.lineTo(p.x + cap, p.low);
          ctx.moveTo(p.x - cap, p.high);
          ctx.lineTo(p.x + cap, p.high);
          ctx.stroke();
        }
      }
      ctx.restore();
    },
  };
}
