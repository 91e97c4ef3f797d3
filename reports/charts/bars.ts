// Shared pieces for grouped bar charts: value labels and binomial error whiskers.
import type { Chart, Plugin } from 'chart.js';
import { fmt2 } from '../format.js';
import { font } from './canvas.js';

/** Writes each bar's value (already ×100) above it when the bars are wide enough to hold the text. */
export function barValuesPlugin(px: number): Plugin<'bar'> {
  return {
    id: 'barValues',
    afterDatasetsDraw(chart: Chart<'bar'>) {
      const ctx = chart.ctx;
      ctx.save();
      ctx.font = font(px);
      ctx.fillStyle = '#222222';
      ctx.textAlign = 'center';
      ctx.textBaseline = 'bottom';
      chart.data.datasets.forEach((ds, i) => {
        const meta = chart.getDatasetMeta(i);
        if (meta.hidden) return;
        meta.data.forEach((bar, j) => {
          const v = ds.data[j];
          if (typeof v !== 'number') return;
          const label = String(Number(fmt2(v)));
          const { width } = bar.getProps(['width'], true) as { width: number };
          if (ctx.measureText(label).width > width * 1.6) return;
          ctx.fillText(label, bar.x, bar.y - 3);
        });
      });
      ctx.restore();
    },
  };
}

/** Draws ±half-width whiskers (same units as the data) on bars; halfWidths[datasetIndex][barIndex]. */
export function errorBarsPlugin(halfWidths: number[][]): Plugin<'bar'> {
  return {
    id: 'errorBars',
    afterDatasetsDraw(chart: Chart<'bar'>) {
      const ctx = chart.ctx;
      const y = chart.scales.y;
      ctx.save();
      ctx.strokeStyle = '#333333';
      ctx.lineWidth = 1.5;
      chart.data.datasets.forEach((ds, i) => {
        const meta = chart.getDatasetMeta(i);
        meta.data.forEach((bar, j) => {
          const v = ds.data[j];
          const h = halfWidths[i]?.[j];
          if (typeof v !== 'number' || h === undefined || !(h > 0)) return;
          const { width } = bar.getProps(['width'], true) as { width: number };
          const top = y.getPixelForValue(Math.min(100, v + h));
          const bottom = y.getPixelForValue(Math.max(0, v - h));
          const cap = Math.min(8, width * 0.25);
          ctx.beginPath();
          ctx.moveTo(bar.x, top); ctx.lineTo(bar.x, bottom);
          ctx.moveTo(bar.x - cap, top); ctx.lineTo(bar.x + cap, top);
          ctx.moveTo(bar.x - cap, bottom); ctx.lineTo(bar.x + cap, bottom);
          ctx.stroke();
        });
      });
      ctx.restore();
    },
  };
}
