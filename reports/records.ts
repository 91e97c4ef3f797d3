// Streaming reader for a run's samples.jsonl (harness/run-dir/jsonl.ts, lenient): a run killed mid-write leaves a
// torn last line, which is skipped with a warning; any other line that is not JSON is an error naming file and line.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../harness/errors.js';
import { jsonlRows, tornLineMessage } from '../harness/run-dir/jsonl.js';
import { modelRecordKey } from '../harness/run-dir/record-key.js';
import type { SampleRecord } from '../harness/types.js';

export interface ReadOptions {
  /** Receives one line per skipped or suspicious line. Default: write to stderr. */
  onWarning?: (message: string) => void;
}

function defaultWarn(message: string): void {
  process.stderr.write(`warning: ${message}\n`);
}

/** Resolves `runDir` (a run directory or a samples.jsonl path) to the samples file; UserError when absent. */
export function samplesPath(runDir: string): string {
  if (!existsSync(runDir))
    throw new UserError(`run directory not found: ${runDir} (pass a directory written by "bench run")`);
  const file = statSync(runDir).isDirectory() ? join(runDir, 'samples.jsonl') : runDir;
  if (!existsSync(file))
    throw new UserError(`no samples.jsonl in ${runDir} (is this a run directory written by "bench run"?)`);
  return file;
}

/**
 * The method's output extras of a record (windows, final_memory, middle_truncated, prompt_tokens, ...): `extra`, or
 * for records written before that field existed, `metadata`, which then held generator facts and extras together.
 */
export function methodExtra(record: Pick<SampleRecord, 'extra' | 'metadata'>): Record<string, unknown> {
  return record.extra ?? record.metadata ?? {};
}

function isRecord(value: unknown): value is SampleRecord {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  return (
    typeof r.id === 'string' &&
    typeof r.task === 'string' &&
    typeof r.method === 'string' &&
    typeof r.score === 'number'
  );
}

/**
 * Yields the records of samples.jsonl one at a time. A torn last line is skipped with a warning, and so is a JSON
 * object that is not a sample record; a line that is not JSON elsewhere is a UserError naming file and line.
 */
export async function* readRecords(runDir: string, options: ReadOptions = {}): AsyncGenerator<SampleRecord> {
  const warn = options.onWarning ?? defaultWarn;
  const file = samplesPath(runDir);
  for (const { line, value } of jsonlRows(file, {
    mode: 'lenient',
    onTornLastLine: (n) => warn(tornLineMessage(file, n)),
  })) {
    if (!isRecord(value)) {
      warn(`${file}:${line}: skipped a line that is not a sample record (needs id, task, method, score)`);
      continue;
    }
    yield value;
  }
}

/**
 * Reads every record of a run. A sample written twice (e.g. re-run after a resume) keeps its last version.
 */
export async function loadRecords(runDir: string, options: ReadOptions = {}): Promise<SampleRecord[]> {
  const byKey = new Map<string, SampleRecord>();
  for await (const record of readRecords(runDir, options)) {
    const key = modelRecordKey(record);
    byKey.delete(key); // keep insertion order of the latest write
    byKey.set(key, record);
  }
  return [...byKey.values()];
}

/** Records grouped by task × method × model, in first-seen order, keeping those `pick` accepts (one chart a group). */
export function groupBySeries(records: Iterable<SampleRecord>, pick: (r: SampleRecord) => boolean): SampleRecord[][] {
  const groups = new Map<string, SampleRecord[]>();
  for (const r of records) {
    if (!pick(r)) continue;
    const key = `${r.task}\u0000${r.method}\u0000${r.model}`;
    const list = groups.get(key);
    if (list) list.push(r);
    else groups.set(key, [r]);
  }
  return [...groups.values()];
}
