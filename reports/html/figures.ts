// The Charts section of report.html: each chart embedded whole (a data: URI of the very file written beside the
// report, never a smaller copy), an SVG in preference to a PNG when the chart has one, shown no wider than its own
// pixels, and opened at full size by a click (the page's script) or in a new tab from its file (without scripts).
import { escapeHtml } from './escape.js';

/** A chart embedded in the page (reports/charts writes them; this module only needs these fields). */
export interface EmbeddedChart {
  title: string;
  /** File name relative to the output directory (charts/…png). */
  name: string;
  png?: Buffer;
  /** The same chart as SVG, when it was written as one: embedded instead of the PNG (crisp at any zoom). */
  svg?: Buffer | string;
  /** The SVG's file name relative to the output directory (charts/…svg); default: `name` with .svg. */
  svgName?: string;
  /** The chart's notes (a caption file's text), shown under it. */
  caption?: string;
}

interface Size {
  width: number;
  height: number;
}

/** A PNG's pixel size from its IHDR chunk; null when the bytes are no PNG. */
export function pngSize(png: Buffer): Size | null {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (png.length < 24 || signature.some((b, i) => png[i] !== b)) return null;
  if (png.subarray(12, 16).toString('latin1') !== 'IHDR') return null;
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

const CSS_PX: Record<string, number> = { '': 1, px: 1, pt: 96 / 72, pc: 16, in: 96, cm: 96 / 2.54, mm: 96 / 25.4 };

/** An SVG's size in CSS px from its root width/height (absolute units), else its viewBox; null when neither says. */
export function svgSize(svg: string): Size | null {
  const root = /<svg\b[^>]*>/i.exec(svg)?.[0];
  if (!root) return null;
  const attr = (name: string) => new RegExp(`\\s${name}\\s*=\\s*["']([^"']*)["']`, 'i').exec(root)?.[1]?.trim();
  const length = (value: string | undefined) => {
    const m = /^([\d.]+)\s*(px|pt|pc|in|cm|mm)?$/i.exec(value ?? '');
    return m ? Number(m[1]) * (CSS_PX[(m[2] ?? '').toLowerCase()] ?? NaN) : NaN;
  };
  const width = length(attr('width'));
  const height = length(attr('height'));
  if (width > 0 && height > 0) return { width: Math.round(width), height: Math.round(height) };
  const box = (attr('viewBox') ?? '').split(/[\s,]+/).map(Number);
  return box.length === 4 && box[2] > 0 && box[3] > 0
    ? { width: Math.round(box[2]), height: Math.round(box[3]) }
    : null;
}

interface Embedded {
  src: string;
  href: string;
  size: Size | null;
  /** Width (CSS px) in the full-size view: a PNG's own pixels; 0 for an SVG (fills the window). */
  fullWidth: number;
}

function embedded(c: EmbeddedChart): Embedded | null {
  if (c.svg !== undefined) {
    const text = typeof c.svg === 'string' ? c.svg : c.svg.toString('utf8');
    return {
      src: `data:image/svg+xml;base64,${Buffer.from(text, 'utf8').toString('base64')}`,
      href: c.svgName ?? c.name.replace(/\.png$/i, '.svg'),
      size: svgSize(text),
      fullWidth: 0,
    };
  }
  if (c.png === undefined) return null;
  const size = pngSize(c.png);
  return { src: `data:image/png;base64,${c.png.toString('base64')}`, href: c.name, size, fullWidth: size?.width ?? 0 };
}

function figureHtml(c: EmbeddedChart): string {
  const e = embedded(c);
  if (!e) return '';
  const dims = e.size ? ` width="${e.size.width}" height="${e.size.height}"` : '';
  const img = `<img alt="${escapeHtml(c.title)}" src="${e.src}"${dims} data-full-width="${e.fullWidth}">`;
  const caption = c.caption ? `<div class="caption">${escapeHtml(c.caption)}</div>` : '';
  const size = e.size && e.fullWidth ? ` (${e.size.width}×${e.size.height} px)` : '';
  return (
    `<figure class="chart"><a class="zoom" href="${escapeHtml(e.href)}" target="_blank" rel="noopener" ` +
    `title="open at full size">${img}</a><figcaption>${escapeHtml(c.title)} — <code>${escapeHtml(e.href)}</code>` +
    `${size}; click the figure for full size.${caption}</figcaption></figure>`
  );
}

/** The Charts section's body, and the full-size view its figures open in. */
export function chartsHtml(charts: EmbeddedChart[]): string {
  const figures = charts.map(figureHtml).filter(Boolean);
  if (figures.length === 0) return '<p>No charts for these runs.</p>';
  return (
    `${figures.join('\n')}\n` +
    '<div id="lightbox" hidden tabindex="-1" role="dialog" aria-label="figure at full size; click or Escape to close">' +
    '<img alt=""></div>'
  );
}
