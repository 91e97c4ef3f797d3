// Rows scored on a small test fixture bundled with bench (metadata.fixture; LongBench's datasets/longbench/fixtures)
// rather than the benchmark's own data: every summary form labels them, so that a fixture's score is never quoted as
// the benchmark's.
import type { SummaryRow } from '../harness/report/summary-row.js';

/** The task as tables show it: "longbench/hotpotqa (fixture)" for a fixture's row. */
export function taskLabel(row: Pick<SummaryRow, 'task' | 'fixture'>): string {
  return row.fixture ? `${row.task} (fixture)` : row.task;
}

/** The tasks of fixture rows, in row order. */
export function fixtureTasks(rows: readonly Pick<SummaryRow, 'task' | 'fixture'>[]): string[] {
  return [...new Set(rows.filter((r) => r.fixture).map((r) => r.task))];
}

/** One line saying which tasks ran on fixtures and what that means; '' when none did. */
export function fixtureNote(rows: readonly Pick<SummaryRow, 'task' | 'fixture'>[]): string {
  const tasks = fixtureTasks(rows);
  if (tasks.length === 0) return '';
  return (
    `fixture: ${tasks.join(', ')} ran on the small test fixture${tasks.length > 1 ? 's' : ''} bundled with bench, not ` +
    "the benchmark's data: these scores are no benchmark result and are not comparable with published numbers " +
    '(pass --data with the real files)'
  );
}
