import { test } from 'vitest';
import assert from 'node:assert/strict';
import { closest, didYouMean, editDistance } from '../../harness/suggest.js';

test('editDistance: insertions, deletions, substitutions and adjacent swaps cost 1 each', () => {
  assert.equal(editDistance('', ''), 0);
  assert.equal(editDistance('abc', 'abc'), 0);
  assert.equal(editDistance('', 'abc'), 3);
  assert.equal(editDistance('abc', ''), 3);
  assert.equal(editDistance('ruler-hq', 'ruler-hqa'), 1); // insertion
  assert.equal(editDistance('sampless', 'samples'), 1); // deletion
  assert.equal(editDistance('memagint', 'memagent'), 1); // substitution
  assert.equal(editDistance('ruelr-hqa', 'ruler-hqa'), 1); // swap (plain Levenshtein: 2)
  assert.equal(editDistance('ca', 'abc'), 3); // optimal string alignment: a swapped pair is not edited again
  assert.equal(editDistance('kitten', 'sitting'), 3);
  assert.equal(editDistance('flaw', 'lawn'), 2);
});

test('editDistance is symmetric and bounded by the longer length', () => {
  const words = ['', 'a', 'ab', 'ba', 'abc', 'niah_single_1', 'niah_single_2', 'ruler-hqa', 'ctx-dist', 'lengths'];
  for (const a of words) {
    for (const b of words) {
      const d = editDistance(a, b);
      assert.equal(d, editDistance(b, a), `${a} / ${b}`);
      assert.ok(d <= Math.max(a.length, b.length));
      assert.equal(d === 0, a === b);
    }
  }
});

test('closest: a likely typo gets the nearest name; a far one gets none', () => {
  const tasks = ['ruler-hqa', 'ctx-dist', 'niah_single_1', 'niah_single_2', 'longbench/hotpotqa', 'longbench-qa'];
  assert.equal(closest('ruler-hq', tasks), 'ruler-hqa');
  assert.equal(closest('RULER-HQA', tasks), 'ruler-hqa');
  assert.equal(closest('ctxdist', tasks), 'ctx-dist');
  assert.equal(closest('niah_single_3', tasks), 'niah_single_1'); // ties go to the earlier candidate
  assert.equal(closest('longbench/hotpot', tasks), 'longbench/hotpotqa'); // a prefix of one name
  assert.equal(closest('frobnicate', tasks), undefined);
  assert.equal(closest('', tasks), undefined);
  assert.equal(closest('x', []), undefined);
  assert.equal(closest('sample', ['samples', 'seed', 'out']), 'samples');
  assert.equal(closest('niah', tasks), undefined, 'a prefix of several names is ambiguous');
});

test('didYouMean formats the suggestion, or says nothing', () => {
  assert.equal(
    didYouMean('sample', ['samples', 'seed'], (c) => `--${c}`),
    ' (did you mean --samples?)',
  );
  assert.equal(didYouMean('zzzzzz', ['samples', 'seed']), '');
  // a tie names each of the nearest (BABILong's qa21 is one edit from qa_1, qa1 and qa2)
  assert.equal(didYouMean('qa21', ['qa_1', 'qa1', 'qa2', 'qa3', 'qa20']), ' (did you mean qa_1, qa1 or qa2?)');
});
