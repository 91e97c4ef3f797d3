// A report facet: what one benchmark family adds to `bench report` beyond the generic summary, accuracy and
// paired-difference charts — its own charts (the NIAH heatmap, the placement probe, LongBench's bars), breakdown rows
// of the summary (LongBench-E buckets) and the published tables its tasks are compared with. A family lists its
// facets in its Family (harness/registry/family.ts); the CLI hands the catalog's facets to the writers in reports/.
import type { SampleRecord } from '../types.js';
import type { PaperBaseline, PaperLength } from './paper.js';
import type { SummaryRow } from './summary-row.js';

export type ChartSizeName = 'paper' | 'slide';

export interface ChartSize {
  name: ChartSizeName;
  width: number;
  height: number;
  /** Pixels per inch written into the PNG (pHYs). */
  ppi: number;
  /** Base font size in px; other text scales from it. */
  font: number;
}

/** One chart of a report, written at every size as charts/<base>-<size>.png. */
export interface FacetChart {
  /** What it shows, e.g. 'niah-heatmap', 'probe', 'longbench', 'rouge'. */
  kind: string;
  title: string;
  /** File name without the size and extension; the writer makes colliding names distinct. */
  base: string;
  render(size: ChartSize): Buffer;
}

export interface FacetInput {
  rows: readonly SummaryRow[];
  records: readonly SampleRecord[];
  /** Models the rows mark as the embedded reference reader. */
  referenceModels: ReadonlySet<string>;
  /** Paper tables overlaid in this report (bench report --paper); empty without --paper. */
  paper?: readonly PaperBaseline[];
}

export interface FacetCharts {
  charts: FacetChart[];
  /** Rows these charts show in place of the accuracy chart (e.g. the probe's tasks, ROUGE rows). */
  claims?: (row: SummaryRow) => boolean;
}

/**
 * Extra summary rows over samples already counted (lengthKind 'bucket'), e.g. LongBench-E's length buckets. The
 * gate and baselines never read them.
 */
export interface SummaryBreakdown {
  /** The record's breakdown label, or null when it falls in none. */
  labelOf(record: Pick<SampleRecord, 'metadata'>): string | null;
  /** The row's `length` for a label: its place in the sort order under the task's own rows. */
  lengthOf(label: string): number;
  /** One line under any table that shows breakdown rows. */
  note: string;
}

/** A summary row with its per-sample headline scores (errors as 0), in sample order (index, then id). */
export interface ScoredRow {
  row: SummaryRow;
  scores: readonly number[];
}

/**
 * Rows that average other rows (`aggregate` set), e.g. a suite's mean over its tasks at each length: shown in the
 * summary tables and charts like any row, listed apart in summary.json (`aggregates`), never gated.
 */
export interface SummaryAggregate {
  rows(scored: readonly ScoredRow[]): SummaryRow[];
  /** One line under any table that shows its rows. */
  note: string;
}

/** Published numbers for a family's tasks (baselines/paper/): how our names map to them, and their length axis. */
export interface PaperOverlay {
  /** docs → label and nominal tokens: places docs:N lengths on the accuracy and difference charts' token axis. */
  lengthTable?(): PaperLength[];
  /** The paper's task name for one of ours spelled differently ('hqa' → 'ruler-hqa'), or undefined. */
  paperTask?(task: string): string | undefined;
}

export interface ReportFacet {
  /** Registry key, e.g. 'ruler-heatmap'. */
  name: string;
  /**
   * Where its charts stand among other facets' (ascending; the accuracy charts come before every facet's, the paired
   * differences after). Keeps a report's chart order independent of the order families are listed in.
   */
  order: number;
  charts?(input: FacetInput): FacetCharts;
  breakdown?: SummaryBreakdown;
  aggregate?: SummaryAggregate;
  paper?: PaperOverlay;
}
