// Streaming reader for a run's samples.jsonl. A run killed mid-write leaves a torn last line; we skip it with a warning.
import { createReadStream, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { UserError } from '../harness/errors.js';
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
  if (!existsSync(runDir)) throw new UserError(`run directory not found: ${runDir} (pass a directory written by "bench run")`);
  const file = statSync(runDir).isDirectory() ? join(runDir, 'samples.jsonl') : runDir;
  if (!existsSync(file)) throw new UserError(`no samples.jsonl in ${runDir} (is this a run directory written by "bench run"?)`);
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
  return typeof r.id === 'string' && typeof r.task === 'string' && typeof r.method === 'string' && typeof r.score === 'number';
}

/**
 * Yields the records of samples.jsonl one at a time. Lines that do not parse are skipped with a warning
 * (the last one is reported as a torn line from a killed run).
 */
export async function* readRecords(runDir: string, options: ReadOptions = {}): AsyncGenerator<SampleRecord> {
  const warn = options.onWarning ?? defaultWarn;
  const file = samplesPath(runDir);
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  // Hold one bad line back: we only know whether it was the last line once the next one arrives.
  let pendingBad: number | null = null;
  let lineNo = 0;
  for await (const line of lines) {
    lineNo++;
    if (line.trim() === '') continue;
    if (pendingBad !== null) {
      warn(`${file}:${pendingBad}: skipped a line that is not valid JSON`);
      pendingBad = null;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      pendingBad = lineNo;
      continue;
    }
    if (!isRecord(parsed)) {
      warn(`${file}:${lineNo}: skipped a line that is not a sample record (needs id, task, method, score)`);
      continue;
    }
    yield parsed;
  }
  if (pendingBad !== null) warn(`${file}:${pendingBad}: skipped a torn last line (the run was probably killed while writing it)`);
}

/**
 * Reads every record of a run. A sample written twice (e.g. re-run after a resume) keeps its last version.
 */
export async function loadRecords(runDir: string, options: ReadOptions = {}): Promise<SampleRecord[]> {
  const byKey = new Map<string, SampleRecord>();
  for await (const record of readRecords(runDir, options)) {
    const key = `${record.method}\u0000${record.model}\u0000${record.id}`;
    byKey.delete(key); // keep insertion order of the latest write
    byKey.set(key, record);
  }
  return [...byKey.values()];
}
