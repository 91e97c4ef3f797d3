// MemAgent's RULER eval files (BytedTsinghua-SIA/MemAgent taskutils/memory_data/ruler_data_prepare.py): DATAROOT/
// eval_{task}_{length}.json, a JSON list of {index, input, context, outputs, answer_prefix, length} (no `length` for
// qa_*), read by taskutils/memory_eval/ruler_general.py. `input` is MemAgent's question (its template without a
// context slot), `context` the haystack or documents; the driver strips both (so do we) and never sends the stored
// answer prefix. Lengths come from the file name (MemAgent's `length` is tokens of the context or prompt, and fwe's can
// pass the target by up to 50); a file named otherwise uses the power of two nearest its rows' `length`. `index`
// restarts at 0 in each of MemAgent's 8 chunks, so rows are taken in file order, never joined by index. Above 2e6
// tokens qa rows hold `context` as a list of indices into the sorted distinct documents of the SQuAD (qa_1) or
// HotpotQA (qa_2) dev file, in context order (synthetic/qa.py); with that file as --pool they are rebuilt as
// ruler_general.py's set_context does (MemAgent's grid never reaches that length). Scoring is MemAgent's: memagent_niah (the answer phrase, string_match_all rounded per item) for
// NIAH, vt, cwe and fwe; sub_em against the first gold for qa_*.
import { textContext } from '../../harness/context.js';
import { DatasetMissingError, UserError } from '../../harness/errors.js';
import type { LengthTarget, PreparedTask, GeneratedSample, TaskEnv } from '../../harness/types.js';
import { detectFile, wrongTask, type DataContext, type DataFormat } from '../../harness/data/format.js';
import { readRowAgain, rowError, scanRows, type RowRef, type ScannedFile } from '../../harness/data/read.js';
import { bucketedTask, isDirectory, listFiles, pyStrip } from '../../harness/data/source.js';
import { loadHotpotQa, loadSquad } from './qa-data.js';
import type { QaDocs } from './qa-store.js';
import { RULER_TASKS } from './score-source.js';
import {
  checkAnswerPrefix,
  checkLength,
  isStringList,
  LengthFiles,
  MEMAGENT_RULER,
  memagentEvalName,
  rowObject,
  rowPlace,
  tokensTarget,
} from './row-files.js';

export { MEMAGENT_RULER };
const FIELDS = 'index, input, context, outputs, answer_prefix, length';

/** MemAgent's metric for a RULER task (ruler_general.py get_pred): sub_em for qa_*, memagent_niah otherwise. */
export function memagentRulerMetric(task: string): string {
  return task.startsWith('qa') ? 'sub_em' : 'memagent_niah';
}

/** Task and length a MemAgent file name holds: eval_{task}_{tokens}.json (optionally .jsonl), else undefined. */
export function memagentFileName(path: string): { task: string; tokens: number } | undefined {
  const named = memagentEvalName(path);
  return named && RULER_TASKS.includes(named.task) ? named : undefined;
}

/** The power of two nearest n on a log scale (MemAgent's targets are powers of two; fwe's `length` can pass it). */
export function nearestPowerOfTwo(n: number): number {
  return 2 ** Math.round(Math.log2(Math.max(1, n)));
}

interface Item {
  file: ScannedFile;
  ref: RowRef;
  question: string;
  answers: string[];
  memagentIndex: number | null;
  memagentLength: number | null;
  answerPrefix?: string;
  /** Index form (qa above 2e6 tokens): documents of the --pool file, in context order. */
  indices?: number[];
}

/** The documents MemAgent's index-form qa rows point into: the sorted distinct paragraphs of SQuAD (qa_1) or
 *  HotpotQA (qa_2), as its read_squad / read_hotpotqa build them (RULER's qa.py readers; generators/ruler/qa-data.ts). */
function poolDocs(task: string, pool: string): QaDocs {
  return (task === 'qa_1' ? loadSquad(pool) : loadHotpotQa(pool)).docs;
}

function indexContext(list: unknown[], task: string, env: TaskEnv, path: string, ref: RowRef): number[] {
  if (!task.startsWith('qa'))
    throw rowError(path, ref, 'field "context" is a list: only MemAgent\'s qa files store document indices');
  const pool = env.options.pool;
  const dataset =
    task === 'qa_1' ? 'the SQuAD v2 dev file (dev-v2.0.json)' : 'the HotpotQA dev file (hotpot_dev_distractor_v1.json)';
  if (pool === undefined)
    throw rowError(
      path,
      ref,
      `field "context" is a list of document indices (MemAgent's form above 2e6 tokens): pass ${dataset} it points into with --pool FILE`,
    );
  const size = poolDocs(task, pool).count;
  if (list.length === 0) throw rowError(path, ref, 'field "context" is an empty list');
  list.forEach((x, k) => {
    if (!Number.isInteger(x) || (x as number) < 0 || (x as number) >= size)
      throw rowError(
        path,
        ref,
        `field "context"[${k}] = ${JSON.stringify(x)} is not a document index of --pool ${pool} (${size} documents, 0..${size - 1}); was the file built from another ${task === 'qa_1' ? 'SQuAD' : 'HotpotQA'} file?`,
      );
  });
  return list as number[];
}

/** The MemAgent files for `task` under a directory (their DATAROOT): eval_{task}_{tokens}.json, up to 2 levels down. */
function filesIn(dir: string, task: string): string[] {
  const files = listFiles(dir, 2).filter((f) => memagentFileName(f)?.task === task);
  if (files.length === 0)
    throw new DatasetMissingError(
      `no MemAgent RULER data for ${task} under ${dir}: expected MemAgent's eval_${task}_{tokens}.json (ruler_data_prepare.py)`,
    );
  return files;
}

/** MemAgent RULER rows for one of our RULER tasks, from --data FILE or DIR. */
export function prepareMemAgentRuler(env: TaskEnv, task: string, ctx: DataContext): PreparedTask {
  const dataPath = env.options.data!;
  const files = isDirectory(dataPath) ? filesIn(dataPath, task) : [dataPath];
  const byLength = new LengthFiles<Omit<Item, 'file'>>('MemAgent rows');
  for (const path of files) {
    const d = detectFile(path, ctx.dataFormats);
    if (d.format !== MEMAGENT_RULER) throw wrongTask(task, d);
    const named = memagentFileName(path);
    if (named !== undefined && named.task !== task)
      throw new UserError(
        `${path} is MemAgent's ${named.task} data, not ${task}: run \`bench run ${named.task} --data ${path}\``,
      );
    const rows: Array<{ ref: RowRef; item: Omit<Item, 'file'> }> = [];
    const file = scanRows(path, (value, ref) => {
      const bad = (what: string) => rowError(path, ref, `${what}; MemAgent's RULER rows have ${FIELDS}`);
      const r = rowObject(value, bad);
      for (const key of ['input', 'context', 'outputs']) if (!(key in r)) throw bad(`missing field "${key}"`);
      if (typeof r.input !== 'string') throw bad('field "input" must be a string');
      let indices: number[] | undefined;
      if (Array.isArray(r.context)) {
        indices = indexContext(r.context, task, env, path, ref);
      } else if (typeof r.context !== 'string')
        throw bad('field "context" must be a string or a list of document indices');
      else if (pyStrip(r.context) === '') throw bad('field "context" is empty');
      if (!isStringList(r.outputs)) throw bad('field "outputs" must be a non-empty list of strings');
      checkLength(r, bad);
      if (r.index !== undefined && r.index !== null && !Number.isInteger(r.index))
        throw bad(`field "index" must be an integer, got ${JSON.stringify(r.index)}`);
      checkAnswerPrefix(r, bad);
      rows.push({
        ref,
        item: {
          ref,
          question: pyStrip(r.input),
          answers: r.outputs,
          memagentIndex: (r.index as number | null | undefined) ?? null,
          memagentLength: (r.length as number | undefined) ?? null,
          answerPrefix: r.answer_prefix as string | undefined,
          indices,
        },
      });
    });
    let tokens = named?.tokens;
    if (tokens === undefined) {
      const first = rows.find((r) => r.item.memagentLength !== null);
      if (!first)
        throw new UserError(
          `${path}: its rows have no "length" and its name is not MemAgent's eval_${task}_{tokens}.json: rename it so, e.g. eval_${task}_8192.json`,
        );
      tokens = nearestPowerOfTwo(first.item.memagentLength!);
    }
    const length = tokensTarget(tokens);
    byLength.add(
      file,
      rows.map((r) => ({ length, item: r.item })),
    );
  }
  const metric = memagentRulerMetric(task);
  const build = (_length: LengthTarget, _index: number, item: Item): GeneratedSample => {
    // ruler_general.py set_context: `Document {i}:\n{doc}` blocks (i from 1) joined by blank lines.
    const text = item.indices
      ? item.indices.map((d, i) => `Document ${i + 1}:\n${poolDocs(task, env.options.pool!).text(d)}`).join('\n\n')
      : (readRowAgain(item.file, item.ref) as { context: string }).context;
    return {
      question: item.question,
      answers: item.answers,
      context: textContext(pyStrip(text), env.tokenizer),
      metric,
      prompt: item.answerPrefix !== undefined ? { answerPrefix: item.answerPrefix } : undefined,
      metadata: {
        source: item.file.path,
        ...rowPlace(item.ref),
        memagent_index: item.memagentIndex,
        memagent_length: item.memagentLength,
        ...(item.indices ? { form: 'index', documents: item.indices.length } : {}),
        data_sha256: item.file.sha256,
      },
    };
  };
  return bucketedTask(task, byLength.entries, build, { metric, data: byLength.data(dataPath, MEMAGENT_RULER) });
}

/** MemAgent's eval_{task}_{length}.json rows {index, input, context, outputs, answer_prefix, length}. Read by the
 *  RULER tasks' --data reader (data-file.ts), which tells them from RULER's own rows. */
export const memagentRulerFormat: DataFormat = {
  name: MEMAGENT_RULER,
  title: "MemAgent's RULER eval file",
  expected: `MemAgent's RULER {${FIELDS}}`,
  // Not RULER-HQA's rows (num_docs); bench generate --format memagent writes `answers` beside `outputs`.
  matches: (r) => ['input', 'context', 'outputs'].every((k) => k in r) && !('num_docs' in r),
  command: (d) => `bench run ${memagentFileName(d.path)?.task ?? 'vt'} --data ${d.path}`,
};
