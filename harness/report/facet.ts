// A report facet: what one benchmark family adds to `bench report` beyond the generic summary, accuracy and
// paired-difference charts — its own charts (the NIAH heatmap, the placement probe, LongBench's bars), breakdown rows
// of the summary (LongBench-E buckets) and the published tables its tasks are compared with. A family lists its
// facets in its Family (harness/registry/family.ts); the CLI hands the catalog's facets to the writers in reports/.
import type { SampleRecord } from '../types.js';
import type { PaperBaseline, PaperLength } from './paper.js';
import type { SummaryRow } from './summary-row.js';

/** single: one column of a two-column paper (3.25 in wide); double: the full text width (6.75 in). */
export type ChartSizeName = 'single' | 'double';

/** png: raster at `ppi`; svg and pdf: vector, text as text, at the print size. */
export type ChartFormat = 'png' | 'svg' | 'pdf';

/**
 * A chart's print size. Layout units are points (1/72 in) in every format: an SVG or PDF is `width` × `height` pt, a
 * PNG `width × ppi / 72` pixels wide, so text set at 8 units prints at 8 pt.
 */
export interface ChartSize {
  name: ChartSizeName;
  /** Print width and (base) height in pt; a chart whose legend needs more rows may grow taller. */
  width: number;
  height: number;
  /** Pixels per inch of the PNG (also written into its pHYs). */
  ppi: number;
  /** Base font size in pt (tick labels, legend); titles scale from it. */
  font: number;
}

/** What `bench report` / `bench compare` ask of their charts (--format, --size, --no-title, --dpi). */
export interface FigureOptions {
  formats: ChartFormat[];
  sizes: ChartSizeName[];
  /** Draw titles in the images. */
  title: boolean;
  /** PNG pixels per inch (written into each PNG's pHYs); default the size's (DEFAULT_DPI). */
  dpi?: number;
}

/** The PNG resolution unless --dpi says otherwise, and the range --dpi accepts. */
export const DEFAULT_DPI = 300;
export const DPI_RANGE = { min: 72, max: 1200 } as const;

/** Every chart as PNG at both sizes, titled: what a report writes unless told otherwise. */
export const DEFAULT_FIGURES: FigureOptions = { formats: ['png'], sizes: ['single', 'double'], title: true };

/** How one rendering of a chart is written. */
export interface ChartOutput {
  format: ChartFormat;
  /** Draw the title (and its grey subtitle) in the image; the caption file holds them either way. */
  title: boolean;
}

/** What the caption file beside a figure says (charts/<base>.caption.txt): notes are never drawn in the image. */
export interface ChartCaption {
  title: string;
  subtitle?: string;
  notes: string[];
}

export interface RenderedChart {
  /** The file's bytes in the requested format. */
  bytes: Buffer;
  caption: ChartCaption;
}

/** One chart of a report, written at every size and format as charts/<base>-<size>.<format>. */
export interface FacetChart {
  /** What it shows, e.g. 'niah-heatmap', 'probe', 'longbench', 'rouge'. */
  kind: string;
  title: string;
  /** File name without the size and extension; the writer makes colliding names distinct. */
  base: string;
  /**
   * The chart at one size and format. A plain Buffer is a PNG drawn the older way (blankCanvas + encodePng, no
   * caption): the writer writes it for png and skips the chart, with a warning, for svg and pdf.
   */
  render(size: ChartSize, output: ChartOutput): RenderedChart | Buffer;
}

export interface FacetInput {
  rows: readonly SummaryRow[];
  records: readonly SampleRecord[];
  /** Models the rows mark as the embedded reference reader. */
  referenceModels: ReadonlySet<string>;
  /** Paper tables overlaid in this report (bench report --paper); empty without --paper. */
  paper?: readonly PaperBaseline[];
}

/** A table a facet adds to summary.md and report.html after the summary, as plain text (the writers escape it). */
export interface FacetTable {
  title: string;
  /** Sentences under the title: sources, conventions. */
  notes: string[];
  head: string[];
  body: string[][];
  /** Columns from this index on hold numbers (right-aligned). */
  numericFrom?: number;
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
  labelOf(record: Pick<SampleRecord, 'metadata' | 'task'>): string | null;
  /** The row's `length` for a label: its place in the sort order under the task's own rows (with perLength: among
   *  one length's labels, 0 ≤ value < 1). */
  lengthOf(label: string): number;
  /** One row per label at each length of the task, labelled "<length> · <label>" (the probe's placements), rather
   *  than one per label across the task's lengths (LongBench-E's buckets of its one native length). */
  perLength?: boolean;
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
  /** Tables of its own (e.g. BABILong's task × length accuracies and its leaderboard's numbers). */
  tables?(input: FacetInput): FacetTable[];
  breakdown?: SummaryBreakdown;
  aggregate?: SummaryAggregate;
  paper?: PaperOverlay;
}
