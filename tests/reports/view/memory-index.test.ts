import { test } from 'vitest';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryIndex } from '../../../reports/view/memory-index.js';
import { memoryHash } from '../../../harness/memory/trace-line.js';
import { KEYFRAME_EVERY, MemoryTraceEncoder } from '../../../harness/memory/trace-codec.js';
import { splitSegments } from '../../../harness/memory/memory-delta.js';

/** A line; `memory` undefined: unchanged from `same`. */
const line = (sampleId: string, chunk: number, memory?: string, keyOrder = false, same = '') => {
  const l = {
    sampleId,
    method: 'memagent',
    chunk,
    tokens: 1,
    hash: memoryHash(memory ?? same),
    ...(memory === undefined ? {} : { memory }),
    gold: [false],
    holds: false,
  };
  // Another tool's key order: found by parsing the whole line.
  const { chunk: at, ...rest } = l;
  return JSON.stringify(keyOrder ? { chunk: at, ...rest } : l);
};

test('the index finds each unit’s lines, across reads (lines longer than a read) and in any key order', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-view-index-'));
  const big = 'm'.repeat(1_500_000); // longer than the 1 MiB read
  const file = join(dir, 'memory.jsonl');
  writeFileSync(
    file,
    [
      line('a', 0, 'first'),
      line('b', 0, big),
      line('a', 1, undefined, false, 'first'),
      line('b', 1, `${big}!`),
      line('a', 2, 'third', true),
      line('b', 2, undefined, false, `${big}!`),
    ].join('\n') + '\n',
  );
  const index = MemoryIndex.build(file);
  assert.equal(index.count('a#memagent'), 3);
  assert.equal(index.count('b#memagent'), 3);
  const a = index.steps('a#memagent', 0, 10).steps;
  assert.deepEqual(
    a.map((s) => [s.chunk, s.memory, s.unchanged]),
    [
      [0, 'first', false],
      [1, 'first', true],
      [2, 'third', false],
    ],
  );
  const b = index.steps('b#memagent', 2, 1);
  assert.equal(b.before, `${big}!`);
  assert.equal(b.steps[0].memory, `${big}!`);
  assert.equal(MemoryIndex.build(join(dir, 'absent.jsonl')).count('a#memagent'), 0);
});

test('steps rebuild edited memories from the last keyframe before the page; a broken chain shows no text', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-view-index-'));
  const encoder = new MemoryTraceEncoder();
  const texts: string[] = [];
  const rows: string[] = [];
  for (let chunk = 0; chunk < 3 * KEYFRAME_EVERY; chunk++) {
    const text = Array.from({ length: 8 }, (_, i) => `Note ${Math.floor((chunk + i) / 3)}-${i}.`).join('\n');
    texts.push(text);
    const fields = { sampleId: 'a', method: 'memagent', chunk, tokens: 1, hash: memoryHash(text) };
    rows.push(
      JSON.stringify({ ...fields, ...encoder.encode(chunk, text, splitSegments(text)), gold: [], holds: false }),
    );
  }
  assert.ok(rows.filter((r) => r.includes('"delta"')).length > KEYFRAME_EVERY, 'mostly edits');
  // Unit b: the same lines with one edit line lost (chunk 5), so chunks 5..KEYFRAME_EVERY-1 cannot be rebuilt.
  const b = rows.map((r) => r.replace('"sampleId":"a"', '"sampleId":"b"')).filter((_, i) => i !== 5);
  const file = join(dir, 'memory.jsonl');
  writeFileSync(file, [...rows, ...b].join('\n') + '\n');
  const index = MemoryIndex.build(file);
  for (const from of [0, 7, KEYFRAME_EVERY - 1, KEYFRAME_EVERY + 3, 2 * KEYFRAME_EVERY + 20]) {
    const { steps, before } = index.steps('a#memagent', from, 25);
    assert.equal(before, from === 0 ? null : texts[from - 1], `before ${from}`);
    assert.deepEqual(
      steps.map((s) => s.memory),
      texts.slice(from, from + 25),
      `from ${from}`,
    );
  }
  const broken = index.steps('b#memagent', 0, 3 * KEYFRAME_EVERY).steps;
  assert.deepEqual(
    broken.map((s) => s.memory === null),
    broken.map((s) => s.chunk >= 5 && s.chunk < KEYFRAME_EVERY),
  );
});
