// One colour and marker per method, the same in every figure of every report: a fixed table for the built-in methods,
// a stable hash of the name for any other; and one line dash per model of a report. Okabe–Ito colours (colour-blind
// safe; its pale yellow left out, as it vanishes on white).
import type { PointStyle } from 'chart.js';
import { shortModel } from '../labels.js';

export type MarkerShape = 'circle' | 'square' | 'triangle' | 'diamond' | 'triangle-down';

export interface MethodStyle {
  color: string;
  marker: MarkerShape;
}

export const OKABE_ITO = {
  blue: '#0072B2',
  vermillion: '#D55E00',
  green: '#009E73',
  orange: '#E69F00',
  sky: '#56B4E9',
  purple: '#CC79A7',
  black: '#000000',
} as const;

/** The built-in methods. */
export const KNOWN_METHOD_STYLES: Readonly<Record<string, MethodStyle>> = {
  memagent: { color: OKABE_ITO.blue, marker: 'circle' },
  'full-context': { color: OKABE_ITO.vermillion, marker: 'square' },
  rag: { color: OKABE_ITO.green, marker: 'triangle' },
  infmem: { color: OKABE_ITO.orange, marker: 'diamond' },
  rememr1: { color: OKABE_ITO.sky, marker: 'triangle-down' },
  'chain-of-agents': { color: OKABE_ITO.purple, marker: 'diamond' },
  refine: { color: OKABE_ITO.orange, marker: 'square' },
  'map-reduce': { color: OKABE_ITO.sky, marker: 'circle' },
  compress: { color: OKABE_ITO.purple, marker: 'triangle' },
};

// Other methods: one of these colours × one of these shapes (the 15 pairs less the built-in methods' 6; black is
// left out, since its interval band would be the grey that paper curves and overlaps already use).
const HASH_COLORS = [OKABE_ITO.orange, OKABE_ITO.sky, OKABE_ITO.purple];
const HASH_MARKERS: MarkerShape[] = ['diamond', 'triangle-down', 'circle', 'square', 'triangle'];
/** The colour × shape pairs no built-in method has, in a fixed order. */
const HASH_STYLES: MethodStyle[] = HASH_MARKERS.flatMap((marker) =>
  HASH_COLORS.map((color) => ({ color, marker })),
).filter((s) => !Object.values(KNOWN_METHOD_STYLES).some((k) => k.color === s.color && k.marker === s.marker));

/** FNV-1a over the name's UTF-16 code units: the same number on every machine and run. */
export function nameHash(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** The method's colour and marker: the table's for built-in methods, else a hash of the name picks them. */
export function methodStyle(method: string): MethodStyle {
  const known = KNOWN_METHOD_STYLES[method];
  if (known) return known;
  const slot = nameHash(method) % HASH_STYLES.length;
  return HASH_STYLES[slot];
}

/** Line dashes (pt) for the models of a chart, in the order modelDashes hands them out: solid first. */
export const MODEL_DASHES: number[][] = [[], [4, 2], [1.2, 1.6], [5, 1.5, 1.2, 1.5]];

/**
 * One dash per model: the reference reader (or, without it, the first model by name) solid, the others by name.
 * With one model every line is solid.
 */
export function modelDashes(models: Iterable<string>, isReference: (model: string) => boolean = () => false) {
  const sorted = [...new Set(models)].sort((a, b) =>
    isReference(a) !== isReference(b) ? (isReference(a) ? -1 : 1) : a < b ? -1 : a > b ? 1 : 0,
  );
  return new Map(sorted.map((m, i) => [m, MODEL_DASHES[i % MODEL_DASHES.length]]));
}

/** Paper curves: thin dashed grey lines, one grey and shape per published model (in the table's order). */
export const PAPER_GREYS = ['#4D4D4D', '#8C8C8C', '#B8B8B8'];
const PAPER_MARKERS: MarkerShape[] = ['square', 'triangle', 'diamond', 'circle', 'triangle-down'];
export const PAPER_DASH = [3, 1.8];

export function paperStyle(index: number): MethodStyle {
  return {
    color: PAPER_GREYS[index % PAPER_GREYS.length],
    marker: PAPER_MARKERS[Math.floor(index / PAPER_GREYS.length) % PAPER_MARKERS.length],
  };
}

/** Marker radius in pt for a base radius, so that every shape looks about as large as the circle. */
export function markerRadius(shape: MarkerShape, base: number): number {
  return base * (shape === 'circle' ? 1 : shape === 'square' ? 1.25 : shape === 'diamond' ? 1.3 : 1.35);
}

/** chart.js point options for a marker shape. */
export function chartJsMarker(shape: MarkerShape): { pointStyle: PointStyle; rotation: number } {
  switch (shape) {
    case 'circle':
      return { pointStyle: 'circle', rotation: 0 };
    case 'square':
      return { pointStyle: 'rect', rotation: 0 };
    case 'triangle':
      return { pointStyle: 'triangle', rotation: 0 };
    case 'triangle-down':
      return { pointStyle: 'triangle', rotation: 180 };
    case 'diamond':
      return { pointStyle: 'rectRot', rotation: 0 };
  }
}

/** '#rrggbb' → 'rgba(r, g, b, alpha)'. */
export function withAlpha(hex: string, alpha: number): string {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) return hex;
  return `rgba(${parseInt(m[1], 16)}, ${parseInt(m[2], 16)}, ${parseInt(m[3], 16)}, ${alpha})`;
}

/** '#rrggbb' mixed with white: t = 0 is the colour, 1 white (opaque, so overlapping tints never turn grey). */
export function tint(hex: string, t: number): string {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) return hex;
  const mix = (v: string) =>
    Math.round(parseInt(v, 16) + (255 - parseInt(v, 16)) * t)
      .toString(16)
      .padStart(2, '0');
  return `#${mix(m[1])}${mix(m[2])}${mix(m[3])}`.toUpperCase();
}

/** Bar fills per model (models ordered as modelDashes orders them): the method's colour, then lighter tints. */
export const MODEL_TINTS = [0, 0.5, 0.78];

export function modelTints(models: Iterable<string>, isReference: (model: string) => boolean = () => false) {
  const order = [...modelDashes(models, isReference).keys()];
  return new Map(order.map((m, i) => [m, MODEL_TINTS[i % MODEL_TINTS.length]]));
}

/** A model's name in legends and group labels: shortModel's, the reference reader without its note (the subtitle and
 *  caption carry it). */
export function legendModel(modelId: string, isReferenceReader?: boolean): string {
  return shortModel(modelId, isReferenceReader).replace(` (not an LLM)`, '');
}
