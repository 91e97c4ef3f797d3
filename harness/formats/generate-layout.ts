// `bench generate --format F`: a file layout for a task's samples, registered by the family that knows the peer tool
// (generators/<family>/generate.ts) or, for `native`, by the harness (./native.ts). cli/commands/generate.ts is the
// generic driver: the dataset cache, one atomic file per path, progress and messages.
import type { ContextSource, LengthTarget, Sample, Tokenizer } from '../types.js';
import type { StreamedText } from '../cache/dataset-cache.js';

export interface GenerateLayout {
  /** The --format name, e.g. 'ruler'; also part of the dataset cache's key and file names. */
  readonly name: string;
  /** Where it stands in --format lists and messages (lower first). */
  readonly rank: number;
  /** The peer's name for `bench generate --help` ("RULER's or MemAgent's scripts"); none for the harness's own. */
  readonly peer?: string;
  /** `bench generate --help`'s words for its rows, e.g. "RULER's input/outputs/length rows". */
  readonly rows: string;
  /**
   * The layout of one file per length under the folder --out, for messages (e.g.
   * 'DIR/<tokens>/data/<task>/validation.jsonl'); absent when every length goes to the one file --out.
   */
  readonly perLength?: string;
  /** The file one length's rows go to; throws UserError for a length the layout cannot hold. */
  path(out: string, task: string, length: LengthTarget): string;
  /** Throws UserError when the task's samples have no place in this layout; called on its first sample before any
   *  file or folder is made. */
  check?(sample: Sample): void;
  /** One sample's row, fields in the peer's order (a StreamedText value is written without being joined). */
  row(sample: Sample, tokenizer: Tokenizer): Array<[string, unknown]>;
}

/** A task name as one folder or file name. */
export function taskFolder(task: string): string {
  return task.replace(/[^A-Za-z0-9._-]/g, '_');
}

interface TextStreaming {
  textPieces(): Iterable<string>;
}

/** The context's text in pieces, without joining a multi-megabyte context into one string where it can stream. */
export function contextText(c: ContextSource): Iterable<string> {
  const s = c as Partial<TextStreaming>;
  return typeof s.textPieces === 'function' ? s.textPieces() : [c.text()];
}

export function streamed(parts: Iterable<string>): StreamedText {
  return { streamed: parts };
}

export function* concat(...parts: Iterable<string>[]): Generator<string> {
  for (const p of parts) yield* p;
}
