import { textContext } from '../../harness/context.js';
import { UserError } from '../../harness/errors.js';
import { LONGBENCH_DECODING, longbenchEBucket, longbenchMetric, longbenchMetricProblem } from './protocol.js';
import type { LengthTarget, PreparedTask, GeneratedSample, TaskDefinition, TaskEnv } from '../../harness/types.js';
import { fixturePath, loadLongBench, type LongBenchRow } from './load.js';
import { existsSync, readFileSync } from 'node:fs';
import {
  fullContextTemplate,
  instructionOf,
  LONGBENCH_QA_DATASETS,
  LONGBENCH_SUM_DATASETS,
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

function prepare(env: TaskEnv, name: string, dataset: LongBenchDataset): PreparedTask {
  const data = loadLongBench(dataset, env.options.data);
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
      return {
        question: questionOf(row, dataset),
        answers: row.answers,
        context: textContext(row.context, env.tokenizer),
        metric,
        scoring: { dataset: row.dataset, allClasses: row.all_classes },
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
          data_sha256: data.sha256,
          fixture: data.fixture,
        },
      };
    },
  };
}

/** Rows of the fixture bundled for `dataset` (datasets/longbench/fixtures), 0 when there is none. */
function fixtureRows(dataset: LongBenchDataset): number {
  const file = fixturePath(dataset);
  return existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '').length
    : 0;
}

function task(dataset: LongBenchDataset, kind: 'QA' | 'summarisation'): TaskDefinition {
  const name = `longbench/${dataset}`;
  return {
    name,
    version: LONGBENCH_VERSION,
    description: `LongBench v1 ${dataset} (${kind}), documents at their own lengths, scored ${metricOf(dataset)}; bundled fixture or --data DIR`,
    metric: metricOf(dataset),
    defaultSamples: dataset === 'multifieldqa_en' ? 150 : 200,
    defaultLengths: 'native',
    acceptsDocCounts: false,
    nativeLengths: true,
    bundled: () => ({ rows: fixtureRows(dataset), fixture: true }),
    decoding: LONGBENCH_DECODING,
    async prepare(env) {
      return prepare(env, name, dataset);
    },
  };
}

export const longbenchTasks: TaskDefinition[] = [
  ...LONGBENCH_QA_DATASETS.map((d) => task(d, 'QA')),
  ...LONGBENCH_SUM_DATASETS.map((d) => task(d, 'summarisation')),
];

export const longbenchGroups: Record<string, string[]> = {
  'longbench-qa': LONGBENCH_QA_DATASETS.map((d) => `longbench/${d}`),
  'longbench-sum': LONGBENCH_SUM_DATASETS.map((d) => `longbench/${d}`),
};
