import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { getMetric } from './catalog-metrics.js';
import {
  memagentNiah,
  postprocessRulerPred,
  stringMatchAll,
  stringMatchPart,
} from '../../../generators/ruler/metrics.js';

describe('RULER scorers', () => {
  it('post-processes: strip, control characters to newlines, strip', () => {
    assert.equal(postprocessRulerPred('  abc\x00def\x1f\t '), 'abc\ndef');
    assert.equal(postprocessRulerPred('\x07x\x7f'), 'x\x7f');
  });

  it('string_match_all is the fraction of golds found case-insensitively', () => {
    assert.equal(stringMatchAll('The numbers are 1234 and 5678', ['1234', '5678', '9999']), 2 / 3);
    assert.equal(stringMatchAll('abc-DEF', ['ABC-def']), 1);
    assert.equal(stringMatchAll('nothing', ['1234']), 0);
    assert.equal(stringMatchAll('x', []), 0);
  });

  it('string_match_part is 1 when any gold is found', () => {
    assert.equal(stringMatchPart('Answer: the Normans', ['Normandy', 'normans']), 1);
    assert.equal(stringMatchPart('Answer: Rollo', ['Normandy', 'normans']), 0);
  });

  it('registry versions post-process the prediction and treat null as empty', () => {
    assert.equal(getMetric('string_match_all').score(' 12\x0034 ', ['12', '34']), 1);
    assert.equal(getMetric('string_match_all').score(null, ['12']), 0);
    assert.equal(getMetric('string_match_part').score(null, ['12']), 0);
  });

  it('memagent_niah extracts with "the answer is" first and rounds each sample to 2 decimals', () => {
    assert.equal(memagentNiah('Found them: the answer is 1234 and 5678.', ['1234', '5678', '9999']), 0.67);
    assert.equal(memagentNiah('1234 and 5678', ['1234', '5678']), 0);
    assert.equal(memagentNiah('The answer is 1234', ['1234']), 0);
    assert.equal(memagentNiah(null, ['1234']), 0);
    assert.equal(getMetric('memagent_niah').input, 'raw');
    assert.equal(getMetric('memagent_niah').score('the answer is 1234', ['1234']), 1);
  });
});
