import { afterEach, test } from 'vitest';
import assert from 'node:assert/strict';
import { join, sep } from 'node:path';
import { DatasetCache } from '../../../harness/cache/dataset-cache.js';
import { cacheRoot, datasetCacheDir, poolCacheDir, responseCacheDir } from '../../../harness/cache/cache-root.js';
import { cacheDir as rulerHqaPoolCacheDir } from '../../../generators/ruler-hqa/pool.js';

const saved = process.env.BENCH_CACHE_DIR;
afterEach(() => {
  if (saved === undefined) delete process.env.BENCH_CACHE_DIR;
  else process.env.BENCH_CACHE_DIR = saved;
});

const under = (path: string, root: string) => path === root || path.startsWith(root + sep);

test('BENCH_CACHE_DIR moves every cache: tokenized pools, generated datasets, model responses', () => {
  const root = join(sep, 'tmp', 'elsewhere', 'cache');
  process.env.BENCH_CACHE_DIR = root;
  assert.equal(cacheRoot(), root);
  assert.equal(poolCacheDir(), root);
  assert.equal(rulerHqaPoolCacheDir(), root);
  assert.equal(datasetCacheDir(), join(root, 'datasets'));
  assert.equal(responseCacheDir(), join(root, 'responses'));
  const entry = new DatasetCache(datasetCacheDir()).pathFor(
    {
      task: 'ruler-hqa',
      taskVersion: '1',
      length: { kind: 'tokens', value: 8192, label: '8k' },
      seed: 42,
      tokenizer: 'qwen2.5',
      generator: '1',
      format: 'ruler',
      options: {},
    },
    4,
  );
  for (const p of [entry, rulerHqaPoolCacheDir(), responseCacheDir()]) assert.ok(under(p, root), p);
});

test('unset or empty: .bench-cache in the working directory, the layout earlier versions used', () => {
  delete process.env.BENCH_CACHE_DIR;
  assert.equal(cacheRoot(), '.bench-cache');
  assert.equal(datasetCacheDir(), join('.bench-cache', 'datasets'));
  assert.equal(responseCacheDir(), join('.bench-cache', 'responses'));
  process.env.BENCH_CACHE_DIR = '';
  assert.equal(poolCacheDir(), '.bench-cache');
});
