// BABILong's summary rows by method × model, in the order the summary lists them.
import type { SummaryRow } from '../../harness/report/summary-row.js';

export function groupRows(rows: readonly SummaryRow[]): SummaryRow[][] {
  const groups = new Map<string, SummaryRow[]>();
  for (const r of rows) {
    const key = `${r.method}\u0000${r.model}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return [...groups.values()];
}
