import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import {
  baseDataset,
  LONGBENCH_E_BUCKETS,
  LONGBENCH_JIEBA_DATASETS,
  LONGBENCH_METRICS,
  longbenchEBucket,
  longbenchMetric,
  longbenchMetricProblem,
} from '../../../generators/longbench/protocol.js';
import { getMetric } from '../scorers/catalog-metrics.js';

describe('LongBench protocol tables', () => {
  it('LongBench-E buckets: < 4000 words, 4000-7999, 8000 and up, with their lower bounds', () => {
    assert.equal(longbenchEBucket(0), '0-4k');
    assert.equal(longbenchEBucket(3999), '0-4k');
    assert.equal(longbenchEBucket(4000), '4-8k');
    assert.equal(longbenchEBucket(7999), '4-8k');
    assert.equal(longbenchEBucket(8000), '8k+');
    assert.equal(longbenchEBucket(250000), '8k+');
    for (const b of LONGBENCH_E_BUCKETS) assert.equal(longbenchEBucket(b.from), b.label);
    assert.deepEqual(
      LONGBENCH_E_BUCKETS.map((b) => b.label),
      ['0-4k', '4-8k', '8k+'],
    );
  });

  it('every dataset maps to a metric of the registry, with or without _e', () => {
    for (const [dataset, metric] of Object.entries(LONGBENCH_METRICS)) {
      assert.equal(getMetric(metric).name, metric);
      assert.equal(longbenchMetric(dataset), metric);
      assert.equal(longbenchMetric(`${dataset}_e`), metric);
    }
    assert.equal(baseDataset('hotpotqa_e'), 'hotpotqa');
  });

  it('all 21 datasets have a metric, the jieba-scored ones too; unknown datasets have none and say why', () => {
    assert.equal(Object.keys(LONGBENCH_METRICS).length, 21);
    for (const dataset of LONGBENCH_JIEBA_DATASETS) assert.match(String(longbenchMetric(dataset)), /_zh$/);
    assert.equal(longbenchMetric('nope'), null);
    assert.equal(longbenchMetric('toString'), null);
    assert.match(longbenchMetricProblem('nope'), /unknown LongBench dataset 'nope'/);
  });
});
