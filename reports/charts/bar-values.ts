// Where the value labels of a bar chart go: each above its bar or, when the bar has one, above its whisker's top
// cap (never through it). Upright text first; where upright labels would touch one another, another bar, a whisker
// or leave the plot, every label turns 90° (reading upwards); where that does not fit either, none is drawn (all or
// none, so a missing number never reads as a missing bar). All in points.
import { overlap, type Box } from './point-labels.js';

export interface ValueBar {
  /** Centre and width of the bar. */
  x: number;
  width: number;
  /** Top and bottom of the bar (y grows downwards). */
  top: number;
  bottom: number;
  /** The whisker's top and bottom, when the bar has one. */
  whisker?: { top: number; bottom: number; cap: number };
  text: string;
}

export interface PlacedValue {
  text: string;
  /** Where the text's centre-bottom is (upright), or its centre-left on the baseline's side (rotated). */
  x: number;
  y: number;
  box: Box;
}

export interface BarValueLayout {
  rotated: boolean;
  labels: PlacedValue[];
}

export interface BarValueOptions {
  /** Where labels may go. */
  area: Box;
  /** Font size (pt): the height of an upright label, the width of a rotated one. */
  height: number;
  measure: (text: string) => number;
  /** Space between a bar (or its whisker cap) and its label. Default 1.5. */
  gap?: number;
  /** Space a label keeps from other labels and marks. Default a fifth of the height. */
  pad?: number;
}

/** The boxes of a bar and its whisker (the marks a label must keep clear of). */
function marks(b: ValueBar): Box[] {
  const bar = { left: b.x - b.width / 2, right: b.x + b.width / 2, top: b.top, bottom: b.bottom };
  if (!b.whisker) return [bar];
  const { top, bottom, cap } = b.whisker;
  return [bar, { left: b.x - Math.max(cap, 0.4), right: b.x + Math.max(cap, 0.4), top, bottom }];
}

function inside(a: Box, area: Box): boolean {
  return a.left >= area.left - 1e-6 && a.right <= area.right + 1e-6 && a.top >= area.top - 1e-6;
}

function tryLayout(bars: readonly ValueBar[], opts: BarValueOptions, rotated: boolean): PlacedValue[] | null {
  const h = opts.height;
  const gap = opts.gap ?? 1.5;
  const pad = opts.pad ?? h * 0.2;
  const labels = bars.map((b): PlacedValue => {
    const anchor = Math.min(b.top, b.whisker?.top ?? Infinity) - gap;
    const w = opts.measure(b.text);
    const [across, up] = rotated ? [h, w] : [w, h];
    return {
      text: b.text,
      x: b.x,
      y: anchor,
      box: { left: b.x - across / 2, right: b.x + across / 2, top: anchor - up, bottom: anchor },
    };
  });
  const all = bars.flatMap(marks);
  for (const [i, l] of labels.entries()) {
    if (!inside(l.box, opts.area)) return null;
    const padded = { left: l.box.left - pad, right: l.box.right + pad, top: l.box.top - pad, bottom: l.box.bottom };
    if (all.some((m) => overlap(l.box, m) > 0)) return null;
    if (labels.some((o, j) => j !== i && overlap(padded, o.box) > 0)) return null;
  }
  return labels;
}

/** The value labels of `bars`: upright, else all rotated, else none (`labels` empty). */
export function placeBarValues(bars: readonly ValueBar[], opts: BarValueOptions): BarValueLayout {
  const upright = tryLayout(bars, opts, false);
  if (upright) return { rotated: false, labels: upright };
  const rotated = tryLayout(bars, opts, true);
  return rotated ? { rotated: true, labels: rotated } : { rotated: false, labels: [] };
}
