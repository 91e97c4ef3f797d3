// LongBench v1 protocol tables (THUDM/LongBench LongBench/eval.py; docs/PROTOCOLS.md §e.2, §e.6): the metric each dataset is
// scored with, its decoding, and LongBench-E's length buckets. Shared by the LongBench generator, metrics and layouts.
import { UserError } from '../../harness/errors.js';
import type { Decoding } from '../../harness/types.js';

/**
 * LongBench's pred.py: model.generate(num_beams=1, do_sample=False, temperature=1.0): greedy decoding (the
 * temperature argument is ignored without sampling). Sent to an OpenAI-compatible server as temperature 0, top_p 1.
 */
export const LONGBENCH_DECODING: Readonly<Decoding> = Object.freeze({ temperature: 0, topP: 1 });

/** LongBench dataset name without the LongBench-E `_e` suffix. */
export function baseDataset(dataset: string): string {
  return dataset.endsWith('_e') ? dataset.slice(0, -2) : dataset;
}

/** eval.py's dataset2metric, as names of our metric registry (harness/scorers). */
export const LONGBENCH_METRICS: Readonly<Record<string, string>> = {
  narrativeqa: 'qa_f1',
  qasper: 'qa_f1',
  multifieldqa_en: 'qa_f1',
  multifieldqa_zh: 'qa_f1_zh',
  hotpotqa: 'qa_f1',
  '2wikimqa': 'qa_f1',
  musique: 'qa_f1',
  triviaqa: 'qa_f1',
  dureader: 'rouge_zh',
  gov_report: 'rouge_l_f',
  qmsum: 'rouge_l_f',
  multi_news: 'rouge_l_f',
  vcsum: 'rouge_zh',
  samsum: 'rouge_l_f',
  trec: 'classification',
  lsht: 'classification',
  passage_count: 'count',
  passage_retrieval_en: 'retrieval',
  passage_retrieval_zh: 'retrieval_zh',
  lcc: 'code_sim',
  'repobench-p': 'code_sim',
};

/** Datasets LongBench scores on jieba word segmentation (generators/longbench/jieba.ts). */
export const LONGBENCH_JIEBA_DATASETS: ReadonlySet<string> = new Set(['multifieldqa_zh', 'dureader', 'vcsum']);

/** The registry metric LongBench v1 uses for a dataset (`hotpotqa` or `hotpotqa_e`); null when we cannot score it. */
export function longbenchMetric(dataset: string): string | null {
  return Object.hasOwn(LONGBENCH_METRICS, baseDataset(dataset)) ? LONGBENCH_METRICS[baseDataset(dataset)] : null;
}

/** Why longbenchMetric(dataset) is null, as a sentence for the user. */
export function longbenchMetricProblem(dataset: string): string {
  return `unknown LongBench dataset '${dataset}'; known: ${Object.keys(LONGBENCH_METRICS).join(', ')}`;
}

/** The registry metric LongBench v1 uses for a dataset (`hotpotqa` or `hotpotqa_e`); UserError when it has none. */
export function longbenchMetricFor(dataset: string): string {
  const metric = longbenchMetric(dataset);
  if (metric === null) throw new UserError(longbenchMetricProblem(dataset));
  return metric;
}

/** LongBench-E's buckets over a row's own `length` (words; characters for Chinese), in order, with lower bounds. */
export const LONGBENCH_E_BUCKETS = [
  { label: '0-4k', from: 0 },
  { label: '4-8k', from: 4000 },
  { label: '8k+', from: 8000 },
] as const;

export type LongBenchEBucket = (typeof LONGBENCH_E_BUCKETS)[number]['label'];

/** eval.py's LongBench-E bucketing: 0-4k (< 4000), 4-8k (< 8000), 8k+. */
export function longbenchEBucket(length: number): LongBenchEBucket {
  return length < 4000 ? '0-4k' : length < 8000 ? '4-8k' : '8k+';
}
