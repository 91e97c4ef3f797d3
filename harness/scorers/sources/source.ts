// A reader of another tool's result files for `bench score`: a family registers one per peer tool it reproduces
// (Family.scoreSources); `bench score --format NAME` picks one, or the first line of each file decides.
import type { MetricRegistry } from '../metric.js';
import type { ScoreRow } from '../aggregate.js';

export interface ScoreContext {
  metrics: MetricRegistry;
  /** bench score --metric: replaces the metric each file would be scored with. */
  metric?: string;
  warnings: string[];
  /** How a metric was chosen where the files did not say it themselves. */
  notes: string[];
  /** Switches a source reads (LongBench: `e` forces LongBench-E buckets). */
  options: Readonly<Record<string, unknown>>;
}

export interface ScoreSource {
  /** The --format value and the table's format, e.g. 'ruler'. */
  name: string;
  /** Its files as "expected ..." messages name them, e.g. "RULER pred files (index, pred, outputs)". */
  files: string;
  /** Whether a parsed line is this tool's. Sources are tried in registration order: the most specific first. */
  detect(line: Record<string, unknown>): boolean;
  /** Its files below a directory that holds no .jsonl itself (MemAgent's results/ folder of per-config folders). */
  nestedFiles?(dir: string): string[];
  /** One row per group of the files (all detected as this source), in order. */
  score(files: string[], ctx: ScoreContext): ScoreRow[];
}
