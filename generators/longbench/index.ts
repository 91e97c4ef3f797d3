import { textContext } from '../../harness/context.js';
import { UserError } from '../../harness/errors.js';
import { LONGBENCH_DECODING, longbenchEBucket, longbenchMetric, longbenchMetricProblem } from './protocol.js';
import type { LengthTarget, PreparedTask, GeneratedSample, TaskDefinition, TaskEnv } from '../../harness/types.js';
import { fixturePath, loadLongBench, type LongBenchRow } from './load.js';
import { existsSync, readFileSync } from 'node:fs';
import { retrievalEvidence } from './retrieval-evidence.js';
import {
  fullContextTemplate,
  instructionOf,
  LONGBENCH_CODE_DATASETS,
  LONGBENCH_DATASETS,
  LONGBENCH_E_DATASETS,
  LONGBENCH_FEWSHOT_DATASETS,
  LONGBENCH_NO_CHAT_TEMPLATE,
  LONGBENCH_QA_DATASETS,
  LONGBENCH_SUM_DATASETS,
  LONGBENCH_SYNTHETIC_DATASETS,
  LONGBENCH_ZH_DATASETS,
  maxNewTokens,
  type LongBenchDataset,
} from './prompts.js';

/** 2: full-context prompts follow pred.py (raw question, int(max/2) ids kept at each end) and decode greedily. */
export const LONGBENCH_VERSION = '2';

/** The metric LongBench v1 scores `dataset` with (generators/longbench/protocol.ts). */
function metricOf(dataset: LongBenchDataset): string {
  const metric = longbenchMetric(dataset);
  if (metric === null) throw new UserError(longbenchMetricProblem(dataset));
  return metric;
}

/** The problem statement the methods see: the row's question, or the dataset's instruction when it has none. */
export function questionOf(row: LongBenchRow, dataset: LongBenchDataset): string {
  return row.input.trim() !== '' ? row.input : instructionOf(dataset);
}

function prepare(env: TaskEnv, name: string, dataset: LongBenchDataset, e: boolean): PreparedTask {
  const data = loadLongBench(dataset, env.options.data, e);
  const metric = metricOf(dataset);
  const fullContext = fullContextTemplate(dataset);
  const maxTokens = maxNewTokens(dataset);
  return {
    ...(env.options.data !== undefined
      ? {
          data: {
            path: env.options.data,
            format: 'longbench',
            files: [{ path: data.file, format: 'longbench', sha256: data.sha256, rows: data.rows.length }],
          },
        }
      : {}),
    maxSamples: () => data.rows.length,
    build(length: LengthTarget, index: number): GeneratedSample {
      const row = data.rows[index];
      if (!row)
        throw new UserError(`${name} has ${data.rows.length} samples in ${data.file}; index ${index} is out of range`);
      const evidence = dataset.startsWith('passage_retrieval')
        ? retrievalEvidence(row.context, row.answers, env.tokenizer)
        : [];
      return {
        question: questionOf(row, dataset),
        answers: row.answers,
        context: textContext(row.context, env.tokenizer),
        ...(evidence.length > 0 ? { evidence } : { evidenceNote: LONGBENCH_NO_EVIDENCE }),
        metric,
        // A LongBench-E sample is scored and exported as `<dataset>_e` (pred_e/ for eval.py --e).
        scoring: { dataset: e ? `${dataset}_e` : row.dataset, allClasses: row.all_classes },
        // pred.py: prompt_format.format(**json_obj) on the raw fields, middle truncation keeping int(max/2) ids at
        // each end, greedy decoding (docs/PROTOCOLS.md §e.6). MemAgent's prompts still strip the question (§e.4).
        prompt: {
          fullContext,
          maxNewTokens: maxTokens,
          answerFormat: 'raw',
          truncation: 'halves',
          questionFill: 'raw',
          decoding: LONGBENCH_DECODING,
        },
        metadata: {
          dataset: row.dataset,
          _id: row._id,
          length: row.length,
          language: row.language,
          all_classes: row.all_classes,
          longbench_e_bucket: longbenchEBucket(row.length),
          // pred.py applies the model's chat template except for trec, triviaqa, samsum, lsht, lcc, repobench-p; bench
          // sends one user message unless the run is --api completions (docs/PROTOCOLS.md §e.6, e.9).
          chat_template: !LONGBENCH_NO_CHAT_TEMPLATE.has(dataset),
          ...(e ? { longbench_e: true } : {}),
          data_sha256: data.sha256,
          fixture: data.fixture,
        },
      };
    },
  };
}

/** LongBench's rows give the context and the answers, not where in the context the answer rests. */
export const LONGBENCH_NO_EVIDENCE =
  "LongBench's rows do not say where in the context the answer's evidence lies, so no chunk is marked.";

/** Rows of the fixture bundled for `dataset` (datasets/longbench/fixtures), 0 when there is none. */
function fixtureRows(dataset: LongBenchDataset): number {
  const file = fixturePath(dataset);
  return existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '').length
    : 0;
}

/** What a bundled fixture's rows are (datasets/longbench/README.md), in `bench tasks`. */
const FIXTURE_SOURCE: Partial<Record<LongBenchDataset, string>> = {
  hotpotqa: "LongBench-style rows built from HotpotQA, not LongBench's rows",
  multi_news: "LongBench's first 5 rows",
  multifieldqa_zh: "LongBench's first 3 rows",
  passage_retrieval_zh: "LongBench's first 3 rows",
};

/** What each dataset asks for, in `bench tasks`. */
function kindOf(dataset: LongBenchDataset): string {
  const zh = (LONGBENCH_ZH_DATASETS as readonly string[]).includes(dataset) ? 'Chinese ' : '';
  if (dataset === 'lsht') return 'Chinese few-shot news classification';
  if (dataset === 'passage_retrieval_zh') return 'Chinese synthetic passage retrieval';
  if ((LONGBENCH_QA_DATASETS as readonly string[]).includes(dataset) || dataset === 'multifieldqa_zh') return `${zh}QA`;
  if (dataset === 'dureader') return 'Chinese multi-document QA';
  if ((LONGBENCH_SUM_DATASETS as readonly string[]).includes(dataset) || dataset === 'vcsum')
    return `${zh}summarisation`;
  if ((LONGBENCH_FEWSHOT_DATASETS as readonly string[]).includes(dataset)) return 'few-shot';
  if ((LONGBENCH_SYNTHETIC_DATASETS as readonly string[]).includes(dataset)) return 'synthetic';
  return 'code completion';
}

/** LongBench's row counts: 200 per dataset, except multifieldqa_en (150), lcc and repobench-p (500). */
function fullSize(dataset: LongBenchDataset): number {
  return dataset === 'multifieldqa_en' ? 150 : dataset === 'lcc' || dataset === 'repobench-p' ? 500 : 200;
}

function task(dataset: LongBenchDataset, e = false): TaskDefinition {
  const name = e ? `longbench/${dataset}_e` : `longbench/${dataset}`;
  const bundled = existsSync(fixturePath(dataset));
  const what = e
    ? `LongBench-E ${dataset}_e (${kindOf(dataset)}), scored ${metricOf(dataset)} per 0-4k/4-8k/8k+ bucket; ${bundled ? 'the v1 fixture, or ' : ''}--data DIR with ${dataset}_e.jsonl`
    : `LongBench v1 ${dataset} (${kindOf(dataset)}), documents at their own lengths, scored ${metricOf(dataset)}; ${bundled ? 'bundled fixture or ' : ''}--data DIR`;
  return {
    name,
    version: LONGBENCH_VERSION,
    description: what,
    metric: metricOf(dataset),
    // LongBench-E's row counts differ per dataset; every row of the file runs.
    defaultSamples: e ? Number.POSITIVE_INFINITY : fullSize(dataset),
    defaultLengths: 'native',
    acceptsDocCounts: false,
    nativeLengths: true,
    bundled: () => ({ rows: fixtureRows(dataset), fixture: true, source: FIXTURE_SOURCE[dataset] }),
    decoding: LONGBENCH_DECODING,
    async prepare(env) {
      return prepare(env, name, dataset, e);
    },
  };
}

const named = (datasets: readonly string[], suffix = '') => datasets.map((d) => `longbench/${d}${suffix}`);

export const longbenchTasks: TaskDefinition[] = [
  ...LONGBENCH_DATASETS.map((d) => task(d)),
  ...LONGBENCH_E_DATASETS.map((d) => task(d, true)),
];

export const longbenchGroups: Record<string, string[]> = {
  'longbench-qa': named(LONGBENCH_QA_DATASETS),
  'longbench-sum': named(LONGBENCH_SUM_DATASETS),
  'longbench-zh': named(LONGBENCH_ZH_DATASETS),
  'longbench-fewshot': named([...LONGBENCH_FEWSHOT_DATASETS, 'lsht']),
  'longbench-synthetic': named([...LONGBENCH_SYNTHETIC_DATASETS, 'passage_retrieval_zh']),
  'longbench-code': named(LONGBENCH_CODE_DATASETS),
  longbench: named(LONGBENCH_DATASETS),
  // pred.py's split by chat template (§e.6, D33): `bench run longbench-raw --api completions` sends those six raw.
  'longbench-chat': named(LONGBENCH_DATASETS.filter((d) => !LONGBENCH_NO_CHAT_TEMPLATE.has(d))),
  'longbench-raw': named(LONGBENCH_DATASETS.filter((d) => LONGBENCH_NO_CHAT_TEMPLATE.has(d))),
  'longbench-e': named(LONGBENCH_E_DATASETS, '_e'),
};
