// MemAgent's RULER files for its general driver (taskutils/memory_eval/ruler_general.py, docs/PROTOCOLS.md §c.8):
// `{DATAROOT}/eval_{task}_{tokens}.json`, rows {index, input, context, outputs, length, ...} with the context and
// MemAgent's one-line question apart; `bench generate --format memagent` writes them for niah_* and, at token
// lengths, for ruler-hqa. The driver strips `context` and `input`; so do we. A row's grid point is the length in
// MemAgent's file name (ruler_general.py's --length picks the file by it); a file named otherwise groups its rows
// under the power of two at or above `length`, as RULER's rows are grouped.
import { textContext } from '../../harness/context.js';
import { UserError } from '../../harness/errors.js';
import type { DataFormat } from '../../harness/data/format.js';
import { readRowAgain, rowError, scanRows, type RowRef, type ScannedFile } from '../../harness/data/read.js';
import { bucketedTask, listFiles, pyStrip, type Entry } from '../../harness/data/source.js';
import { taskFolder } from '../../harness/formats/generate-layout.js';
import type { GeneratedSample, LengthTarget, PreparedTask, PromptSpec, TaskEnv } from '../../harness/types.js';
import {
  isStringList,
  LengthFiles,
  MEMAGENT_RULER,
  memagentEvalName,
  powerOfTwoAtLeast,
  rowObject,
  rowPlace,
  tokensTarget,
} from './row-files.js';

export { MEMAGENT_RULER };
export const MEMAGENT_RULER_FIELDS = 'context, input, outputs, length, index';

/** What a task makes of a row: its metric, its prompt settings and its gold answers. */
export interface MemAgentRulerRules {
  metric: string;
  prompt?(row: Record<string, unknown>): PromptSpec | undefined;
  /** Gold answers: `outputs` unless the task says otherwise (RULER-HQA rows also carry `answers`). */
  answers?(row: Record<string, unknown>): unknown;
  /** The task names in file names this task reads besides its own (ruler-hqa reads ctx-dist's). */
  alsoReads?: readonly string[];
}

/** Whether a file named for `named` is one task `task` reads. */
export function readsFileOf(task: string, named: string, rules: Pick<MemAgentRulerRules, 'alsoReads'>): boolean {
  return named === taskFolder(task) || (rules.alsoReads ?? []).some((t) => taskFolder(t) === named);
}

interface Item {
  file: ScannedFile;
  ref: RowRef;
  question: string;
  answers: string[];
  prompt?: PromptSpec;
  rowIndex: unknown;
  rowLength: number;
}

/** The task and token length MemAgent's file name gives (eval_niah_single_1_8192.json), if it has that form. */
export const memagentRulerName = memagentEvalName;

/** MemAgent's RULER files for `task` in a DATAROOT directory (eval_<task>_<tokens>.json), in name order. */
export function memagentRulerFilesIn(dir: string, task: string, rules: MemAgentRulerRules): string[] {
  return listFiles(dir, 0).filter((f) => {
    const named = memagentRulerName(f);
    return named !== undefined && readsFileOf(task, named.task, rules);
  });
}

/** MemAgent's RULER rows (already detected as such) as task `task`'s samples; every row is checked first. */
export function prepareMemAgentRuler(
  env: TaskEnv,
  task: string,
  files: string[],
  dataPath: string,
  rules: MemAgentRulerRules,
): PreparedTask {
  const byLength = new LengthFiles<Omit<Item, 'file'>>('rows');
  for (const path of files) {
    const named = memagentRulerName(path);
    if (named && !readsFileOf(task, named.task, rules))
      throw new UserError(
        `${path} is MemAgent's ${named.task} file, not ${task}: run \`bench run ${named.task} --data ${path}\``,
      );
    const fileEntries: Entry<Omit<Item, 'file'>>[] = [];
    const file = scanRows(path, (value, ref) => {
      const bad = (what: string) => rowError(path, ref, `${what}; MemAgent's RULER rows have ${MEMAGENT_RULER_FIELDS}`);
      const r = rowObject(value, bad);
      for (const key of ['context', 'input', 'outputs', 'length']) if (!(key in r)) throw bad(`missing field "${key}"`);
      if (typeof r.context !== 'string' || pyStrip(r.context) === '')
        throw bad('field "context" must be a non-empty string');
      if (typeof r.input !== 'string') throw bad('field "input" must be a string');
      const answers = rules.answers?.(r) ?? r.outputs;
      if (!isStringList(answers)) throw bad('field "outputs" must be a non-empty list of strings');
      if (!Number.isInteger(r.length) || (r.length as number) < 1)
        throw bad(`field "length" must be a positive integer, got ${JSON.stringify(r.length)}`);
      fileEntries.push({
        length: tokensTarget(named?.tokens ?? powerOfTwoAtLeast(r.length as number)),
        item: {
          ref,
          question: pyStrip(r.input),
          answers,
          prompt: rules.prompt?.(r),
          rowIndex: r.index ?? null,
          rowLength: r.length as number,
        },
      });
    });
    byLength.add(file, fileEntries);
  }
  const build = (_length: LengthTarget, _index: number, item: Item): GeneratedSample => {
    const row = readRowAgain(item.file, item.ref) as { context: string };
    return {
      question: item.question,
      answers: item.answers,
      context: textContext(pyStrip(row.context), env.tokenizer),
      metric: rules.metric,
      ...(item.prompt ? { prompt: item.prompt } : {}),
      metadata: {
        source: item.file.path,
        ...rowPlace(item.ref),
        row_index: item.rowIndex,
        row_length: item.rowLength,
        data_sha256: item.file.sha256,
      },
    };
  };
  return bucketedTask(task, byLength.entries, build, {
    metric: rules.metric,
    data: byLength.data(dataPath, MEMAGENT_RULER),
  });
}

/** Rows {index, input, context, outputs, length} of MemAgent's eval_<task>_<tokens>.json (no num_docs: those are its
 *  RULER-HQA files). Read by the niah_* tasks and by ruler-hqa, whose readers send such files here. */
export const memagentRulerFormat: DataFormat = {
  name: MEMAGENT_RULER,
  title: "MemAgent's RULER eval file (eval_<task>_<tokens>.json)",
  expected: `MemAgent's RULER {${MEMAGENT_RULER_FIELDS}}`,
  matches: (r) => 'context' in r && 'input' in r && 'outputs' in r && !('num_docs' in r),
  command: (d) => `bench run ${memagentRulerName(d.path)?.task ?? 'niah_single_1'} --data ${d.path}`,
};
