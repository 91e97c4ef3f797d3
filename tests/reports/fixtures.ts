// Synthetic SampleRecords for the report tests.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SampleRecord } from '../../harness/types.js';
import { builtinCatalog } from '../../generators/index.js';

export function record(over: Partial<SampleRecord> = {}): SampleRecord {
  const task = over.task ?? 'ruler-hqa';
  const lengthLabel = over.lengthLabel ?? '7k';
  const index = over.index ?? 0;
  return {
    id: `${task}/${lengthLabel}/${index}`,
    task,
    taskVersion: '1',
    method: 'memagent',
    model: 'local:reference-reader',
    lengthLabel,
    lengthKind: 'tokens',
    length: 7168,
    index,
    builtTokens: 7000,
    question: 'Who wrote it?',
    answers: ['Alice'],
    prediction: 'Alice',
    rawOutput: 'the answer is Alice',
    metric: 'sub_em',
    score: 1,
    scores: { sub_em: 1, em: 1, f1: 1 },
    status: 'ok',
    calls: 2,
    usage: { promptTokens: 100, completionTokens: 10 },
    elapsedMs: 5,
    metadata: {},
    ...over,
  };
}

/** A temp run directory holding the given records (and optional raw trailing text) as samples.jsonl. */
export function runDir(
  records: SampleRecord[],
  opts: { trailing?: string; manifest?: Record<string, unknown> } = {},
): string {
  const dir = mkdtempSync(join(tmpdir(), 'bench-report-test-'));
  writeFileSync(
    join(dir, 'samples.jsonl'),
    records.map((r) => JSON.stringify(r)).join('\n') + '\n' + (opts.trailing ?? ''),
  );
  if (opts.manifest) writeFileSync(join(dir, 'manifest.json'), JSON.stringify(opts.manifest));
  return dir;
}

/** The built-in families' report facets (charts, LongBench-E breakdown rows, the RULER-HQA paper table). */
export const FACETS = builtinCatalog().reportFacets.all();
