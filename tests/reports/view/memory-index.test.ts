import { test } from 'vitest';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryIndex } from '../../../reports/view/memory-index.js';
import { memoryHash } from '../../../harness/memory/trace-line.js';

const line = (sampleId: string, chunk: number, memory?: string, keyOrder = false) => {
  const l = {
    sampleId,
    method: 'memagent',
    chunk,
    tokens: 1,
    hash: memoryHash(memory ?? ''),
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
      line('a', 1),
      line('b', 1, `${big}!`),
      line('a', 2, 'third', true),
      line('b', 2),
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
