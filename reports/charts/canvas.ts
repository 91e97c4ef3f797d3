// Headless chart.js on @napi-rs/canvas: component registration, fonts, sizes, white background, PNG encoding.
import { createCanvas, GlobalFonts, type Canvas, type SKRSContext2D } from '@napi-rs/canvas';
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  LogarithmicScale,
  PointElement,
  SubTitle,
  Title,
  type ChartConfiguration,
  type Plugin,
} from 'chart.js';
import type { ChartSize, ChartSizeName } from '../../harness/report/facet.js';

Chart.register(
  LineController,
  LineElement,
  PointElement,
  BarController,
  BarElement,
  LinearScale,
  LogarithmicScale,
  CategoryScale,
  Legend,
  Title,
  SubTitle,
);

export type { ChartSize, ChartSizeName } from '../../harness/report/facet.js';

/** paper: 3.5 in × 2.33 in at 300 ppi (one column); slide: 16:9. */
export const CHART_SIZES: Record<ChartSizeName, ChartSize> = {
  paper: { name: 'paper', width: 1050, height: 700, ppi: 300, font: 22 },
  slide: { name: 'slide', width: 1600, height: 900, ppi: 144, font: 24 },
};

export const FONT_FAMILY = "'DejaVu Sans', 'Liberation Sans', Arial, Helvetica, sans-serif";

let fontsChecked = false;

/** Skia reads system fonts; without any, text silently disappears, so say how to fix it once. */
export function ensureFonts(warn: (m: string) => void = (m) => process.stderr.write(`warning: ${m}\n`)): void {
  if (fontsChecked) return;
  fontsChecked = true;
  if (GlobalFonts.families.length === 0) {
    for (const dir of ['/usr/share/fonts', '/usr/local/share/fonts', '/System/Library/Fonts', 'C:\\Windows\\Fonts'])
      GlobalFonts.loadFontsFromDir(dir);
  }
  if (GlobalFonts.families.length === 0)
    warn('no fonts found: chart text will be missing (Debian/Ubuntu: apt-get install fonts-dejavu-core)');
}

// Okabe-Ito (without its pale yellow) then darker extras: distinct on white and in greyscale-ish print.
export const PALETTE = [
  '#0072B2',
  '#D55E00',
  '#009E73',
  '#CC79A7',
  '#E69F00',
  '#56B4E9',
  '#000000',
  '#7F3C8D',
  '#8C564B',
  '#666666',
  '#B22222',
  '#17BECF',
];

export function colorAt(i: number): string {
  return PALETTE[i % PALETTE.length];
}

const whiteBackground: Plugin = {
  id: 'whiteBackground',
  beforeDraw(chart) {
    const ctx = chart.ctx;
    ctx.save();
    ctx.globalCompositeOperation = 'destination-over';
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, chart.width, chart.height);
    ctx.restore();
  },
};

/** The footnote's lines: parts separated by "; " fill a line up to `width` px, then wrap. */
export function footnoteLines(text: string, px: number, width: number): string[] {
  if (!text) return [];
  const lines: string[] = [];
  for (const part of text.split('; ')) {
    const last = lines.length - 1;
    if (last >= 0 && textWidth(`${lines[last]}; ${part}`, px) <= width) lines[last] = `${lines[last]}; ${part}`;
    else lines.push(part);
  }
  return lines;
}

/** Bottom padding (px) that leaves room for the footnote's lines at chart width `chartWidth`. */
export function footnotePadding(text: string, px: number, chartWidth: number): number {
  return Math.round(Math.max(1, footnoteLines(text, px, chartWidth - 16).length) * px * 1.25 + px * 0.35);
}

/** Draws small grey text at the bottom left, wrapped at "; " (chart.js has a single subtitle, used at the top). */
export function footnotePlugin(text: string, px: number): Plugin {
  return {
    id: 'footnote',
    afterDraw(chart) {
      const lines = footnoteLines(text, px, chart.width - 16);
      if (lines.length === 0) return;
      const ctx = chart.ctx;
      ctx.save();
      ctx.font = font(px);
      ctx.fillStyle = '#555555';
      ctx.textBaseline = 'bottom';
      ctx.textAlign = 'left';
      lines.forEach((line, i) =>
        ctx.fillText(line, 8, chart.height - 4 - (lines.length - 1 - i) * px * 1.25, chart.width - 16),
      );
      ctx.restore();
    },
  };
}

export function encodePng(canvas: Canvas, size: ChartSize, title: string): Buffer {
  return canvas.toBuffer('image/png', { resolution: size.ppi, title, software: 'memagent-bench' });
}

/** Renders a chart.js configuration to PNG bytes at the given size. */
export function renderChartJs(config: ChartConfiguration, size: ChartSize, title: string): Buffer {
  ensureFonts();
  const canvas = createCanvas(size.width, size.height);
  Chart.defaults.font.family = FONT_FAMILY;
  Chart.defaults.font.size = size.font;
  Chart.defaults.color = '#222222';
  const full: ChartConfiguration = {
    ...config,
    options: { ...config.options, responsive: false, animation: false, devicePixelRatio: 1 },
    plugins: [...(config.plugins ?? []), whiteBackground],
  };
  // chart.js only needs getContext('2d') and width/height from a canvas outside the DOM.
  const chart = new Chart(canvas as unknown as HTMLCanvasElement, full);
  try {
    return encodePng(canvas, size, title);
  } finally {
    chart.destroy();
  }
}

/** A blank white canvas with fonts ready, for charts drawn directly (the heatmap). */
export function blankCanvas(size: ChartSize): { canvas: Canvas; ctx: SKRSContext2D } {
  ensureFonts();
  const canvas = createCanvas(size.width, size.height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, size.width, size.height);
  return { canvas, ctx };
}

let measureCtx: SKRSContext2D | null = null;

/** Width in px of text drawn in the chart font at px size. */
export function textWidth(text: string, px: number): number {
  ensureFonts();
  measureCtx ??= createCanvas(1, 1).getContext('2d');
  measureCtx.font = font(px);
  return measureCtx.measureText(text).width;
}

export function font(px: number, weight: 'normal' | 'bold' = 'normal'): string {
  return `${weight} ${Math.round(px)}px ${FONT_FAMILY}`;
}
