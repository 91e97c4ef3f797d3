// Memory retention of a memory agent (records with `memory`, harness/memory/retention.ts): the share of samples whose
// memory holds the gold, against the chunks read since the sample's last evidence chunk (0 = the memory right after
// reading it), one line per length. Samples without a known evidence location are left out.
import type { ChartDataset } from 'chart.js';
import type { RenderedChart } from '../../harness/report/facet.js';
import type { SampleRecord } from '../../harness/types.js';
import { DEFAULT_OUTPUT, type ChartOutput, type ChartSize } from './canvas.js';
import { chartFrame, renderFrame, type FramedChart } from './frame.js';
import type { LegendEntry } from './legend.js';
import { OKABE_ITO } from './style.js';

export interface RetentionPoint {
  /** Chunks since the last evidence chunk. */
  since: number;
  /** Samples whose memory holds the gold there, and samples that reach that chunk. */
  held: number;
  n: number;
}

export interface RetentionSeries {
  method: string;
  lengthLabel: string;
  length: number;
  samples: number;
  points: RetentionPoint[];
}

/** A point is drawn only where at least this many samples reach it (the tail of long documents is thin). */
export const MIN_SAMPLES = 3;

/** Records that can place their memory against their evidence. */
export function retentionRecords(records: readonly SampleRecord[]): SampleRecord[] {
  return records.filter((r) => r.memory && r.memory.evidenceChunks.length > 0 && r.memory.holds.length > 0);
}

/** Per method × length: for each distance from the last evidence chunk, how many samples held the gold. */
export function retentionSeries(records: readonly SampleRecord[]): RetentionSeries[] {
  const groups = new Map<string, SampleRecord[]>();
  for (const r of retentionRecords(records)) {
    const key = `${r.method}\u0000${r.lengthKind}\u0000${r.length}\u0000${r.lengthLabel}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const out: RetentionSeries[] = [];
  for (const group of groups.values()) {
    const held: number[] = [];
    const n: number[] = [];
    for (const r of group) {
      const m = r.memory!;
      const last = m.evidenceChunks[m.evidenceChunks.length - 1];
      for (let c = last; c < m.holds.length; c++) {
        const d = c - last;
        n[d] = (n[d] ?? 0) + 1;
        held[d] = (held[d] ?? 0) + (m.holds[c] === '1' ? 1 : 0);
      }
    }
    out.push({
      method: group[0].method,
      lengthLabel: group[0].lengthLabel,
      length: group[0].length,
      samples: group.length,
      points: n.map((count, since) => ({ since, held: held[since] ?? 0, n: count })),
    });
  }
  return out.sort((a, b) => a.method.localeCompare(b.method) || a.length - b.length);
}

const PALETTE = [
  OKABE_ITO.blue,
  OKABE_ITO.orange,
  OKABE_ITO.green,
  OKABE_ITO.vermillion,
  OKABE_ITO.purple,
  OKABE_ITO.sky,
  OKABE_ITO.black,
  '#8C8C8C',
];

export function retentionChartFrame(
  task: string,
  records: readonly SampleRecord[],
  size: ChartSize,
  output: ChartOutput = DEFAULT_OUTPUT,
): FramedChart {
  const series = retentionSeries(records.filter((r) => r.task === task));
  const methods = new Set(series.map((s) => s.method));
  const datasets: ChartDataset<'line', Array<{ x: number; y: number }>>[] = [];
  const legend: LegendEntry[] = [];
  let maxX = 1;
  series.forEach((s, i) => {
    const color = PALETTE[i % PALETTE.length];
    const data = s.points.filter((p) => p.n >= MIN_SAMPLES).map((p) => ({ x: p.since, y: (100 * p.held) / p.n }));
    if (data.length) maxX = Math.max(maxX, data[data.length - 1].x);
    const label = methods.size > 1 ? `${s.lengthLabel} · ${s.method}` : s.lengthLabel;
    datasets.push({
      label,
      data,
      borderColor: color,
      backgroundColor: color,
      borderWidth: 1.2,
      pointRadius: data.length > 40 ? 0 : 1.6,
      tension: 0,
      clip: 4,
    });
    legend.push({ label: `${label} (n=${s.samples})`, color, line: { dash: [], width: 1.2 } });
  });
  const f = size.font;
  const method = [...methods].join(', ');
  return chartFrame({
    type: 'line',
    data: { datasets: datasets as ChartDataset[] },
    size,
    output,
    title: `${task}: memory retention after the evidence`,
    subtitle: method || undefined,
    legend: [legend],
    notes: [
      "Share of samples whose memory, after each chunk, holds the gold answer (normalised, as whole words) against the chunks read since the sample's last evidence chunk (0: the memory right after reading it).",
      `One line per length; a point is drawn where at least ${MIN_SAMPLES} samples reach that many chunks. Samples whose evidence location is not known are left out.`,
      'The memory can hold the gold before its evidence chunk (an answer word that also occurs elsewhere, or a guess); this chart starts at the evidence.',
    ],
    x: {
      type: 'linear',
      min: 0,
      max: maxX,
      title: {
        display: true,
        text: 'chunks since the last evidence chunk',
        font: { size: f },
        padding: { top: 1, bottom: 0 },
      },
      grid: { color: '#efefef', lineWidth: 0.5, tickLength: 3 },
      border: { color: '#888888', width: 0.6 },
      // Upright ticks: chart.js would otherwise reserve room for labels turned 50°.
      ticks: { font: { size: f }, precision: 0, maxTicksLimit: 12, maxRotation: 0, padding: 1 },
    },
    y: { min: 0, max: 100, stepSize: 20, title: 'memory holds the gold (% of samples)' },
  });
}

export function retentionFigure(input: {
  task: string;
  records: readonly SampleRecord[];
  size: ChartSize;
  output?: ChartOutput;
}): RenderedChart {
  const output = input.output ?? DEFAULT_OUTPUT;
  return renderFrame(retentionChartFrame(input.task, input.records, input.size, output), input.size, output);
}
