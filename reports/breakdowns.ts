// The summary's breakdown rows (lengthKind 'bucket'), which report facets define (harness/report/facet.ts
// SummaryBreakdown; e.g. LongBench-E's length buckets): each breakdown's labels for a record, and the notes under a
// table that shows such rows; likewise the notes of the facets' aggregate rows (SummaryAggregate).
import type { ReportFacet, SummaryBreakdown } from '../harness/report/facet.js';
import type { SampleRecord } from '../harness/types.js';
import type { SummaryRow } from '../harness/report/summary-row.js';

export interface NamedBreakdown extends SummaryBreakdown {
  /** The facet that defines it. */
  facet: string;
}

export function breakdownsOf(facets: readonly ReportFacet[]): NamedBreakdown[] {
  return facets.flatMap((f) => (f.breakdown ? [{ ...f.breakdown, facet: f.name }] : []));
}

/** The record's breakdown labels, one per breakdown it falls in (e.g. ["4-8k"]). */
export function breakdownLabels(
  record: Pick<SampleRecord, 'metadata' | 'task'>,
  facets: readonly ReportFacet[],
): string[] {
  return breakdownsOf(facets).flatMap((b) => b.labelOf(record) ?? []);
}

/** The notes of the breakdowns that made some of the rows (every breakdown's for rows that do not say). */
export function breakdownNotes(
  rows: readonly Pick<SummaryRow, 'lengthKind' | 'breakdown'>[],
  facets: readonly ReportFacet[],
): string[] {
  const buckets = rows.filter((r) => r.lengthKind === 'bucket');
  return breakdownsOf(facets)
    .filter((b) => buckets.some((r) => r.breakdown === undefined || r.breakdown === b.facet))
    .map((b) => b.note);
}

/** The aggregates' notes when the rows hold aggregate rows (harness/report/facet.ts SummaryAggregate); none otherwise. */
export function aggregateNotes(
  rows: readonly Pick<SummaryRow, 'aggregate'>[],
  facets: readonly ReportFacet[],
): string[] {
  return rows.some((r) => r.aggregate !== undefined)
    ? facets.flatMap((f) => (f.aggregate ? [f.aggregate.note] : []))
    : [];
}
