// Which summary cells hold every sample their run planned. The runner records the planned count per task and length
// in manifest.json (`expected`: {"task/length": n}, samples per method after --samples, the data available and
// --shard); a cell with fewer finished samples (an interrupted run, an unfinished shard) is shown as "n of N",
// flagged complete = false, and drawn hollow. Cells planned but without any finished sample are listed as missing.
import type { ManifestView } from './manifest.js';
import type { SummaryRow } from './summary.js';
import { expectedKey, type ExpectedCounts } from '../harness/run-dir/expected.js';

// The counts themselves are the run directory's (the runner writes them): harness/run-dir/expected.ts.
export { expectedCounts, expectedKey, type ExpectedCounts } from '../harness/run-dir/expected.js';

/** What one run directory planned: its counts, for which methods and model, and which shard of the run it is. */
export interface ExpectedSource {
  expected: ExpectedCounts;
  methods: string[];
  /** The model id its records carry; undefined: any. */
  model?: string;
  /** "i/n" for a shard, "all" otherwise: counts of different shards add up, the same shard's do not. */
  shard: string;
}

/** The planned counts a manifest records, or null (older runs, other tools) when it has none. */
export function expectedSource(manifest: ManifestView | null): ExpectedSource | null {
  const raw = manifest?.manifest.expected;
  if (!manifest || !raw || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const expected: ExpectedCounts = {};
  for (const [k, v] of Object.entries(raw as Record<string, unknown>))
    if (typeof v === 'number' && Number.isInteger(v) && v >= 0) expected[k] = v;
  const s = manifest.manifest.shard as { index?: unknown; count?: unknown } | null | undefined;
  const shard =
    s && typeof s === 'object' && typeof s.index === 'number' && typeof s.count === 'number'
      ? `${s.index}/${s.count}`
      : 'all';
  return { expected, methods: manifest.methods, model: manifest.model?.id, shard };
}

/**
 * The planned counts of a run directory, one source per `bench run` invocation when its manifest has a history (so
 * a directory extended with a method at one length does not expect that method at every length: a cell's planned
 * count is the largest any invocation asked for), else the manifest's top-level counts (older runs, merges).
 */
export function expectedSources(manifest: ManifestView | null): ExpectedSource[] {
  const whole = expectedSource(manifest);
  if (!whole || !manifest) return [];
  const history = manifest.manifest.history;
  if (!Array.isArray(history) || history.length === 0 || manifest.manifest.merged_from) return [whole];
  const out: ExpectedSource[] = [];
  for (const h of history) {
    if (!h || typeof h !== 'object' || !h.expected || !Array.isArray(h.grid?.methods)) return [whole];
    const expected: ExpectedCounts = {};
    for (const [k, v] of Object.entries(h.expected))
      if (typeof v === 'number' && Number.isInteger(v) && v >= 0) expected[k] = v;
    out.push({ ...whole, expected, methods: h.grid.methods });
  }
  return out;
}

type CellKey = Pick<SummaryRow, 'task' | 'method' | 'model' | 'lengthLabel'>;

/** The planned count of one cell over several run directories (shards add up; a repeated shard counts once); null: unknown. */
export function expectedFor(cell: CellKey, sources: ExpectedSource[]): number | null {
  const byShard = new Map<string, number>();
  for (const s of sources) {
    if (!s.methods.includes(cell.method) || (s.model !== undefined && s.model !== cell.model)) continue;
    const n = s.expected[expectedKey(cell.task, cell.lengthLabel)];
    if (n === undefined) continue;
    byShard.set(s.shard, Math.max(byShard.get(s.shard) ?? 0, n));
  }
  if (byShard.size === 0) return null;
  // A whole run covers every shard: it alone is the plan.
  if (byShard.has('all')) return byShard.get('all')!;
  return [...byShard.values()].reduce((a, b) => a + b, 0);
}

/**
 * Sets each row's `expected` and `complete` (null where unknown: no manifest count, or a LongBench-E bucket view). An
 * aggregate row (a suite's average) expects what its subsets expect, and is incomplete when one of them is (the tasks it
 * lacks altogether are its `aggregate.missing`).
 */
export function markCompleteness(rows: SummaryRow[], sources: Array<ExpectedSource | null>): SummaryRow[] {
  const known = sources.filter((s): s is ExpectedSource => s !== null);
  for (const row of rows) {
    if (row.aggregate) continue;
    const expected = row.lengthKind === 'bucket' ? null : expectedFor(row, known);
    row.expected = expected;
    row.complete = expected === null ? null : row.n >= expected;
  }
  for (const row of rows) if (row.aggregate) markAggregate(row, rows);
  return rows;
}

function markAggregate(row: SummaryRow, rows: readonly SummaryRow[]): void {
  const parts = row.aggregate!.subsets.map((s) =>
    rows.find(
      (r) =>
        !r.aggregate &&
        r.task === s.task &&
        r.method === row.method &&
        r.model === row.model &&
        r.lengthKind === row.lengthKind &&
        r.length === row.length,
    ),
  );
  const expected = parts.every((p) => p?.expected != null)
    ? parts.reduce((sum, p) => sum + (p!.expected as number), 0)
    : null;
  row.expected = expected;
  row.complete = parts.some((p) => p?.complete === false) ? false : expected === null ? null : row.n >= expected;
}

/** A planned cell without a single finished sample. */
export interface MissingCell {
  task: string;
  method: string;
  model: string;
  lengthLabel: string;
  expected: number;
}

/** Planned cells (each source's tasks, lengths and methods, for its model) that no row holds, in plan order. */
export function missingCells(rows: SummaryRow[], sources: Array<ExpectedSource | null>): MissingCell[] {
  const known = sources.filter((s): s is ExpectedSource => s !== null);
  const id = (c: CellKey) => [c.task, c.method, c.model, c.lengthLabel].join('\u0000');
  const seen = new Set(rows.map(id));
  const out: MissingCell[] = [];
  for (const s of known) {
    if (s.model === undefined) continue;
    for (const key of Object.keys(s.expected)) {
      const cut = key.lastIndexOf('/');
      for (const method of s.methods) {
        const cell = { task: key.slice(0, cut), method, model: s.model, lengthLabel: key.slice(cut + 1) };
        if (seen.has(id(cell))) continue;
        seen.add(id(cell));
        const expected = expectedFor(cell, known);
        if (expected) out.push({ ...cell, expected });
      }
    }
  }
  return out;
}

const int = (n: number) => n.toLocaleString('en-US');

/** The sample count as shown: "286 of 1,024" for an incomplete cell, the count alone otherwise. */
export function fmtCount(row: Pick<SummaryRow, 'n' | 'expected' | 'complete'>): string {
  return row.complete === false && row.expected != null ? `${int(row.n)} of ${int(row.expected)}` : String(row.n);
}

export const INCOMPLETE_NOTE =
  '"n of N": only n of the N samples the run planned have finished (an interrupted run or an unfinished shard); ' +
  'rerun the same bench run command to finish it';

/** "no sample finished yet: ruler-hqa · memagent at 2m, 3.5m (0 of 128 each)", or '' when nothing is missing. */
export function missingNote(missing: MissingCell[]): string {
  if (missing.length === 0) return '';
  const groups = new Map<string, MissingCell[]>();
  for (const m of missing) {
    const key = `${m.task} · ${m.method}`;
    groups.set(key, [...(groups.get(key) ?? []), m]);
  }
  const parts = [...groups].map(([key, cells]) => {
    const sameN = cells.every((c) => c.expected === cells[0].expected);
    const lengths = cells.map((c) => (sameN ? c.lengthLabel : `${c.lengthLabel} (0 of ${int(c.expected)})`)).join(', ');
    return `${key} at ${lengths}${sameN ? ` (0 of ${int(cells[0].expected)}${cells.length > 1 ? ' each' : ''})` : ''}`;
  });
  return `no sample finished yet: ${parts.join('; ')}`;
}
