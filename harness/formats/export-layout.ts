// `bench export --format F`: a peer tool's file layout for a run's predictions, registered by the family that knows
// the peer (generators/<family>/export.ts). cli/commands/export.ts is the generic driver: it reads the run, checks
// every record fits, groups the rows by file, sorts them into data order and writes each file atomically.
import { extractPhraseAnswer } from '../protocol/answer.js';
import { getMetric, type MetricRegistry } from '../scorers/index.js';
import type { SampleRecord } from '../types.js';

/** One exported row: the file it goes to (relative to --out) and its fields, in the peer's order. */
export interface PlacedRow {
  rel: string;
  row: Array<[string, unknown]>;
}

export interface ExportedFile {
  /** Absolute or as given: out joined with the peer's relative path. */
  path: string;
  task: string;
  method: string;
  lengthLabel: string;
  rows: number;
  /** Rows of samples that ended in error or truncated (written with an empty pred). */
  failed: number;
}

export interface ExportResult {
  format: string;
  out: string;
  files: ExportedFile[];
  rows: number;
  errors: number;
  truncated: number;
  /** The `<model>__<method>` names used, in order. */
  names: string[];
  warnings: string[];
}

export interface ExportLayout {
  /** The --format name, e.g. 'ruler'. */
  readonly name: string;
  /** Where it stands in --format lists and messages (lower first). */
  readonly rank: number;
  /** The peer's name in messages: "in RULER's layout", "score with RULER's own script". */
  readonly label: string;
  /** The peer's scorer, for the overview: "RULER's evaluate.py". */
  readonly reader: string;
  /** `bench export --help`'s line after the name: the layout and the peer script that reads it. */
  readonly help: string;
  /** What the format takes, for the refusal: "--format ruler takes <fits>; this run has ...". */
  readonly fits: string;
  /** Added inside the failed-samples note's parenthesis, after "empty pred". */
  readonly failedNote?: string;
  /** Why a record cannot go to this layout, or null when it fits. */
  misfit(record: SampleRecord): string | null;
  /** The record's file and row (`metrics`: the catalog's, for the peer's judge fields); may throw UserError for a
   *  record missing what the peer needs. */
  place(record: SampleRecord, metrics: MetricRegistry): PlacedRow;
  /** A file's text from its rows in data order; one JSON object a line when absent (BABILong writes CSV). */
  serialize?(rows: ReadonlyArray<PlacedRow['row']>): string;
  /** Files the peer keeps beside a file (BABILong's .json of prompt parts), made from the file's first record. */
  companions?(rel: string, record: SampleRecord): Array<{ rel: string; text: string }>;
  /** How to run the peer's scorer on the export, one line per invocation. */
  peerCommands(result: ExportResult): string[];
}

/** A model id as one folder or file name: every character other than letters, digits, '.', '_' and '-' becomes '_'. */
export function safeName(model: string): string {
  const safe = model.replace(/[^A-Za-z0-9._-]/g, '_');
  return safe === '' || safe === '.' || safe === '..' ? '_' : safe;
}

/** The folder (RULER, LongBench) or file (MemAgent) name of one model × method. */
export function exportName(record: Pick<SampleRecord, 'model' | 'method'>): string {
  return `${safeName(record.model)}__${record.method}`;
}

/** Whether the run scored the sample's reply: ok, or over-target (it ran and is scored as usual). */
export function isScoredStatus(status: SampleRecord['status']): boolean {
  return status === 'ok' || status === 'over-target';
}

/** The answer the run's metric scored: '' for a failed sample; the phrase answer for metrics that read the raw reply. */
export function scoredAnswer(r: SampleRecord, metrics: MetricRegistry): string {
  if (!isScoredStatus(r.status)) return '';
  if (getMetric(metrics, r.metric).input === 'raw') return extractPhraseAnswer(r.rawOutput) ?? '';
  return r.prediction ?? '';
}
