import { test } from 'vitest';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compactMemoryTrace, MemoryTraceWriter } from '../../../harness/run-dir/memory-trace.js';
import { memoryHash, type MemoryTraceLine } from '../../../harness/memory/trace-line.js';
import { KEYFRAME_EVERY, MemoryTraceDecoder, MemoryTraceEncoder } from '../../../harness/memory/trace-codec.js';
import { splitSegments } from '../../../harness/memory/memory-delta.js';

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

test('encoder and decoder: keyframes, edits and unchanged lines rebuild every memory; a gap rebuilds none', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'bench-trace-')), 'memory.jsonl');
  const w = new MemoryTraceWriter(file);
  const encoder = new MemoryTraceEncoder();
  const texts: string[] = [];
  const end = 21 + KEYFRAME_EVERY + 4;
  for (let chunk = 0; chunk < end; chunk++) {
    // Ten notes, the oldest dropped and one added per chunk; three chunks that change nothing; one rewrite that
    // keeps nothing (20), after which the notes keep nothing of it either (21).
    const notes = Array.from({ length: Math.min(chunk, 9) + 1 }, (_, i) => `#${chunk - i} note.\n`).reverse();
    const text = chunk === 20 ? 'All new.' : chunk >= 12 && chunk < 15 ? texts[11] : notes.join('');
    texts.push(text);
    w.append([
      { ...line('t/8k/0', chunk, text), memory: undefined, ...encoder.encode(chunk, text, splitSegments(text)) },
    ]);
  }
  w.close();
  const rows = read(file);
  const kind = (c: number) => (typeof rows[c].memory === 'string' ? 'full' : rows[c].delta ? 'edit' : 'same');
  const at = [0, 1, 12, 14, 15, 20, 21, 22, 21 + KEYFRAME_EVERY - 1, 21 + KEYFRAME_EVERY];
  assert.deepEqual(at.map(kind), ['full', 'edit', 'same', 'same', 'edit', 'full', 'full', 'edit', 'edit', 'full']);
  assert.ok(JSON.stringify(rows[2]).length < JSON.stringify(line('t/8k/0', 2, texts[2])).length);
  const decoder = new MemoryTraceDecoder();
  assert.deepEqual(
    rows.map((r) => decoder.next(r).memory),
    texts,
  );
  // From a line that is not a keyframe, or over a missing line, nothing is rebuilt until the next keyframe.
  const late = new MemoryTraceDecoder();
  assert.equal(late.next(rows[5]).memory, null);
  const gap = new MemoryTraceDecoder();
  for (const r of rows.slice(0, 5)) gap.next(r);
  assert.equal(gap.next(rows[6]).memory, null);
  assert.equal(gap.next(rows[7]).memory, null);
  assert.equal(gap.next(rows[20]).memory, texts[20], 'a keyframe');
  assert.equal(gap.next(rows[22]).memory, null, 'an edit of a chunk not read');
  // An edit rebuilt onto a text that is not its base is caught by the hash.
  const wrong = new MemoryTraceDecoder();
  wrong.next({ ...rows[0], memory: `X${texts[0]}`, hash: memoryHash(`X${texts[0]}`) });
  assert.equal(wrong.next(rows[1]).memory, null);
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
