// `bench runs`: one line per run directory, from its manifest and its samples' latest records. Pure: the command
// (cli/commands/runs.ts) reads the files.
import type { RunManifest } from '../harness/run-dir/manifest.js';
import type { SampleRecord } from '../harness/types.js';
import { plural } from '../harness/util/plural.js';
import { fmt2, pct } from './format.js';
import { recordValue } from './paired.js';

/** complete: every planned sample finished without error; partial: some not finished yet; errors: all finished,
 *  some as errors (rerun with --retry-errors). */
export type RunStatus = 'complete' | 'partial' | 'errors';

export interface RunListing {
  dir: string;
  tasks: string[];
  /** Length labels per task. */
  lengths: Record<string, string[]>;
  methods: string[];
  model: { id: string; isReferenceReader: boolean };
  shard: { index: number; count: number } | null;
  status: RunStatus;
  samples: { finished: number; planned: number; errors: number };
  /** Per method: the mean headline score ×100 over its finished samples (every task and length together; an
   *  errored sample counts 0, as in the summary); null for a method without a finished sample. */
  scores: Record<string, number | null>;
}

/** What a run planned, in units (samples × methods): the manifest's per-cell counts, else its `units`. */
function plannedUnits(m: RunManifest): number {
  if (m.expected) return Object.values(m.expected).reduce((a, b) => a + b, 0) * m.methods.length;
  return m.units;
}

export function runListing(dir: string, manifest: RunManifest, records: readonly SampleRecord[]): RunListing {
  const planned = plannedUnits(manifest);
  const errors = records.filter((r) => r.status === 'error').length;
  const scores: Record<string, number | null> = {};
  for (const method of manifest.methods) {
    const mine = records.filter((r) => r.method === method);
    scores[method] = mine.length ? pct(mine.reduce((s, r) => s + recordValue(r), 0) / mine.length) : null;
  }
  return {
    dir,
    tasks: manifest.tasks.map((t) => t.name),
    lengths: manifest.lengths,
    methods: manifest.methods,
    model: { id: manifest.model.id, isReferenceReader: manifest.model.isReferenceReader },
    shard: manifest.shard,
    status: records.length < planned ? 'partial' : errors > 0 ? 'errors' : 'complete',
    samples: { finished: records.length, planned, errors },
    scores,
  };
}

/** "32k..3.5m (8 lengths)", "8k", or one such part per task where the tasks' grids differ. */
export function gridText(lengths: Record<string, string[]>): string {
  const one = (labels: string[]) =>
    labels.length <= 2 ? labels.join(',') : `${labels[0]}..${labels[labels.length - 1]} (${labels.length} lengths)`;
  const distinct = [...new Set(Object.values(lengths).map((l) => l.join(',')))];
  if (distinct.length <= 1) return one(Object.values(lengths)[0] ?? []);
  return Object.entries(lengths)
    .map(([task, labels]) => `${task}: ${one(labels)}`)
    .join('; ');
}

/** The table `bench runs` prints: a header, a rule, one row per run. */
export function formatRunList(runs: readonly RunListing[]): string {
  const head = ['run', 'tasks', 'grid', 'methods', 'model', 'status', 'n', 'errors', 'score ×100'];
  const body = runs.map((r) => [
    r.dir,
    r.tasks.join(','),
    `${gridText(r.lengths)}${r.shard ? ` shard ${r.shard.index}/${r.shard.count}` : ''}`,
    r.methods.join(','),
    r.model.isReferenceReader ? `${r.model.id} (embedded)` : r.model.id,
    r.status,
    `${r.samples.finished} of ${r.samples.planned}`,
    String(r.samples.errors),
    Object.entries(r.scores)
      .map(([m, s]) => (r.methods.length > 1 ? `${m} ` : '') + (s === null ? '–' : fmt2(s)))
      .join(', '),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const line = (row: string[]) =>
    row
      .map((c, i) => (i === 6 || i === 7 ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}

/** The closing line: how many runs, and the score's meaning. */
export function runListFooter(runs: readonly RunListing[]): string {
  return (
    `${plural(runs.length, 'run directory', 'run directories')}; n = finished of planned samples × methods; ` +
    "score = each method's mean over its finished samples, every task and length together (bench report DIR per length)"
  );
}
