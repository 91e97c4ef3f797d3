// Which tool's layout a data file is in, decided from its first row's fields (never from the file name).
import { UserError } from '../../harness/errors.js';
import { firstRow, whereOf, type Container } from './read.js';

export type DataFormat = 'hotpotqa-dev' | 'memagent-hqa' | 'longbench' | 'ruler-niah' | 'jsonl';

/** How each format is named in messages, the grid line and the manifest. */
export const FORMAT_NAMES: Record<DataFormat, string> = {
  'hotpotqa-dev': 'HotpotQA dev (distractor) records',
  'memagent-hqa': "MemAgent's RULER-HQA eval file",
  longbench: 'LongBench v1 rows',
  'ruler-niah': "RULER's generated rows",
  jsonl: 'generic JSONL rows',
};

const has = (r: Record<string, unknown>, ...keys: string[]) => keys.every((k) => k in r);

/** The format a row's fields identify, or undefined. Order matters: the more specific layouts are tried first. */
export function formatOfRow(row: unknown): DataFormat | undefined {
  if (typeof row !== 'object' || row === null || Array.isArray(row)) return undefined;
  const r = row as Record<string, unknown>;
  // HotpotQA: {_id, question, answer, supporting_facts, context: [[title, sentences]]}.
  if (has(r, 'question', 'answer', 'supporting_facts', 'context')) return 'hotpotqa-dev';
  // MemAgent's taskutils/memory_data/different_docs_eval.py: {context, input, answers, num_docs, index}.
  if (has(r, 'context', 'input', 'answers', 'num_docs')) return 'memagent-hqa';
  // LongBench v1: {input, context, answers, length, dataset, language, all_classes, _id}.
  if (has(r, 'dataset', 'all_classes', 'context', 'answers')) return 'longbench';
  // RULER scripts/data/synthetic/niah.py: {index, input, outputs, length, length_w_model_temp, answer_prefix, ...}.
  if (has(r, 'input', 'outputs') && !('context' in r)) return 'ruler-niah';
  if (has(r, 'context', 'question')) return 'jsonl';
  return undefined;
}

export interface Detected {
  path: string;
  format: DataFormat;
  container: Container;
  /** The first row, parsed. */
  first: Record<string, unknown>;
  compressed: boolean;
}

const EXPECTED =
  "MemAgent's RULER-HQA {context, input, answers, num_docs, index}, RULER's {index, input, outputs, length, ...}, " +
  'LongBench {input, context, answers, length, dataset, language, all_classes, _id}, ' +
  'generic {context, question, answers, id?, metric?}, or HotpotQA dev records';

/** Detects a data file's format from its first row. gzip is read only for HotpotQA records (the pool). */
export function detectFile(path: string): Detected {
  const { value, container, ref, compressed } = firstRow(path, { gzip: true });
  const where = whereOf(ref);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UserError(`${path}: ${where}: not a JSON object; expected rows of ${EXPECTED}`);
  }
  const format = formatOfRow(value);
  if (!format) {
    const keys = Object.keys(value).slice(0, 12).join(', ') || 'none';
    throw new UserError(`${path}: ${where}: fields {${keys}} match no known layout; expected ${EXPECTED}`);
  }
  if (compressed && format !== 'hotpotqa-dev')
    throw new UserError(`${path} is gzip-compressed: decompress it first (gunzip -k FILE)`);
  return { path, format, container, first: value as Record<string, unknown>, compressed };
}

/** The command that runs a file of this format (for "wrong task" messages). */
export function commandFor(d: Detected, niahTask?: string): string {
  switch (d.format) {
    case 'hotpotqa-dev':
      return `bench run ruler-hqa --data ${d.path}`;
    case 'memagent-hqa':
      return `bench run ruler-hqa --data ${d.path}${Array.isArray(d.first.context) ? ' --pool hotpot_dev_distractor_v1.json' : ''}`;
    case 'longbench':
      return `bench run longbench/${String(d.first.dataset).replace(/_e$/, '')} --data ${d.path}`;
    case 'ruler-niah':
      return `bench run ${niahTask ?? 'niah_single_1'} --data ${d.path}`;
    case 'jsonl':
      return `bench run jsonl --data ${d.path}`;
  }
}

/** A UserError for a file whose format the task does not read, with the command that does. */
export function wrongTask(task: string, d: Detected, niahTask?: string): UserError {
  return new UserError(
    `${d.path} holds ${FORMAT_NAMES[d.format]}, which task ${task} does not read: run \`${commandFor(d, niahTask)}\``,
  );
}
