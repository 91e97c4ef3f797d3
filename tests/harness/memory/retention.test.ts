import { test } from 'vitest';
import assert from 'node:assert/strict';
import { evidenceChunks, goldInMemory, holdsGold, retention } from '../../../harness/memory/retention.js';

test('gold in memory: normalised whole words, so "no" is not in "north" and case and punctuation do not matter', () => {
  assert.deepEqual(goldInMemory('The answer: Alice Smith, of the North.', ['alice smith', 'no', 'North', '']), [
    true,
    false,
    true,
    false,
  ]);
  assert.deepEqual(goldInMemory('', ['x']), [false]);
});

test('holds gold: any answer for alternatives, every answer for string_match_all metrics', () => {
  assert.equal(holdsGold([true, false], 'sub_em'), true);
  assert.equal(holdsGold([true, false], 'string_match_all'), false);
  assert.equal(holdsGold([true, true], 'memagent_niah'), true);
  assert.equal(holdsGold([], 'sub_em'), false);
});

test('evidence chunks: every window a span overlaps, a span across a boundary in both, an empty span in none', () => {
  const spans = [
    { label: 'a', start: 0, end: 10 },
    { label: 'b', start: 4990, end: 5010 },
    { label: 'c', start: 12000, end: 12000 },
    { label: 'd', start: 14999, end: 15000 },
  ];
  assert.deepEqual(evidenceChunks(spans, 5000), [0, 1, 2]);
});

test('retention: captured at the first holding chunk, lost at the first chunk after it that does not', () => {
  assert.deepEqual(retention('0011011', [2]), { evidenceChunks: [2], holds: '0011011', capturedAt: 2, lostAt: 4 });
  assert.deepEqual(retention('000', []), { evidenceChunks: [], holds: '000', capturedAt: null, lostAt: null });
  assert.deepEqual(retention('0111', [1]).lostAt, null);
});
