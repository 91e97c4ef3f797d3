// The documented generic layout (task `jsonl`, or `file:PATH`): one JSON object per line with
//   context  string            the document MemAgent chunks (used as given)
//   question string            the problem statement
//   answers  list of strings   gold answers (sub_em uses the first)
//   id       string | number   optional; recorded in the sample's metadata
//   metric   string            optional; a metric of the scorer registry (default sub_em)
// Other fields are ignored. Rows keep their own lengths: the grid is one point, `all`.
import { textContext } from '../../harness/context.js';
import { UserError } from '../../harness/errors.js';
import {
  detectFile,
  refuseOthersOptions,
  wrongTask,
  type DataContext,
  type DataFormat,
} from '../../harness/data/format.js';
import type { LengthTarget, PreparedTask, GeneratedSample, TaskDefinition, TaskEnv } from '../../harness/types.js';
import { readRowAgain, rowError, scanRows, type RowRef, type ScannedFile } from '../../harness/data/read.js';
import { bucketedTask, isDirectory, type Entry } from '../../harness/data/source.js';

export const GENERIC_FIELDS = 'context, question, answers (list of strings), optional id and metric';
export const GENERIC_DEFAULT_METRIC = 'sub_em';
export const ALL_ROWS: LengthTarget = { kind: 'native', value: 0, label: 'all' };
export const JSONL_TASK_VERSION = '1';
const JSONL_ROWS = 'jsonl';

interface GenericItem {
  ref: RowRef;
  question: string;
  answers: string[];
  id: string | number | null;
  metric: string;
}

export function prepareGeneric(
  env: TaskEnv,
  task: string,
  version: string,
  path: string,
  ctx: DataContext,
): PreparedTask {
  refuseOthersOptions(env, ctx, JSONL_ROWS, 'generic JSONL rows do not use it');
  const known = new Set(ctx.metrics.names());
  const entries: Entry<GenericItem>[] = [];
  const metrics = new Set<string>();
  const file: ScannedFile = scanRows(path, (value, ref) => {
    const bad = (what: string) => rowError(path, ref, `${what}; a row has ${GENERIC_FIELDS}`);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bad('not a JSON object');
    const r = value as Record<string, unknown>;
    for (const key of ['context', 'question', 'answers']) if (!(key in r)) throw bad(`missing field "${key}"`);
    if (typeof r.context !== 'string') throw bad('field "context" must be a string');
    if (typeof r.question !== 'string') throw bad('field "question" must be a string');
    if (!Array.isArray(r.answers) || r.answers.length === 0 || !r.answers.every((x) => typeof x === 'string'))
      throw bad('field "answers" must be a non-empty list of strings');
    if (r.id !== undefined && r.id !== null && typeof r.id !== 'string' && typeof r.id !== 'number')
      throw bad('field "id" must be a string or a number');
    let metric = GENERIC_DEFAULT_METRIC;
    if (r.metric !== undefined && r.metric !== null) {
      if (typeof r.metric !== 'string' || !known.has(r.metric)) {
        throw rowError(
          path,
          ref,
          `field "metric": unknown metric ${JSON.stringify(r.metric)}; known metrics: ${[...known].join(', ')}`,
        );
      }
      metric = r.metric;
    }
    metrics.add(metric);
    entries.push({
      length: ALL_ROWS,
      item: {
        ref,
        question: r.question,
        answers: r.answers as string[],
        id: (r.id as string | number | undefined) ?? null,
        metric,
      },
    });
  });
  const build = (length: LengthTarget, index: number, item: GenericItem): GeneratedSample => {
    const row = readRowAgain(file, item.ref) as { context: string };
    return {
      question: item.question,
      answers: item.answers,
      context: textContext(row.context, env.tokenizer),
      metric: item.metric,
      metadata: { source: file.path, line: item.ref.line, row_id: item.id, data_sha256: file.sha256 },
    };
  };
  return bucketedTask(task, entries, build, {
    metric: metrics.size === 1 ? [...metrics][0] : undefined,
    data: {
      path,
      format: JSONL_ROWS,
      files: [{ path: file.path, format: JSONL_ROWS, sha256: file.sha256, rows: file.rows }],
    },
  });
}

/** The generic layout as a task: `bench run jsonl --data FILE` or `bench run file:FILE` (read by jsonlFormat). */
export const jsonlTask: TaskDefinition = {
  name: 'jsonl',
  version: JSONL_TASK_VERSION,
  description:
    'Your own data: --data FILE (or task file:FILE) with JSONL rows {context, question, answers, id?, metric?}; sub_em unless a row names its metric',
  metric: 'sub_em',
  defaultSamples: Number.POSITIVE_INFINITY,
  defaultLengths: 'from the data',
  acceptsDocCounts: false,
  async prepare(): Promise<PreparedTask> {
    throw new UserError(
      'task jsonl reads your file: `bench run jsonl --data FILE.jsonl` or `bench run file:FILE.jsonl`',
    );
  },
};

/** Rows {context, question, answers, id?, metric?}: any row with a context and a question, so tried last. */
export const jsonlFormat: DataFormat = {
  name: JSONL_ROWS,
  title: 'generic JSONL rows',
  expected: 'generic {context, question, answers, id?, metric?}',
  matches: (r) => 'context' in r && 'question' in r,
  generic: true,
  command: (d) => `bench run jsonl --data ${d.path}`,
  reader: {
    tasks: (name) => name === 'jsonl',
    read(env, task, ctx) {
      const path = env.options.data;
      if (path === undefined) return undefined;
      if (isDirectory(path))
        throw new UserError(`task jsonl reads one file, and --data ${path} is a directory: pass the file`);
      const d = detectFile(path, ctx.dataFormats);
      if (d.format !== JSONL_ROWS) throw wrongTask('jsonl', d);
      return prepareGeneric(env, 'jsonl', task.version, path, ctx);
    },
  },
};
