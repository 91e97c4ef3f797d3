// Context-distribution probe: accuracy per key-information placement vs random, grouped by context length.
import type { ChartConfiguration } from 'chart.js';
import type { SampleRecord } from '../../harness/types.js';
import { modelLabel } from '../../reports/format.js';
import { shortModel } from '../../reports/labels.js';
import type { RenderedChart } from '../../harness/report/facet.js';
import { DEFAULT_OUTPUT, type ChartOutput, type ChartSize } from '../../reports/charts/canvas.js';
import { chartFrame, renderFrame, type FramedChart } from '../../reports/charts/frame.js';
import { errorBarsPlugin } from '../../reports/charts/bars.js';
import type { LegendEntry } from '../../reports/charts/legend.js';

/** Order of the probe's placements (docs/PROTOCOLS.md §d); others follow sorted, random last. */
const KNOWN_ORDER = ['(0%, 100%)', '(20%, 80%)', '(40%, 60%)', '(0%, 20%)', '(80%, 100%)'];

function pctText(v: number): string {
  return `${Math.round(v <= 1 ? v * 100 : v)}%`;
}

/** A display label for record.metadata.placement (string, [p1, p2] array, or {p1, p2}); null when absent. */
export function placementLabel(placement: unknown): string | null {
  if (placement === undefined || placement === null) return null;
  if (typeof placement === 'string') {
    if (/^random$/i.test(placement.trim())) return 'random';
    const nums = placement.match(/\d+(?:\.\d+)?/g);
    if (nums && nums.length === 2) return placementLabel(nums.map(Number));
    return placement;
  }
  if (Array.isArray(placement) && placement.length === 2 && placement.every((v) => typeof v === 'number')) {
    const asFraction = placement.every((v) => v <= 1);
    return `(${placement.map((v) => pctText(asFraction ? v : v / 100)).join(', ')})`;
  }
  if (typeof placement === 'object') {
    const o = placement as Record<string, unknown>;
    if (typeof o.p1 === 'number' && typeof o.p2 === 'number') return placementLabel([o.p1, o.p2]);
    if (typeof o.name === 'string') return placementLabel(o.name);
  }
  return JSON.stringify(placement);
}

export function orderPlacements(labels: Iterable<string>): string[] {
  const set = new Set(labels);
  const known = KNOWN_ORDER.filter((l) => set.has(l));
  const rest = [...set].filter((l) => !KNOWN_ORDER.includes(l) && l !== 'random').sort();
  return [...known, ...rest, ...(set.has('random') ? ['random'] : [])];
}

export interface ProbeCell {
  mean: number;
  n: number;
}

/** Mean score per (placement, length); errors count as 0. */
export function probeTable(records: Iterable<SampleRecord>): {
  placements: string[];
  lengths: Array<{ key: string; label: string }>;
  cells: Map<string, ProbeCell>;
} {
  const sums = new Map<string, { sum: number; n: number }>();
  const lengths = new Map<string, { key: string; label: string; kind: string; length: number }>();
  const placements = new Set<string>();
  for (const r of records) {
    const p = placementLabel(r.metadata?.placement);
    if (p === null) continue;
    const lk = `${r.lengthKind}:${r.length}`;
    if (!lengths.has(lk)) lengths.set(lk, { key: lk, label: r.lengthLabel, kind: r.lengthKind, length: r.length });
    placements.add(p);
    const key = `${p}|${lk}`;
    const s = sums.get(key) ?? { sum: 0, n: 0 };
    s.sum += r.status === 'error' ? 0 : r.score;
    s.n++;
    sums.set(key, s);
  }
  const cells = new Map<string, ProbeCell>();
  for (const [k, s] of sums) cells.set(k, { mean: s.sum / s.n, n: s.n });
  const sorted = [...lengths.values()].sort((a, b) =>
    a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : a.length - b.length,
  );
  return { placements: orderPlacements(placements), lengths: sorted.map(({ key, label }) => ({ key, label })), cells };
}

export interface ProbeChartInput {
  task: string;
  method: string;
  model: string;
  isReferenceReader?: boolean;
  metric?: string;
  records: SampleRecord[];
  size: ChartSize;
  output?: ChartOutput;
}

function nRange(cells: Map<string, ProbeCell>): string {
  const ns = [...cells.values()].map((c) => c.n);
  const lo = Math.min(...ns);
  const hi = Math.max(...ns);
  return ns.length === 0 ? '0' : lo === hi ? String(lo) : `${lo}–${hi}`;
}

/** Placement colours (Paul Tol's muted set: colour-blind safe, none a method's colour); random is grey. */
export const PLACEMENT_COLORS = ['#332288', '#DDCC77', '#CC6677', '#44AA99', '#882255', '#999933', '#88CCEE'];
export const RANDOM_COLOR = '#777777';

export function probeChartFrame(input: ProbeChartInput): FramedChart {
  const output = input.output ?? DEFAULT_OUTPUT;
  const f = input.size.font;
  const t = probeTable(input.records);
  const whiskers: number[][] = [];
  let colorIndex = 0;
  const entries: LegendEntry[] = [];
  const datasets = t.placements.map((p) => {
    const values = t.lengths.map((l) => t.cells.get(`${p}|${l.key}`));
    // 95% binomial interval half-width, ×100 like the bars.
    whiskers.push(values.map((c) => (c ? 196 * Math.sqrt((c.mean * (1 - c.mean)) / c.n) : 0)));
    const color = p === 'random' ? RANDOM_COLOR : PLACEMENT_COLORS[colorIndex++ % PLACEMENT_COLORS.length];
    entries.push({ label: p, color, box: { fill: color } });
    return {
      label: p,
      data: values.map((c) => (c ? c.mean * 100 : null)),
      backgroundColor: color,
      borderColor: color,
      borderWidth: 0,
      maxBarThickness: f * 2.5,
    };
  });
  const title = `${input.task}: accuracy by key-information placement`;
  const notes = [
    'Placement = relative positions of the two supporting paragraphs; random = the ordinary shuffle (grey).',
    'Whiskers: 95% binomial interval.',
    `n = ${nRange(t.cells)} per bar.`,
  ];
  return chartFrame({
    type: 'bar',
    data: {
      labels: t.lengths.map((l) => l.label),
      datasets: datasets as ChartConfiguration<'bar'>['data']['datasets'],
    },
    size: input.size,
    output,
    title,
    subtitle: `${input.method} · ${shortModel(input.model, input.isReferenceReader)}`,
    captionSubtitle: `${input.method} · ${modelLabel(input.model, input.isReferenceReader)}`,
    legend: [[{ label: 'placement:', color: '#222222' }, ...entries]],
    notes,
    x: {
      title: { display: true, text: 'context length', font: { size: f }, padding: { top: 1, bottom: 0 } },
      ticks: { font: { size: f }, padding: 1 },
      grid: { display: false },
      border: { color: '#888888', width: 0.6 },
    },
    y: { min: 0, max: 100, title: `${input.metric ?? 'accuracy'} ×100`, stepSize: 20 },
    plugins: [errorBarsPlugin(whiskers) as never],
  });
}

export function probeChartConfig(input: ProbeChartInput): { config: ChartConfiguration; title: string } {
  const framed = probeChartFrame(input);
  return { config: framed.config, title: framed.caption.title };
}

export function probeFigure(input: ProbeChartInput): RenderedChart {
  return renderFrame(probeChartFrame(input), input.size, input.output ?? DEFAULT_OUTPUT);
}

export function renderProbeChart(input: ProbeChartInput): Buffer {
  return probeFigure(input).bytes;
}

/** True for records of the placement probe (metadata.placement set). */
export function hasPlacement(r: SampleRecord): boolean {
  return placementLabel(r.metadata?.placement) !== null;
}
