import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import {
  scoreSample as scoreWith,
  scoringOptionsOf,
  type FinishedSample,
} from '../../../harness/scorers/score-sample.js';
import { getMetric, metrics } from './catalog-metrics.js';

const scoreSample = (s: FinishedSample) => scoreWith(s, metrics);
// LongBench's metrics read old records' metadata; the shared QA metrics read no options.
const classification = getMetric('classification');

const finished = (over: Partial<FinishedSample>): FinishedSample => ({
  metric: 'sub_em',
  status: 'ok',
  prediction: 'Paris',
  rawOutput: 'so the answer is Paris',
  answers: ['Paris'],
  ...over,
});

describe('scoreSample (runner and rescoring)', () => {
  it('scores the prediction, or the raw output for raw-input metrics', () => {
    assert.deepEqual(scoreSample(finished({})), {
      score: 1,
      scores: { sub_em: 1, em: 1, f1: 1, sub_em_strict: 1, empty_norm: 0 },
    });
    const niah = finished({
      metric: 'memagent_niah',
      answers: ['1234', '5678'],
      prediction: 'ignored',
      rawOutput: 'so the answer is 1234',
    });
    assert.deepEqual(scoreSample(niah), { score: 0.5, scores: { memagent_niah: 0.5 } });
  });

  it('scores errors and truncations 0 with no metrics, whatever they hold', () => {
    assert.deepEqual(scoreSample(finished({ status: 'error' })), { score: 0, scores: {} });
    assert.deepEqual(scoreSample(finished({ status: 'truncated' })), { score: 0, scores: {} });
    // A gold of '' matches any string: the status rule, not the metric, makes it 0.
    assert.deepEqual(
      scoreSample(finished({ status: 'error', metric: 'string_match_all', answers: [''], prediction: null })),
      { score: 0, scores: {} },
    );
  });

  it('passes the scoring options to the metric', () => {
    const trec = finished({ metric: 'classification', answers: ['Description'], prediction: 'Description\nLocation' });
    const allClasses = ['Description', 'Location'];
    assert.equal(scoreSample({ ...trec, scoring: { dataset: 'trec', allClasses } }).score, 1);
    assert.equal(scoreSample({ ...trec, scoring: { allClasses } }).score, 0.5);
    assert.equal(scoreSample(trec).score, 0);
  });
});

describe('scoringOptionsOf', () => {
  it("takes the record's scoring field over its metadata", () => {
    assert.deepEqual(
      scoringOptionsOf(
        { scoring: { dataset: 'trec', allClasses: null }, metadata: { dataset: 'lsht' } },
        classification,
      ),
      { dataset: 'trec', allClasses: null },
    );
  });

  it('reads dataset and all_classes (or allClasses) from the metadata of older records', () => {
    assert.deepEqual(scoringOptionsOf({ metadata: { dataset: 'trec', all_classes: ['a', 'b'] } }, classification), {
      dataset: 'trec',
      allClasses: ['a', 'b'],
    });
    assert.deepEqual(scoringOptionsOf({ metadata: { allClasses: ['a'] } }, classification), { allClasses: ['a'] });
    assert.deepEqual(scoringOptionsOf({ metadata: { dataset: 3, all_classes: null } }, classification), {});
    assert.deepEqual(scoringOptionsOf({}, classification), {});
    // A metric that reads no options takes none from metadata.
    assert.deepEqual(scoringOptionsOf({ metadata: { dataset: 'trec' } }, getMetric('sub_em')), {});
  });
});
