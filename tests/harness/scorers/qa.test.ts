import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import {
  exactMatch,
  answerF1,
  normalizeAnswer,
  normalizesToEmpty,
  subEm,
  subEmStrict,
} from '../../../harness/scorers/qa.js';

describe('normalizeAnswer (SQuAD)', () => {
  it('lowercases, drops ASCII punctuation and whole-word articles, collapses whitespace', () => {
    assert.equal(normalizeAnswer('  The  Eiffel-Tower, in  PARIS! '), 'eiffeltower in paris');
    assert.equal(normalizeAnswer('An apple and a pear; the end'), 'apple and pear end');
    assert.equal(normalizeAnswer('anapple theater'), 'anapple theater');
  });

  it('uses Python word boundaries (Unicode letters are word characters), keeps non-ASCII punctuation', () => {
    assert.equal(normalizeAnswer('éa the b'), 'éa b');
    assert.equal(normalizeAnswer('“quoted” a'), '“quoted”');
    assert.equal(normalizeAnswer('a\u00a0b\u2003the\x1cc'), 'b c');
  });
});

describe('sub_em (MemAgent, faithful) and sub_em_strict', () => {
  it('a prediction that normalises to nothing scores 1 faithfully and 0 strictly', () => {
    assert.equal(subEm('a', ['Paris']), 1);
    assert.equal(subEmStrict('a', ['Paris']), 0);
    assert.equal(normalizesToEmpty('a'), true);
    assert.equal(normalizesToEmpty('The.'), true);
    assert.equal(normalizesToEmpty('Paris'), false);
    assert.equal(normalizesToEmpty(null), false);
    assert.equal(normalizesToEmpty(''), false);
  });

  it("'no' inside 'North Atlantic': faithful 1, strict 0", () => {
    assert.equal(subEm('no', ['North Atlantic']), 1);
    assert.equal(subEmStrict('no', ['North Atlantic']), 0);
  });

  it('matches in both directions, on whole tokens for the strict variant', () => {
    assert.equal(subEm('The Eiffel Tower in Paris', ['Eiffel Tower']), 1);
    assert.equal(subEmStrict('The Eiffel Tower in Paris', ['Eiffel Tower']), 1);
    assert.equal(subEm('Paris', ['Paris, France']), 1);
    assert.equal(subEmStrict('Paris', ['Paris, France']), 1);
    assert.equal(subEm('PARIS!', ['paris']), 1);
    assert.equal(subEm('Parisian', ['Paris']), 1);
    assert.equal(subEmStrict('Parisian', ['Paris']), 0);
  });

  it('compares with answers[0] only; null, empty and no gold score 0', () => {
    assert.equal(subEm('London', ['Paris', 'London']), 0);
    assert.equal(subEm(null, ['Paris']), 0);
    assert.equal(subEm('', ['Paris']), 0);
    assert.equal(subEm('Paris', []), 0);
    assert.equal(subEmStrict(null, ['Paris']), 0);
    assert.equal(subEmStrict('London', ['Paris', 'London']), 0);
  });
});

describe('em and f1 (MemAgent driver)', () => {
  it('em compares normalised strings (faithful: two article-only strings match)', () => {
    assert.equal(exactMatch('The Paris.', ['paris']), 1);
    assert.equal(exactMatch('Paris France', ['paris']), 0);
    assert.equal(exactMatch('a', ['the']), 1);
    assert.equal(exactMatch(null, ['x']), 0);
  });

  it('em and f1 compare with answers[0] only, as the driver (item["answer"] = item["answers"][0])', () => {
    assert.equal(exactMatch('London', ['Paris', 'London']), 0);
    assert.equal(exactMatch('Paris', ['Paris', 'London']), 1);
    assert.equal(answerF1('London', ['Paris', 'London']), 0);
    assert.equal(answerF1('Paris', ['Paris', 'London']), 1);
  });

  it('f1 is token F1 with the yes/no/noanswer rule', () => {
    assert.equal(answerF1('Paris', ['Paris']), 1);
    // pred {eiffel, tower, paris}, gold {eiffel, tower}: p = 2/3, r = 1
    assert.equal(answerF1('the Eiffel Tower, Paris', ['Eiffel Tower']), (2 * (2 / 3) * 1) / (2 / 3 + 1));
    assert.equal(answerF1('yes', ['no']), 0);
    assert.equal(answerF1('yes it is', ['yes']), 0);
    // The rule applies from the prediction's side too: plain token F1 would give 2/3 here (upstream f1_score: 0).
    assert.equal(answerF1('yes', ['yes sir']), 0);
    assert.equal(answerF1('yes', ['yes']), 1);
    assert.equal(answerF1('London', ['Paris']), 0);
    assert.equal(answerF1('', ['Paris']), 0);
  });
});
