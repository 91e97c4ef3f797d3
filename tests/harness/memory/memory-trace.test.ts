import { test } from 'vitest';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compactMemoryTrace, MemoryTraceWriter } from '../../../harness/run-dir/memory-trace.js';
import { memoryHash, type MemoryTraceLine } from '../../../harness/memory/trace-line.js';

const line = (sampleId: string, chunk: number, memory: string): MemoryTraceLine => ({
  sampleId,
  method: 'memagent',
  chunk,
  tokens: memory.length,
  hash: memoryHash(memory),
  memory,
  gold: [false],
  holds: false,
});
const read = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as MemoryTraceLine);

test('writer: an unchanged memory is written as its hash only; a changed one in full', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'bench-trace-')), 'memory.jsonl');
  const w = new MemoryTraceWriter(file);
  w.append(line('t/8k/0', 0, 'm1'));
  w.append(line('t/8k/0', 1, 'm1'));
  w.append(line('t/8k/1', 0, 'm1'));
  w.append(line('t/8k/0', 2, 'm2'));
  w.close();
  const rows = read(file);
  assert.deepEqual(
    rows.map((r) => r.memory),
    ['m1', undefined, 'm1', 'm2'],
  );
  assert.equal(rows[1].hash, memoryHash('m1'));
  // A writer opened again on the file goes on from its last hashes.
  const again = new MemoryTraceWriter(file);
  again.append(line('t/8k/0', 3, 'm2'));
  again.close();
  assert.equal(read(file)[4].memory, undefined);
});

test('compaction: finished units keep all (duplicates once), resumed ones their checkpoint chunks, restarts none', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'bench-trace-')), 'memory.jsonl');
  const rows = [
    line('done', 0, 'a'),
    line('done', 1, 'b'),
    line('done', 1, 'b'), // a duplicate
    line('resumed', 0, 'a'),
    line('resumed', 1, 'b'),
    line('resumed', 2, 'c'), // written after the last checkpoint (2 updates): redone
    line('fresh', 0, 'a'), // no checkpoint: starts over
    line('gap', 1, 'b'), // chunk 0 missing though its checkpoint says 2 updates: restarts
  ];
  writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const keep = (unit: string) =>
    ({ 'done#memagent': Infinity, 'resumed#memagent': 2, 'fresh#memagent': 0, 'gap#memagent': 2 })[unit] ?? Infinity;
  const result = compactMemoryTrace(file, keep);
  assert.deepEqual(result.restart, ['gap#memagent']);
  assert.deepEqual(
    read(file).map((r) => `${r.sampleId}:${r.chunk}`),
    ['done:0', 'done:1', 'resumed:0', 'resumed:1'],
  );
  const before = readFileSync(file);
  assert.deepEqual(compactMemoryTrace(file, keep), { dropped: 0, restart: [] });
  assert.deepEqual(readFileSync(file), before, 'a consistent file is not rewritten');
});
