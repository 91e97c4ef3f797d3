// A reader of another tool's result files for `bench score`: a family registers one per peer tool it reproduces
// (Family.scoreSources); `bench score --format NAME` picks one, or the first line of each file decides.
import type { MetricRegistry } from '../metric.js';
import type { ScoreRow } from '../aggregate.js';
import { SPECIAL_TOKENS, stripSpecialTokens } from '../../protocol/special-tokens.js';
import { plural } from '../../util/plural.js';

export interface ScoreContext {
  metrics: MetricRegistry;
  /** bench score --metric: replaces the metric each file would be scored with. */
  metric?: string;
  warnings: string[];
  /** How a metric was chosen where the files did not say it themselves. */
  notes: string[];
  /** Switches a source reads (LongBench: `e` forces LongBench-E buckets). */
  options: Readonly<Record<string, unknown>>;
  /** Predictions cleaned of chat-template special tokens (cleanPrediction); one note reports them. */
  tokens?: TokenTally;
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
  /** Files that are not JSON Lines (BABILong's CSVs): the folders of them at or below `target` (a folder or a file),
   *  each scored as one group; null when there are none. */
  claim?(target: string): string[][] | null;
  /** One row per group of the files (all detected as this source), in order. */
  score(files: string[], ctx: ScoreContext): ScoreRow[];
}

/** Predictions a source cleaned of chat-template special tokens, for the one note `bench score` prints about them. */
export interface TokenTally {
  count: number;
  /** The first token found and where (file:line). */
  first?: { token: string; at: string };
}

export function newTokenTally(): TokenTally {
  return { count: 0 };
}

/**
 * A prediction without chat-template special tokens (harness/protocol/special-tokens.ts), as `bench run` scores
 * it: a peer tool's `Paris<|im_end|>` scores as `Paris`. Counted in `tally` when it held any.
 */
export function cleanPrediction<T extends string | null>(text: T, tally: TokenTally | undefined, at: string): T {
  const cleaned = stripSpecialTokens(text);
  if (cleaned !== text && tally) {
    tally.count++;
    tally.first ??= { token: firstToken(text as string), at };
  }
  return cleaned;
}

function firstToken(text: string): string {
  let best = '';
  let at = Infinity;
  for (const t of SPECIAL_TOKENS) {
    const i = text.indexOf(t);
    if (i >= 0 && i < at) [best, at] = [t, i];
  }
  return best;
}

/** The note for a tally, or null when nothing was cleaned. */
export function tokenTallyNote(tally: TokenTally): string | null {
  if (tally.count === 0) return null;
  return `${plural(tally.count, 'prediction')} held chat-template special tokens (first: ${tally.first!.token} at ${tally.first!.at}); removed before scoring, as bench run does`;
}
