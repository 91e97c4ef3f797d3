// Labels beside the points of a scatter (the cost chart's lengths) that never print over each other: markers that
// overlap form one cluster with one label (its points' distinct texts); each label takes the first free spot of a
// ring of candidates around its cluster (right, left, above, below, the corners), then of wider rings with a leader
// line back to the cluster; where no spot is free it takes the one that overlaps least. All in points.

export interface LabelPoint {
  x: number;
  y: number;
  /** Marker radius. */
  r: number;
  text: string;
  /** Room its label keeps beyond the cluster's markers (for a ring drawn round them). Default 0. */
  keepOut?: number;
}

export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Points whose markers overlap, with their one label. */
export interface PointCluster {
  /** Indexes into the points handed in, in their order. */
  members: number[];
  x: number;
  y: number;
  /** Radius of a circle around every member's marker. */
  r: number;
  /** The largest keepOut of its points. */
  keepOut: number;
  text: string;
}

export interface PlacedLabel {
  cluster: PointCluster;
  /** The label's box (text drawn left-aligned, vertically centred in it). */
  box: Box;
  /** From the cluster's edge to the label, when the label stands off its ring. */
  leader?: { x1: number; y1: number; x2: number; y2: number };
  /** False when no spot was free (the least-overlapping one was taken). */
  clear: boolean;
}

export interface LabelLayoutOptions {
  /** Where labels may go (the plot area). */
  area: Box;
  /** Text height (the font size in pt). */
  height: number;
  measure: (text: string) => number;
  /** Space between a marker and its label. Default 1.5. */
  gap?: number;
  /** Space kept between a label and other labels or markers. Default a quarter of the height. */
  pad?: number;
  /** Lines drawn on the plot (the cost chart's Pareto front) that a label should not cross. */
  lines?: readonly Segment[];
}

export interface Segment {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/** The length of segment `s` inside box `b` (Liang–Barsky clipping); 0 when it misses the box. */
export function segmentInside(s: Segment, b: Box): number {
  const dx = s.x2 - s.x1;
  const dy = s.y2 - s.y1;
  let t0 = 0;
  let t1 = 1;
  const edges: Array<[number, number]> = [
    [-dx, s.x1 - b.left],
    [dx, b.right - s.x1],
    [-dy, s.y1 - b.top],
    [dy, b.bottom - s.y1],
  ];
  for (const [p, q] of edges) {
    if (p === 0) {
      if (q < 0) return 0;
      continue;
    }
    const t = q / p;
    if (p < 0) t0 = Math.max(t0, t);
    else t1 = Math.min(t1, t);
    if (t0 > t1) return 0;
  }
  return (t1 - t0) * Math.hypot(dx, dy);
}

/** Clusters of points whose markers touch or overlap (single-linkage), in the order of their first member. */
export function clusterPoints(points: readonly LabelPoint[]): PointCluster[] {
  const parent = points.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  for (let i = 0; i < points.length; i++)
    for (let j = i + 1; j < points.length; j++) {
      const a = points[i];
      const b = points[j];
      if (Math.hypot(a.x - b.x, a.y - b.y) < a.r + b.r) parent[find(j)] = find(i);
    }
  const groups = new Map<number, number[]>();
  points.forEach((_, i) => groups.set(find(i), [...(groups.get(find(i)) ?? []), i]));
  return [...groups.values()]
    .sort((a, b) => a[0] - b[0])
    .map((members) => {
      const ps = members.map((i) => points[i]);
      const x = ps.reduce((s, p) => s + p.x, 0) / ps.length;
      const y = ps.reduce((s, p) => s + p.y, 0) / ps.length;
      const r = Math.max(...ps.map((p) => Math.hypot(p.x - x, p.y - y) + p.r));
      const keepOut = Math.max(...ps.map((p) => p.keepOut ?? 0));
      return { members, x, y, r, keepOut, text: [...new Set(ps.map((p) => p.text))].join(', ') };
    });
}

/** The area two boxes share (0 when apart or touching). */
export function overlap(a: Box, b: Box): number {
  const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
  const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
  return w > 0 && h > 0 ? w * h : 0;
}

function inflate(b: Box, by: number): Box {
  return { left: b.left - by, top: b.top - by, right: b.right + by, bottom: b.bottom + by };
}

function outside(a: Box, area: Box): number {
  const inner = overlap(a, area);
  return (a.right - a.left) * (a.bottom - a.top) - inner;
}

/** The box of a label `w` × `h` whose nearest edge is `d` from (x, y) in direction (dx, dy) ∈ {-1, 0, 1}². */
function boxAt(x: number, y: number, dx: number, dy: number, d: number, w: number, h: number): Box {
  const cx = x + dx * (d + w / 2);
  const cy = y + dy * (d + h / 2);
  return { left: cx - w / 2, top: cy - h / 2, right: cx + w / 2, bottom: cy + h / 2 };
}

/** The point of the box nearest (x, y). */
function nearest(b: Box, x: number, y: number): { x: number; y: number } {
  return { x: Math.min(Math.max(x, b.left), b.right), y: Math.min(Math.max(y, b.top), b.bottom) };
}

// Right first (the reading order of "point, then its label"), then left, above, below, the corners.
const DIRECTIONS: Array<[number, number]> = [
  [1, 0],
  [-1, 0],
  [0, -1],
  [0, 1],
  [1, -1],
  [1, 1],
  [-1, -1],
  [-1, 1],
];

/**
 * One label per cluster of `points`, placed left to right (then top to bottom), each clear of every marker, every
 * label placed before it, every line in `opts.lines` and the edges of the area where any candidate is.
 */
export function placePointLabels(points: readonly LabelPoint[], opts: LabelLayoutOptions): PlacedLabel[] {
  const h = opts.height;
  const gap = opts.gap ?? 1.5;
  const pad = opts.pad ?? h * 0.25;
  const markers: Box[] = points.map((p) => ({ left: p.x - p.r, top: p.y - p.r, right: p.x + p.r, bottom: p.y + p.r }));
  const clusters = clusterPoints(points).sort((a, b) => a.x - b.x || a.y - b.y);
  const placed: PlacedLabel[] = [];
  for (const c of clusters) {
    const w = opts.measure(c.text);
    let best: { box: Box; ring: number; cost: number } | null = null;
    // Rings: next to the markers, then one and two text heights further out (with a leader line).
    const near = c.r + c.keepOut + gap;
    const others = markers.filter((_, i) => !c.members.includes(i));
    for (const [ring, d] of [near, near + h * 1.1, near + h * 2.2].entries()) {
      for (const [dx, dy] of DIRECTIONS) {
        // Diagonal spots sit at the corner's distance, so a label never touches the cluster's circle.
        const box = boxAt(c.x, c.y, dx, dy, dx !== 0 && dy !== 0 ? d * Math.SQRT1_2 : d, w, h);
        // Other marks must keep `pad` away (a label touching the next one reads as one word).
        const padded = inflate(box, pad);
        const cost =
          outside(box, opts.area) * 4 +
          others.reduce((s, m) => s + overlap(padded, m), 0) * 2 +
          placed.reduce((s, p) => s + overlap(padded, p.box), 0) * 3 +
          // A line through a label costs as much as a marker its height's width would.
          (opts.lines ?? []).reduce((s, l) => s + segmentInside(l, padded), 0) * h * 2;
        if (best === null || cost < best.cost - 1e-9) best = { box, ring, cost };
        if (cost === 0) break;
      }
      if (best && best.cost === 0) break;
    }
    const chosen = best as { box: Box; ring: number; cost: number };
    const label: PlacedLabel = { cluster: c, box: chosen.box, clear: chosen.cost === 0 };
    if (chosen.ring > 0) {
      const end = nearest(chosen.box, c.x, c.y);
      const dist = Math.hypot(end.x - c.x, end.y - c.y) || 1;
      label.leader = {
        x1: c.x + ((end.x - c.x) / dist) * (c.r + 0.5),
        y1: c.y + ((end.y - c.y) / dist) * (c.r + 0.5),
        x2: end.x,
        y2: end.y,
      };
    }
    placed.push(label);
  }
  return placed;
}
