// Where every on-disk cache lives: $BENCH_CACHE_DIR, or .bench-cache in the working directory. Each cache takes its
// folder from here, so setting BENCH_CACHE_DIR moves all of them:
//   <root>/hotpot-<sha>-<tokenizer>-v<n>.bin   tokenized RULER-HQA paragraph pools (generators/ruler-hqa/pool.ts)
//   <root>/qa-docs-<dataset>-<sha>-v<n>.bin, qa-ids-<dataset>-<sha>-<tokenizer>-v<n>.bin
//                                              qa_1 / qa_2 document pools (generators/ruler/qa-store.ts)
//   <root>/datasets/...                        bench generate's dataset cache (harness/cache/dataset-cache.ts)
//   <root>/responses/...                       model response cache (harness/models/response-cache.ts)
import { join } from 'node:path';

/** $BENCH_CACHE_DIR when set and not empty, else `.bench-cache` (relative to the working directory). */
export function cacheRoot(): string {
  return process.env.BENCH_CACHE_DIR || '.bench-cache';
}

/** The tokenized paragraph pools' folder. */
export function poolCacheDir(): string {
  return cacheRoot();
}

/**
 * The folder handed to DatasetCache by `bench generate`. DatasetCache adds its own `datasets/<task>` below it, so
 * entries sit in <root>/datasets/datasets/<task>/ — the layout earlier versions wrote, kept so their caches still hit.
 */
export function datasetCacheDir(): string {
  return join(cacheRoot(), 'datasets');
}

/** The response cache's folder. */
export function responseCacheDir(): string {
  return join(cacheRoot(), 'responses');
}
