// BABILong's summary rows as task × length grids. The family's names (its metric, task order and length names) come
// from generators/babilong through the facet's registration, since reports/ sits below generators/.
import type { SummaryRow } from '../../harness/report/summary-row.js';
import type { LengthTarget } from '../../harness/types.js';
import type { TaskLengthGrid } from '../charts/babilong-heatmap.js';

export interface BabilongNames {
  /** The metric BABILong's tasks are scored by ('babilong_acc'). */
  metric: string;
  /** Its tasks in order (qa1 … qa20). */
  tasks: readonly string[];
  /** A length as BABILong names it (0k … 128k, 512k, 1M, 10M). */
  lengthName(length: LengthTarget): string;
}

/** Rows scored by BABILong's metric at a token length (no aggregate or breakdown rows). */
export function babilongRows(rows: readonly SummaryRow[], names: BabilongNames): SummaryRow[] {
  return rows.filter((r) => r.metric === names.metric && r.lengthKind === 'tokens' && !r.aggregate);
}

/** The rows by method × model, in the order the summary lists them. */
export function groupRows(rows: readonly SummaryRow[]): SummaryRow[][] {
  const groups = new Map<string, SummaryRow[]>();
  for (const r of rows) {
    const key = `${r.method}\u0000${r.model}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return [...groups.values()];
}

/** The task × length grid of BABILong rows (one method and model's, or the tasks and lengths of several). */
export function taskLengthGrid(rows: readonly SummaryRow[], names: BabilongNames): TaskLengthGrid {
  const own = babilongRows(rows, names);
  const name = (r: SummaryRow) => names.lengthName({ kind: 'tokens', value: r.length, label: r.lengthLabel });
  const rank = (t: string) => (names.tasks.includes(t) ? names.tasks.indexOf(t) : names.tasks.length);
  const tasks = [...new Set(own.map((r) => r.task))].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : 1));
  const byLength = new Map<string, number>();
  for (const r of own) byLength.set(name(r), r.length);
  const lengths = [...byLength].sort((a, b) => a[1] - b[1]).map(([l]) => l);
  const cells = tasks.map((task) =>
    lengths.map((length) => {
      const r = own.find((x) => x.task === task && name(x) === length);
      return r ? { score: r.score * 100, n: r.n, errors: r.errors } : null;
    }),
  );
  return { tasks, lengths, cells };
}
