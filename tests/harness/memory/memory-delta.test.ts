import { test } from 'vitest';
import assert from 'node:assert/strict';
import { applyDelta, encodeDelta, splitSegments } from '../../../harness/memory/memory-delta.js';
import { GoldMatcher, goldInMemory } from '../../../harness/memory/retention.js';
import { rngFor } from '../../../harness/util/rng.js';

const PIECES = [
  'The author is Alice Liddell.',
  '[Σίσυφος] ΟΔΟΣ ',
  'the',
  'An apple a day.',
  'no',
  'North-west',
  '#0 It was founded in 1955 and holds 3,000 volumes.',
  '',
  '  ',
  'İstanbul?',
  'x!y',
  'Mr. Smith said "the end".',
];
const SEPARATORS = ['\n', ' ', '. ', '\n\n', '', '\r\n', '\t'];

/** A memory of random pieces and separators (reproducible from `seed`). */
function memory(seed: number, n: number): string {
  const rng = rngFor(`memory-delta/${seed}`);
  let out = '';
  for (let i = 0; i < n; i++) out += PIECES[rng.below(PIECES.length)] + SEPARATORS[rng.below(SEPARATORS.length)];
  return out;
}

test('segments end after a newline or a sentence end and a space, and join back to the text', () => {
  assert.deepEqual(splitSegments('a. b\nc! d e'), ['a. ', 'b\n', 'c! ', 'd e']);
  assert.deepEqual(splitSegments(''), ['']);
  assert.deepEqual(splitSegments('a\n\nb. '), ['a\n', '\n', 'b. ']);
  for (let seed = 0; seed < 200; seed++) {
    const text = memory(seed, 30);
    assert.deepEqual(splitSegments(text), text.split(/(?<=\n|[.!?] )/));
    assert.equal(splitSegments(text).join(''), text);
  }
});

test('an edit rebuilds the next memory from the previous one, keeping its unchanged segments as runs', () => {
  const prev = splitSegments('[A]\n#0 one.\n#1 two.\n[B]\n#0 three.\n');
  const next = splitSegments('[A]\n#0 one.\n#1 two.\n[C]\n#0 new.\n[B]\n#0 three.\n');
  const delta = encodeDelta(prev, next);
  assert.deepEqual(delta, [[0, 3], '[C]\n', '#0 new.\n', [3, 2]]);
  assert.deepEqual(applyDelta(prev, delta), next);
  for (let seed = 0; seed < 200; seed++) {
    const a = splitSegments(memory(seed, 25));
    const b = splitSegments(memory(seed + 1000, 5) + a.slice(3).join('') + memory(seed + 2000, 3));
    assert.deepEqual(applyDelta(a, encodeDelta(a, b)), b, `seed ${seed}`);
  }
  // An edit of another base copies what that base lacks: no text.
  assert.equal(applyDelta(['x'], [[0, 3]]), null);
});

test('the gold matcher over segments agrees with goldInMemory over the text, memory after memory', () => {
  const answers = ['alice liddell', 'the', 'no', 'north west', 'σίσυφος', 'istanbul', 'xy', 'smith said', '1955 and'];
  const matcher = new GoldMatcher(answers);
  for (let seed = 0; seed < 300; seed++) {
    const text = memory(seed % 7 === 0 ? seed - 1 : seed, 20);
    assert.deepEqual(matcher.flags(splitSegments(text)), goldInMemory(text, answers), JSON.stringify(text));
  }
});
