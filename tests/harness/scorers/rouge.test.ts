import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import {
  pltrdyRouge,
  pltrdySentences,
  rougeLFLongBench,
  type PltrdyScores,
} from '../../../generators/longbench/rouge-pltrdy.js';
import { rougeLTextbook, rougeRecallTextbook } from '../../../generators/longbench/rouge-textbook.js';

const F = (p: number, r: number): number => 2.0 * ((p * r) / (p + r + 1e-8));

function ok(hyp: string, ref: string): PltrdyScores {
  const s = pltrdyRouge(hyp, ref);
  assert.ok(s.ok, `expected scores for ${JSON.stringify([hyp, ref])}`);
  return s;
}

describe('pltrdy ROUGE (LongBench rouge_score), hand-computed', () => {
  it('splits sentences on every dot and collapses whitespace, keeping whitespace-only pieces as empty sentences', () => {
    assert.deepEqual(pltrdySentences('U.S. is  big.\n. end'), ['U', 'S', 'is big', '', 'end']);
    assert.deepEqual(pltrdySentences('...'), []);
    assert.deepEqual(pltrdySentences(''), []);
  });

  it('the cat sat on the mat / the cat is on the mat', () => {
    const s = ok('the cat sat on the mat', 'the cat is on the mat');
    // distinct unigrams 5 and 5, shared {the, cat, on, mat}
    assert.deepEqual(s.rouge1, { p: 0.8, r: 0.8, f: F(0.8, 0.8) });
    // bigrams: shared {the cat, on the, the mat} of 5 each
    assert.deepEqual(s.rouge2, { p: 0.6, r: 0.6, f: F(0.6, 0.6) });
    // LCS "the cat on the mat" is 5 tokens but 4 distinct words; m = n = 5 distinct words
    assert.deepEqual(s.rougeL, { p: 0.8, r: 0.8, f: F(0.8, 0.8) });
    // Textbook ROUGE-L counts tokens: 5/6 both ways.
    assert.ok(Math.abs(rougeLTextbook('the cat sat on the mat', 'the cat is on the mat') - 5 / 6) < 1e-12);
  });

  it('repeated tokens count once (sets), unlike textbook ROUGE', () => {
    const s = ok('a a a a', 'a');
    assert.deepEqual(s.rouge1, { p: 1, r: 1, f: F(1, 1) });
    assert.deepEqual(s.rougeL, { p: 1, r: 1, f: F(1, 1) });
    assert.deepEqual(s.rouge2, { p: 0, r: 0, f: 0 });
    assert.ok(Math.abs(rougeLTextbook('a a a a', 'a') - 0.4) < 1e-12);
  });

  it('is case-sensitive and keeps punctuation glued to words', () => {
    const s = ok('The cat, sat.', 'the cat sat');
    // hyp words {The, "cat,", sat}; only "sat" is shared
    assert.deepEqual(s.rouge1, { p: 1 / 3, r: 1 / 3, f: F(1 / 3, 1 / 3) });
    assert.deepEqual(s.rougeL, { p: 1 / 3, r: 1 / 3, f: F(1 / 3, 1 / 3) });
    assert.equal(rougeLFLongBench('The cat, sat.', 'the cat sat'), F(1 / 3, 1 / 3));
  });

  it('scores 0 where upstream raises: empty text or only dots on either side', () => {
    assert.deepEqual(pltrdyRouge('', 'the cat'), { ok: false, reason: 'empty-hypothesis' });
    assert.deepEqual(pltrdyRouge('the cat', ''), { ok: false, reason: 'empty-reference' });
    assert.deepEqual(pltrdyRouge('...', 'the cat'), { ok: false, reason: 'empty-hypothesis' });
    assert.equal(rougeLFLongBench('', 'the cat'), 0);
    assert.equal(rougeLFLongBench('the cat', '..'), 0);
  });

  it('a whitespace-only text is one empty sentence, scored (not an exception)', () => {
    const s = ok(' ', 'a');
    assert.deepEqual(s.rougeL, { p: 0, r: 0, f: 0 });
    // hyp " . a" = sentences ['', 'a'] → words {'', a}: n = 2
    const t = ok(' . a', 'a');
    assert.deepEqual(t.rougeL, { p: 0.5, r: 1, f: F(0.5, 1) });
  });

  it('unions LCS words across sentences into one set, with upstream tie-breaking', () => {
    // ref sentences [a c], [b d] against hyp [a b], [c d]: union {a, c} ∪ {b, d}
    assert.deepEqual(ok('a b. c d', 'a c. b d').rougeL, { p: 1, r: 1, f: F(1, 1) });
    // bigrams cross sentence boundaries: hyp {ab, bc, cd} vs ref {ac, cb, bd}
    assert.deepEqual(ok('a b. c d', 'a c. b d').rouge2, { p: 0, r: 0, f: 0 });
    // ref [a b] vs hyp [b a]: the back-track keeps "b" (tie → drop a hypothesis word); ref [a] adds "a"
    assert.deepEqual(ok('b a', 'a b. a').rougeL, { p: 1, r: 1, f: F(1, 1) });
    // the same word in two reference sentences counts once: m = 1, n = 2
    assert.deepEqual(ok('x y', 'x. x').rougeL, { p: 0.5, r: 1, f: F(0.5, 1) });
  });

  it("emulates Python's recursion limit in the LCS back-track (991 calls pass, the 992nd raises)", () => {
    const words = (n: number): string => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
    assert.equal(ok(words(990), words(990)).rougeL.f, F(1, 1));
    assert.deepEqual(pltrdyRouge(words(991), words(991)), { ok: false, reason: 'recursion-limit' });
    assert.equal(rougeLFLongBench(words(991), words(991)), 0);
    const unlimited = pltrdyRouge(words(991), words(991), { recursionCallLimit: Infinity });
    assert.ok(unlimited.ok && unlimited.rougeL.f === F(1, 1));
  });
});

describe('textbook ROUGE (js-rouge)', () => {
  it('agrees with pltrdy only on dot-free, punctuation-free texts whose words are all distinct', () => {
    const same = ok('alpha beta gamma delta', 'beta delta epsilon');
    assert.ok(Math.abs(same.rougeL.f - rougeLTextbook('alpha beta gamma delta', 'beta delta epsilon')) < 1e-8);
    assert.ok(
      Math.abs(
        ok('the cat sat on the mat', 'the cat is on the mat').rougeL.f -
          rougeLTextbook('the cat sat on the mat', 'the cat is on the mat'),
      ) > 0.03,
    );
    assert.ok(
      Math.abs(ok('The cat, sat.', 'The cat sat').rougeL.f - rougeLTextbook('The cat, sat.', 'The cat sat')) > 0.05,
    );
  });

  it('gives recall with beta = Infinity and 0 for empty input', () => {
    assert.equal(rougeRecallTextbook('the cat sat', 'the cat sat on the mat', 'l'), 0.5);
    assert.equal(rougeRecallTextbook('the cat sat', 'the cat sat on the mat', 1), 0.5);
    assert.equal(rougeLTextbook('', 'the cat'), 0);
    assert.equal(rougeLTextbook('the cat', '   '), 0);
  });
});
