import { test } from 'vitest';
import assert from 'node:assert/strict';
import { wordDiff, type DiffPart } from '../../../reports/view/diff.js';
import { rngFor } from '../../../harness/util/rng.js';

const side = (parts: DiffPart[], drop: DiffPart['kind']) =>
  parts
    .filter((p) => p.kind !== drop)
    .map((p) => p.text)
    .join('');

test('a word diff marks what was added and removed, and rebuilds both texts', () => {
  const parts = wordDiff('Alice wrote the book in Paris.', 'Alice wrote a book in Rome, 1987.');
  assert.deepEqual(
    parts.filter((p) => p.kind !== 'same').map((p) => `${p.kind}:${p.text.trim()}`),
    ['removed:the', 'added:a', 'removed:Paris.', 'added:Rome, 1987.'],
  );
  assert.deepEqual(wordDiff('', 'new memory'), [{ kind: 'added', text: 'new memory' }]);
  assert.deepEqual(wordDiff('same', 'same'), [{ kind: 'same', text: 'same' }]);
});

test('random edits: the parts always rebuild before and after, and unchanged words stay unmarked', () => {
  const rng = rngFor('word-diff-test');
  const vocab = ['a', 'b', 'c', 'd', 'e', 'f', 'Alice', 'Paris', '1987'];
  for (let round = 0; round < 300; round++) {
    const a = Array.from({ length: rng.below(60) }, () => vocab[rng.below(vocab.length)]);
    const b = a.filter(() => rng.below(5) !== 0);
    for (let k = rng.below(8); k > 0; k--) b.splice(rng.below(b.length + 1), 0, vocab[rng.below(vocab.length)]);
    const before = a.join(' ');
    const after = b.join(rng.below(2) ? ' ' : '\n');
    const parts = wordDiff(before, after);
    assert.equal(side(parts, 'added'), before);
    assert.equal(side(parts, 'removed'), after);
  }
});
