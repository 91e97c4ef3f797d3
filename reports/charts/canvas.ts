// Headless chart.js on @napi-rs/canvas at print size: sizes in points, fonts, a white background, and one surface per
// format: PNG (a raster canvas scaled ppi/72), SVG (Skia's SVG canvas, text kept as text) and PDF (Skia's PDF
// document, one page). Every chart lays itself out in points, so all three come out alike.
import {
  createCanvas,
  GlobalFonts,
  PDFDocument,
  SvgExportFlag,
  type Canvas,
  type SKRSContext2D,
} from '@napi-rs/canvas';
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  LinearScale,
  LineController,
  LineElement,
  LogarithmicScale,
  PointElement,
  type ChartConfiguration,
  type Plugin,
} from 'chart.js';
import {
  DEFAULT_DPI,
  type ChartFormat,
  type ChartOutput,
  type ChartSize,
  type ChartSizeName,
} from '../../harness/report/facet.js';

// chart.js's Title and Legend are not registered: frame.ts draws both, at print sizes.
Chart.register(
  LineController,
  LineElement,
  PointElement,
  BarController,
  BarElement,
  LinearScale,
  LogarithmicScale,
  CategoryScale,
);

export type { ChartFormat, ChartOutput, ChartSize, ChartSizeName } from '../../harness/report/facet.js';

export const CHART_FORMATS: readonly ChartFormat[] = ['png', 'svg', 'pdf'];

/**
 * single: 3.25 × 2.5 in; double: 6.75 × 3 in; both 300 ppi as PNG, 8 pt text (titles 9 pt). Heights are multiples
 * of 6 pt, so a PNG's pixels are whole at 300 ppi.
 */
const SIZES: Record<ChartSizeName, ChartSize> = {
  single: { name: 'single', width: 234, height: 180, ppi: DEFAULT_DPI, font: 8 },
  double: { name: 'double', width: 486, height: 216, ppi: DEFAULT_DPI, font: 8 },
};

/**
 * single: 3.25 × 2.5 in; double: 6.75 × 3 in; both 300 ppi as PNG, 8 pt text (titles 9 pt). Heights are multiples
 * of 6 pt, so a PNG's pixels are whole at 300 ppi. `paper` and `slide` (the older names; not listed by
 * Object.values) stand for single and double.
 */
export const CHART_SIZES = SIZES as Record<ChartSizeName, ChartSize> & {
  /** @deprecated the older name of `single` */
  readonly paper: ChartSize;
  /** @deprecated the older name of `double` */
  readonly slide: ChartSize;
};
Object.defineProperty(CHART_SIZES, 'paper', { value: SIZES.single, enumerable: false });
Object.defineProperty(CHART_SIZES, 'slide', { value: SIZES.double, enumerable: false });

/** What a plain render gives: a PNG with its title drawn. */
export const DEFAULT_OUTPUT: ChartOutput = { format: 'png', title: true };

/** The size at another PNG resolution (--dpi); the layout in points, and so the SVG and PDF, stay the same. */
export function atDpi(size: ChartSize, dpi: number | undefined): ChartSize {
  return dpi === undefined || dpi === size.ppi ? size : { ...size, ppi: dpi };
}

/** PNG pixels of a chart `height` pt tall (default the size's). */
export function pixelSize(size: ChartSize, height = size.height): { width: number; height: number } {
  const scale = size.ppi / 72;
  return { width: Math.floor(size.width * scale + 1e-6), height: Math.floor(height * scale + 1e-6) };
}

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

/** A canvas font string for `pt` points (layout units are points). */
export function font(pt: number, weight: 'normal' | 'bold' = 'normal'): string {
  return `${weight} ${Number(pt.toFixed(2))}px ${FONT_FAMILY}`;
}

let measureCtx: SKRSContext2D | null = null;

/** Width in pt of text drawn in the chart font at `pt` points. */
export function textWidth(text: string, pt: number, weight: 'normal' | 'bold' = 'normal'): number {
  ensureFonts();
  measureCtx ??= createCanvas(1, 1).getContext('2d');
  measureCtx.font = font(pt, weight);
  return measureCtx.measureText(text).width;
}

/** Words of `text` in lines no wider than `width` pt. */
export function wrapText(text: string, pt: number, width: number, weight: 'normal' | 'bold' = 'normal'): string[] {
  const lines: string[] = [];
  for (const word of text.split(' ')) {
    const last = lines.length - 1;
    if (last >= 0 && textWidth(`${lines[last]} ${word}`, pt, weight) <= width) lines[last] = `${lines[last]} ${word}`;
    else lines.push(word);
  }
  return lines;
}

const FALLBACK_FONTS = "'Liberation Sans', Arial, Helvetica, sans-serif";

function inches(pt: number): string {
  return String(Number((pt / 72).toFixed(4)));
}

/**
 * Skia's SVG in print units: width/height in inches with a viewBox in points (unitless SVG lengths are CSS pixels,
 * 1/96 in, which would print text 25% small), a fallback after the embedded font's name, and glyph position lists
 * without their trailing comma.
 */
export function printSizedSvg(svg: Buffer, width: number, height: number): Buffer {
  const text = svg
    .toString('utf8')
    .replace(
      /<svg ([^>]*?)width="[^"]*" height="[^"]*"/,
      `<svg $1width="${inches(width)}in" height="${inches(height)}in" viewBox="0 0 ${width} ${height}"`,
    )
    .replace(/ font-family="([^"]*)"/g, (_, f: string) => ` font-family="${f}, ${FALLBACK_FONTS}"`)
    .replace(/ (x|y)="([^"]*?),\s*"/g, ' $1="$2"');
  return Buffer.from(text, 'utf8');
}

/** A drawing surface in points for one format; `finish` returns the file's bytes (and ends the surface). */
export interface Surface {
  ctx: SKRSContext2D;
  finish(): Buffer;
}

/** A white surface `height` pt tall (default the size's) for charts drawn directly on the context (the heatmap). */
export function openSurface(size: ChartSize, format: ChartFormat, title: string, height = size.height): Surface {
  ensureFonts();
  const { width } = size;
  let surface: Surface;
  if (format === 'png') {
    const px = pixelSize(size, height);
    const canvas = createCanvas(px.width, px.height);
    const ctx = canvas.getContext('2d');
    ctx.scale(size.ppi / 72, size.ppi / 72);
    surface = { ctx, finish: () => encodePng(canvas, size, title) };
  } else if (format === 'svg') {
    const canvas = createCanvas(width, height, SvgExportFlag.NoPrettyXML);
    surface = { ctx: canvas.getContext('2d'), finish: () => printSizedSvg(canvas.getContent(), width, height) };
  } else {
    const doc = new PDFDocument({ title, creator: 'memagent-bench' });
    const ctx = doc.beginPage(width, height) as unknown as SKRSContext2D;
    surface = {
      ctx,
      finish: () => {
        doc.endPage();
        return doc.close();
      },
    };
  }
  surface.ctx.fillStyle = '#ffffff';
  surface.ctx.fillRect(0, 0, width, height);
  return surface;
}

/** Draws a chart directly on a context in points and returns the file in `output.format`. */
export function drawFigure(
  size: ChartSize,
  output: ChartOutput,
  title: string,
  draw: (ctx: SKRSContext2D) => void,
  height = size.height,
): Buffer {
  const surface = openSurface(size, output.format, title, height);
  draw(surface.ctx);
  return surface.finish();
}

const whiteBackground: Plugin = {
  id: 'whiteBackground',
  beforeDraw(chart) {
    const ctx = chart.ctx;
    ctx.save();
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, chart.width, chart.height);
    ctx.restore();
  },
};

/** Renders a chart.js configuration (laid out in points) in `output.format`, `height` pt tall. */
export function renderChartJs(
  config: ChartConfiguration,
  size: ChartSize,
  output: ChartOutput,
  title: string,
  height = size.height,
): Buffer {
  ensureFonts();
  Chart.defaults.font.family = FONT_FAMILY;
  Chart.defaults.font.size = size.font;
  Chart.defaults.color = '#222222';
  // chart.js only needs getContext('2d'), width and height from a canvas outside the DOM, and finds it from the
  // context (ctx.canvas): Skia's PDF page context has none, so it gets a stand-in.
  let target: unknown;
  let pixelRatio = 1;
  let finish: () => Buffer;
  let page: PDFDocument | null = null;
  if (output.format === 'png') {
    const canvas = createCanvas(size.width, height);
    pixelRatio = size.ppi / 72;
    target = canvas;
    finish = () => encodePng(canvas, size, title);
  } else if (output.format === 'svg') {
    const canvas = createCanvas(size.width, height, SvgExportFlag.NoPrettyXML);
    target = canvas;
    finish = () => printSizedSvg(canvas.getContent(), size.width, height);
  } else {
    page = new PDFDocument({ title, creator: 'memagent-bench' });
    const ctx = page.beginPage(size.width, height);
    const standIn = { width: size.width, height, getContext: () => ctx };
    Object.defineProperty(ctx, 'canvas', { value: standIn, configurable: true });
    target = standIn;
    const doc = page;
    finish = () => {
      doc.endPage();
      return doc.close();
    };
  }
  const full: ChartConfiguration = {
    ...config,
    options: { ...config.options, responsive: false, animation: false, devicePixelRatio: pixelRatio },
    plugins: [whiteBackground, ...(config.plugins ?? [])],
  };
  const chart = new Chart(target as HTMLCanvasElement, full);
  // Destroying clears the canvas: a PDF page is finished first (its drawing is recorded), a raster or SVG after.
  if (page) {
    const bytes = finish();
    chart.destroy();
    return bytes;
  }
  try {
    return finish();
  } finally {
    chart.destroy();
  }
}

/** PNG bytes of a raster canvas, with the size's ppi (pHYs) and the chart's title in its metadata. */
export function encodePng(canvas: Canvas, size: ChartSize, title: string): Buffer {
  return canvas.toBuffer('image/png', { resolution: size.ppi, title, software: 'memagent-bench' });
}

/**
 * The older entry point, PNG only: a white raster canvas of the size's pixels, its context scaled so that drawing is
 * in points. Encode it with encodePng. New charts use drawFigure, which also gives SVG and PDF.
 */
export function blankCanvas(size: ChartSize): { canvas: Canvas; ctx: SKRSContext2D } {
  ensureFonts();
  const px = pixelSize(size);
  const canvas = createCanvas(px.width, px.height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, px.width, px.height);
  ctx.scale(size.ppi / 72, size.ppi / 72);
  return { canvas, ctx };
}
