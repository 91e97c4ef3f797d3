import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { UserError } from '../../../harness/errors.js';
import { scorePercent } from '../../../harness/protocol/round.js';
import { longbenchMetricFor } from '../../../generators/longbench/protocol.js';
import { getMetric, metricNames, scoreAll } from './catalog-metrics.js';

describe('metric registry', () => {
  it('knows the documented metrics and rejects unknown names with a UserError', () => {
    for (const name of [
      'sub_em',
      'sub_em_strict',
      'em',
      'f1',
      'string_match_all',
      'string_match_part',
      'memagent_niah',
      'qa_f1',
      'rouge_l_f',
      'rouge_recall',
      'classification',
      'retrieval',
      'count',
      'code_sim',
    ]) {
      assert.equal(getMetric(name).name, name);
      assert.ok(getMetric(name).description.length > 10);
    }
    assert.ok(metricNames().includes('rouge_l_textbook'));
    assert.throws(
      () => getMetric('bleu'),
      (err: unknown) => err instanceof UserError && /unknown metric 'bleu'/.test(err.message),
    );
  });

  it('maps LongBench datasets (with or without _e) to metrics', () => {
    assert.equal(longbenchMetricFor('hotpotqa'), 'qa_f1');
    assert.equal(longbenchMetricFor('hotpotqa_e'), 'qa_f1');
    assert.equal(longbenchMetricFor('gov_report_e'), 'rouge_l_f');
    assert.equal(longbenchMetricFor('samsum'), 'rouge_l_f');
    assert.equal(longbenchMetricFor('trec'), 'classification');
    assert.equal(longbenchMetricFor('passage_count'), 'count');
    assert.equal(longbenchMetricFor('passage_retrieval_en_e'), 'retrieval');
    assert.equal(longbenchMetricFor('repobench-p_e'), 'code_sim');
    assert.equal(longbenchMetricFor('dureader'), 'rouge_zh');
    assert.equal(longbenchMetricFor('multifieldqa_zh'), 'qa_f1_zh');
    assert.throws(() => longbenchMetricFor('nope'), UserError);
  });

  it('scoreAll returns the headline and the extras', () => {
    assert.deepEqual(scoreAll('sub_em', 'a', ['Paris']), {
      metric: 'sub_em',
      score: 1,
      scores: { sub_em: 1, em: 0, f1: 0, sub_em_strict: 0, empty_norm: 1 },
    });
    const r = scoreAll('sub_em', 'Paris', ['Paris']);
    assert.deepEqual(r.scores, { sub_em: 1, em: 1, f1: 1, sub_em_strict: 1, empty_norm: 0 });
    assert.deepEqual(scoreAll('qa_f1', 'x', ['x']).scores, { qa_f1: 1 });
  });

  it('rouge_recall gives ROUGE-L recall with ROUGE-1/2/L r, p, f as extras', () => {
    const r = scoreAll('rouge_recall', 'the cat sat', 'the cat sat on the mat'.split('|'));
    // distinct ref words {the, cat, sat, on, mat}: L recall 3/5, precision 3/3
    assert.equal(r.score, 0.6);
    assert.equal(r.scores.rougeL_r, 0.6);
    assert.equal(r.scores.rougeL_p, 1);
    assert.equal(r.scores.rouge1_r, 0.6);
    assert.equal(r.scores.rouge2_r, 2 / 5);
    assert.equal(scoreAll('rouge_recall', '', ['x']).score, 0);
    assert.equal(scoreAll('rouge_l_f', 'the cat', ['the cat']).scores.rouge_l_textbook, 1);
  });

  it('scorePercent rounds ×100 to 2 decimals, ties to even on the exact value', () => {
    assert.equal(scorePercent('mean', 4 / 128), 3.12);
    assert.equal(scorePercent('mean', 52 / 128), 40.62);
    assert.equal(scorePercent('mean', 60 / 128), 46.88);
    assert.equal(scorePercent('mean', 1 / 3), 33.33);
    assert.equal(scorePercent('mean', 1), 100);
    assert.equal(scorePercent('mean', 0.026745), 2.67);
    // 0.12345 × 100 is 12.345 (just above the tie): Python rounds it up, numpy's scale-and-rint goes down
    assert.equal(scorePercent('mean', 0.12345), 12.35);
    assert.equal(scorePercent('numpy-mean', 0.12345), 12.34);
    assert.equal(scorePercent('numpy-mean', 4 / 128), 3.12);
  });
});
