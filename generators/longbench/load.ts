import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { DatasetMissingError, UserError } from '../../harness/errors.js';
import { datasetPath } from '../../harness/paths.js';
import { baseDataset } from './protocol.js';
import { decodeTextBytes } from '../../harness/text-file.js';

/** One line of a LongBench v1 data file (docs/PROTOCOLS.md §e.6). */
export interface LongBenchRow {
  /** The question; empty for pure summarisation. */
  input: string;
  context: string;
  answers: string[];
  /** Words (English) or characters (Chinese) of the context, as LongBench counted them. */
  length: number;
  dataset: string;
  language: string;
  all_classes: string[] | null;
  _id: string;
}

export interface LongBenchData {
  rows: LongBenchRow[];
  file: string;
  sha256: string;
  /** True for the files bundled under datasets/longbench/fixtures (not the real LongBench data). */
  fixture: boolean;
}

const FIELDS = 'input, context, answers, length, dataset, language, all_classes, _id';

/** Where a bundled fixture for `dataset` would be. */
export function fixturePath(dataset: string): string {
  return datasetPath('longbench', 'fixtures', `${dataset}.jsonl`);
}

/**
 * The file holding `dataset`: with no `data` option the bundled fixture; with a directory, `<dataset>.jsonl`
 * (else LongBench-E's `<dataset>_e.jsonl`; only that one when `e`), also looked for under `data/` as data.zip
 * unpacks; with a file, that file.
 */
export function resolveDataFile(dataset: string, data?: string, e = false): { file: string; fixture: boolean } {
  if (data === undefined) {
    const file = fixturePath(dataset);
    if (!existsSync(file)) {
      throw new DatasetMissingError(
        `no bundled fixture for LongBench '${dataset}': pass --data DIR with LongBench's ${dataset}.jsonl (THUDM/LongBench data.zip)`,
      );
    }
    return { file, fixture: true };
  }
  if (!existsSync(data))
    throw new UserError(`--data ${data} does not exist: pass a directory holding LongBench's <dataset>.jsonl files`);
  if (!statSync(data).isDirectory()) return { file: data, fixture: false };
  if (e) {
    // LongBench-E rows are a sample set of their own: only <dataset>_e.jsonl will do.
    for (const dir of [data, join(data, 'data')]) {
      const file = join(dir, `${dataset}_e.jsonl`);
      if (existsSync(file)) return { file, fixture: false };
    }
    throw new DatasetMissingError(
      `no ${dataset}_e.jsonl in ${data} (nor in its data/): pass --data DIR with LongBench-E's ${dataset}_e.jsonl`,
    );
  }
  for (const dir of [data, join(data, 'data')]) {
    for (const name of [`${dataset}.jsonl`, `${dataset}_e.jsonl`]) {
      const file = join(dir, name);
      if (existsSync(file)) return { file, fixture: false };
    }
  }
  throw new DatasetMissingError(
    `no ${dataset}.jsonl or ${dataset}_e.jsonl in ${data} (nor in its data/): pass --data DIR with LongBench's ${dataset}.jsonl`,
  );
}

function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

/** Checks one parsed line; returns what is wrong with it, or the row. */
function toRow(value: unknown): LongBenchRow | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON object';
  const r = value as Record<string, unknown>;
  for (const key of ['input', 'context', 'answers', 'length', 'dataset', 'language', 'all_classes', '_id']) {
    if (!(key in r)) return `missing field "${key}"`;
  }
  for (const key of ['input', 'context', 'dataset', 'language', '_id'] as const) {
    if (typeof r[key] !== 'string')
      return `field "${key}" must be a string, got ${JSON.stringify(r[key])?.slice(0, 40)}`;
  }
  if (!isStringArray(r.answers) || r.answers.length === 0) return 'field "answers" must be a non-empty list of strings';
  if (typeof r.length !== 'number' || !Number.isInteger(r.length) || r.length < 0)
    return `field "length" must be a non-negative integer, got ${JSON.stringify(r.length)}`;
  if (r.all_classes !== null && !isStringArray(r.all_classes))
    return 'field "all_classes" must be null or a list of strings';
  return {
    input: r.input as string,
    context: r.context as string,
    answers: r.answers,
    length: r.length,
    dataset: r.dataset as string,
    language: r.language as string,
    all_classes: r.all_classes as string[] | null,
    _id: r._id as string,
  };
}

/** Parses a LongBench JSONL text; every row must belong to `dataset` (with or without `_e`). Blank lines are skipped. */
export function parseLongBenchJsonl(text: string, file: string, dataset: string): LongBenchRow[] {
  const rows: LongBenchRow[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === '') continue;
    const where = `${file}:${i + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      throw new UserError(
        `${where}: not valid JSON (${(err as Error).message.split('\n')[0]}); expected one LongBench row per line`,
      );
    }
    const row = toRow(value);
    if (typeof row === 'string') throw new UserError(`${where}: ${row}; a LongBench v1 row has ${FIELDS}`);
    if (baseDataset(row.dataset) !== dataset) {
      throw new UserError(
        `${where}: row of dataset "${row.dataset}" in the file read for '${dataset}'; check the file name`,
      );
    }
    rows.push(row);
  }
  if (rows.length === 0) throw new UserError(`${file} holds no rows; expected LongBench's ${dataset}.jsonl`);
  return rows;
}

/** The dataset a LongBench file's first row names (base name, without `_e`), or undefined if it has none. */
function firstDataset(text: string): string | undefined {
  const first = text.split('\n').find((l) => l.trim() !== '');
  try {
    const v = first === undefined ? undefined : (JSON.parse(first) as { dataset?: unknown }).dataset;
    return typeof v === 'string' ? baseDataset(v) : undefined;
  } catch {
    return undefined;
  }
}

const cache = new Map<string, LongBenchData>();

/** Loads `dataset`'s rows in file order from the bundled fixture or the user's `--data` directory or file. */
export function loadLongBench(dataset: string, data?: string, e = false): LongBenchData {
  const { file, fixture } = resolveDataFile(dataset, data, e);
  const st = statSync(file);
  const key = `${dataset}\u0000${file}\u0000${st.size}\u0000${st.mtimeMs}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const raw = readFileSync(file);
  const text = decodeTextBytes(raw, file, `pass LongBench's ${dataset}.jsonl (UTF-8 JSON lines)`);
  if (data !== undefined && !statSync(data).isDirectory()) {
    // A single file serves only the dataset its rows name; the run's other LongBench tasks are skipped.
    const named = firstDataset(text) ?? basename(file).replace(/(_e)?\.jsonl$/, '');
    if (named !== dataset)
      throw new DatasetMissingError(
        `--data ${file} holds '${named}' rows, not '${dataset}': pass a directory with ${dataset}.jsonl`,
      );
  }
  const result: LongBenchData = {
    rows: parseLongBenchJsonl(text, file, dataset),
    file,
    sha256: createHash('sha256').update(raw).digest('hex'),
    fixture,
  };
  cache.set(key, result);
  return result;
}
