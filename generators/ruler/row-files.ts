// What the readers of peers' RULER files share: RULER's rows (data-file.ts for NIAH, ruler-rows.ts for vt, cwe, fwe
// and qa) and MemAgent's eval files (memagent-data.ts for NIAH and RULER-HQA, memagent-file.ts for vt, cwe, fwe and
// qa): the checks of the fields they have in common, the grouping of rows into one file per token length, where a
// sample came from, and the data block of the manifest.
import { basename } from 'node:path';
import { UserError } from '../../harness/errors.js';
import { tokenLabel } from '../../harness/config/lengths.js';
import type { RowRef, ScannedFile } from '../../harness/data/read.js';
import type { Entry } from '../../harness/data/source.js';
import type { DataSourceInfo, LengthTarget } from '../../harness/types.js';

export const MEMAGENT_RULER = 'memagent-ruler';

/** A non-empty list of strings (gold answers). */
export function isStringList(v: unknown): v is string[] {
  return Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string');
}

/** The power of two at or above n: RULER's `length` never passes its target. */
export function powerOfTwoAtLeast(n: number): number {
  let p = 1;
  while (p < n) p *= 2;
  return p;
}

export function tokensTarget(tokens: number): LengthTarget {
  return { kind: 'tokens', value: tokens, label: tokenLabel(tokens) };
}

/** The task and token length in a MemAgent file name (eval_niah_single_1_8192.json), if it has that form. */
export function memagentEvalName(path: string): { task: string; tokens: number } | undefined {
  const m = /^eval_(.+)_(\d+)\.jsonl?$/.exec(basename(path));
  return m ? { task: m[1], tokens: Number(m[2]) } : undefined;
}

/** A row as an object, or the reader's error. */
export function rowObject(value: unknown, bad: (what: string) => Error): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bad('not a JSON object');
  return value as Record<string, unknown>;
}

/**
 * RULER's rows {index, input, outputs, length, answer_prefix, ...}: `input` a string, `outputs` a non-empty list of
 * strings, `length` a positive integer, `answer_prefix` a string when present.
 */
export function checkRulerRow(value: unknown, bad: (what: string) => Error): Record<string, unknown> {
  const r = rowObject(value, bad);
  for (const key of ['input', 'outputs', 'length']) if (!(key in r)) throw bad(`missing field "${key}"`);
  if (typeof r.input !== 'string') throw bad('field "input" must be a string');
  if (!isStringList(r.outputs)) throw bad('field "outputs" must be a non-empty list of strings');
  checkLength(r, bad);
  checkAnswerPrefix(r, bad);
  return r;
}

/** `length`, when present, a positive integer. */
export function checkLength(r: Record<string, unknown>, bad: (what: string) => Error): void {
  if (r.length !== undefined && (!Number.isInteger(r.length) || (r.length as number) < 1))
    throw bad(`field "length" must be a positive integer, got ${JSON.stringify(r.length)}`);
}

/** `answer_prefix`, when present, a string. */
export function checkAnswerPrefix(r: Record<string, unknown>, bad: (what: string) => Error): void {
  if (r.answer_prefix !== undefined && typeof r.answer_prefix !== 'string')
    throw bad('field "answer_prefix" must be a string');
}

/**
 * Rows of several files grouped by token length, one file per length: `add` refuses a length another file already
 * gave (`who` names the rows in the message: "RULER rows", "MemAgent rows", "rows").
 */
export class LengthFiles<T> {
  readonly entries: Entry<T & { file: ScannedFile }>[] = [];
  readonly scanned: ScannedFile[] = [];
  private readonly from = new Map<number, string>();
  constructor(private readonly who: string) {}

  add(file: ScannedFile, rows: ReadonlyArray<Entry<T>>): void {
    for (const e of rows) {
      const other = this.from.get(e.length.value);
      if (other !== undefined && other !== file.path)
        throw new UserError(
          `${this.who} of ${e.length.label} are in both ${other} and ${file.path}: pass one file per length`,
        );
      this.from.set(e.length.value, file.path);
      this.entries.push({ length: e.length, item: { ...e.item, file } });
    }
    this.scanned.push(file);
  }

  /** The manifest's data block: the --data path and each file read, in `format`. */
  data(path: string, format: string): DataSourceInfo {
    return {
      path,
      format,
      files: this.scanned.map((f) => ({ path: f.path, format, sha256: f.sha256, rows: f.rows })),
    };
  }
}

/** Where a sample's row stood: `line` in a JSONL file, `item` (0-based) in a JSON list. */
export function rowPlace(ref: RowRef): Record<string, number> {
  return ref.container === 'jsonl' ? { line: ref.line } : { item: ref.ordinal };
}
