// RULER's generated NIAH data (NVIDIA/RULER scripts/data/synthetic/niah.py via scripts/data/prepare.py):
// `{save_dir}/{task}/validation.jsonl`, one row {index, input, outputs, length, length_w_model_temp, answer_prefix,
// token_position_answer} per sample. `input` is the whole prompt with the model template around RULER's NIAH
// template and the answer prefix cut off:
//   [template head]{preamble}\n{haystack}\n{question}[template tail]
// MemAgent needs the haystack and the question apart. We split `input` at RULER's NIAH template markers: the
// preamble sentence ("Some special magic {type} are hidden within the following text. Make sure to memorize it. I
// will quiz you about the {type} afterwards.", singular "A ... is ..." form included) and the LAST question
// sentence ("What are all the special magic {type} for {query} mentioned in the provided text?" / "What is the
// special magic ..."); the haystack is what lies between them, less the one separator character on each side ("\n",
// or " " in files made with --remove_newline_tab). The sample's question is MemAgent's one-line input built from the
// preamble and the question (as our own NIAH tasks, docs/PROTOCOLS.md D13); model-template text before the preamble and after the question is
// dropped and its length recorded. A row without the markers (vt, cwe, fwe, qa rows) is refused at load time.
// Lengths: a row's `length` is RULER's count of prompt + generation tokens in RULER's tokenizer, never above the
// target, so rows are grouped under the power of two at or above it (RULER's and MemAgent's targets are powers of
// two); each record's builtTokens is recounted with the run's tokenizer. Metric: RULER's string_match_all.
import { basename, dirname, sep } from 'node:path';
import { textContext } from '../../harness/context.js';
import { DatasetMissingError, UserError } from '../../harness/errors.js';
import type { LengthTarget, PreparedTask, GeneratedSample, TaskEnv } from '../../harness/types.js';
import { modelTemplateAround } from '../../harness/protocol/ruler-templates.js';
import { niahFlavour } from './index.js';
import { NIAH_SPECS, TOKENS_TO_GENERATE } from './spec.js';
import {
  detectFile,
  refuseOthersOptions,
  wrongTask,
  type DataContext,
  type DataFormat,
} from '../../harness/data/format.js';
import { readRowAgain, rowError, scanRows, type RowRef, type ScannedFile } from '../../harness/data/read.js';
import { bucketedTask, isDirectory, listFiles, type Entry } from '../../harness/data/source.js';
import { memagentFileName, prepareMemAgentRuler } from './memagent-file.js';
import { checkRulerRow, LengthFiles, MEMAGENT_RULER, powerOfTwoAtLeast, tokensTarget } from './row-files.js';
import { otherTask, prepareRulerSynthetic, rulerKindOf } from './ruler-rows.js';
import { RULER_TASKS } from './score-source.js';

export const RULER_METRIC = 'string_match_all';
const RULER_NIAH = 'ruler-niah';
const RULER_FIELDS = 'index, input, outputs, length (and length_w_model_temp, answer_prefix, token_position_answer)';

const PREAMBLE =
  /(?:Some|A) special magic (\S+) (?:are|is) hidden within the following text\. Make sure to memorize it\. I will quiz you about the \1 afterwards\./;
const QUESTION_STARTS = ['What are all the special magic ', 'What is the special magic '];
const QUESTION_END = ' mentioned in the provided text?';

export interface RulerSplit {
  preamble: string;
  haystack: string;
  question: string;
  /** The separator between preamble / haystack / question: "\n", or " " in --remove_newline_tab files. */
  separator: string;
  /** Characters of model-template text before the preamble and after the question. */
  prefixChars: number;
  suffixChars: number;
  /** The needle value type as RULER wrote it (numbers, number, uuids, ...). */
  valueType: string;
}

/** MemAgent's one-line NIAH input from RULER's parts: the preamble without its "I will quiz you" sentence, a space,
 *  the question (as our own NIAH tasks ask it, docs/PROTOCOLS.md D13). */
export function memagentQuestion(split: Pick<RulerSplit, 'preamble' | 'question'>): string {
  return `${split.preamble.replace(/ I will quiz you about the \S+ afterwards\.$/, '')} ${split.question}`;
}

/** Splits a RULER NIAH `input` into preamble, haystack and question, or returns what is wrong. */
export function splitRulerInput(input: string): RulerSplit | string {
  const pre = PREAMBLE.exec(input);
  if (!pre)
    return 'RULER\'s NIAH preamble ("… special magic … hidden within the following text. Make sure to memorize it. …") is not in it';
  const preEnd = pre.index + pre[0].length;
  let qStart = -1;
  for (const s of QUESTION_STARTS) qStart = Math.max(qStart, input.lastIndexOf(s));
  if (qStart < preEnd)
    return 'RULER\'s NIAH question ("What are all the special magic … mentioned in the provided text?") does not follow the preamble';
  const qEnd = input.indexOf(QUESTION_END, qStart);
  if (qEnd < 0) return 'RULER\'s NIAH question does not end with "mentioned in the provided text?"';
  const questionEnd = qEnd + QUESTION_END.length;
  const sep1 = input[preEnd];
  const sep2 = input[qStart - 1];
  if ((sep1 !== '\n' && sep1 !== ' ') || sep2 !== sep1 || qStart - 1 <= preEnd)
    return 'no haystack between the NIAH preamble and question';
  const haystack = input.slice(preEnd + 1, qStart - 1);
  if (haystack.trim() === '') return 'the haystack between the NIAH preamble and question is empty';
  return {
    preamble: pre[0],
    haystack,
    question: input.slice(qStart, questionEnd),
    separator: sep1,
    prefixChars: pre.index,
    suffixChars: input.length - questionEnd,
    valueType: pre[1],
  };
}

/** The power of two at or above n (n ≥ 1); here for the callers that had it from this file. */
export { powerOfTwoAtLeast } from './row-files.js';

interface RulerItem {
  file: ScannedFile;
  ref: RowRef;
  question: string;
  answers: string[];
  rulerIndex: unknown;
  rulerLength: number;
  answerPrefix?: string;
}

const NIAH_NAMES = NIAH_SPECS.map((s) => s.name);

/** The RULER task a RULER path names (`…/data/{task}/validation.jsonl` or `{task}.jsonl`), if any. */
export function rulerTaskInPath(path: string): string | undefined {
  const parts = path.split(sep);
  const file = basename(path).replace(/\.jsonl?$/, '');
  return [file, ...parts.slice(0, -1).reverse()].find((p) => RULER_TASKS.includes(p));
}

function rulerFilesUnder(dir: string, task: string): string[] {
  return listFiles(dir, 6).filter(
    (f) => f.endsWith('.jsonl') && (basename(dirname(f)) === task || basename(f) === `${task}.jsonl`),
  );
}

/** The RULER files for `task` under a --data directory: `…/{task}/*.jsonl` or `{task}.jsonl`, up to 6 levels down. */
function rulerFilesIn(dir: string, task: string): string[] {
  const files = rulerFilesUnder(dir, task);
  if (files.length === 0) {
    throw new DatasetMissingError(
      `no RULER data for ${task} under ${dir}: expected RULER's {length}/data/${task}/validation.jsonl (or ${task}.jsonl) or MemAgent's eval_${task}_{tokens}.json`,
    );
  }
  return files;
}

/** RULER NIAH rows for one of our niah_* tasks, from --data FILE or DIR. */
export function prepareRulerNiah(env: TaskEnv, task: string, version: string, ctx: DataContext): PreparedTask {
  const dataPath = env.options.data!;
  refuseOthersOptions(env, ctx, RULER_NIAH, `${task} with RULER data does not use it`);
  const files = isDirectory(dataPath) ? rulerFilesIn(dataPath, task) : [dataPath];
  // --flavour ruler (and --protocol ruler): the one-shot prompt is RULER's own and is scored on the raw reply, as for
  // our own niah_* samples in RULER's flavour; the samples are the same either way.
  const ruler = niahFlavour(env.options) === 'ruler';
  const byLength = new LengthFiles<Omit<RulerItem, 'file'>>('RULER rows');
  for (const path of files) {
    const named = rulerTaskInPath(path);
    const d = detectFile(path, ctx.dataFormats);
    if (d.format !== RULER_NIAH) throw wrongTask(task, d);
    if (named !== undefined && named !== task)
      throw new UserError(`${path} is RULER's ${named} data, not ${task}: run \`bench run ${named} --data ${path}\``);
    const fileEntries: Entry<Omit<RulerItem, 'file'>>[] = [];
    const file = scanRows(path, (value, ref) => {
      const r = checkRulerRow(value, (what) => rowError(path, ref, `${what}; RULER's rows have ${RULER_FIELDS}`));
      const split = splitRulerInput(r.input as string);
      if (typeof split === 'string') {
        const kind = rulerKindOf(r.input as string);
        throw rowError(
          path,
          ref,
          kind !== null && kind !== 'niah'
            ? `field "input": ${otherTask(kind, task)}`
            : `field "input": ${split}; only RULER's NIAH rows can be split into haystack and question for MemAgent`,
        );
      }
      fileEntries.push({
        length: tokensTarget(powerOfTwoAtLeast(r.length as number)),
        item: {
          ref,
          question: memagentQuestion(split),
          answers: r.outputs as string[],
          rulerIndex: r.index ?? null,
          rulerLength: r.length as number,
          answerPrefix: r.answer_prefix as string | undefined,
        },
      });
    });
    byLength.add(file, fileEntries);
  }

  const build = (length: LengthTarget, index: number, item: RulerItem): GeneratedSample => {
    const row = readRowAgain(item.file, item.ref) as { input: string };
    const split = splitRulerInput(row.input) as RulerSplit;
    return {
      question: item.question,
      answers: item.answers,
      context: textContext(split.haystack, env.tokenizer),
      metric: RULER_METRIC,
      prompt: {
        nativeTemplate: `${split.preamble}${split.separator}{context}${split.separator}${split.question}`,
        maxNewTokens: TOKENS_TO_GENERATE,
        ...(item.answerPrefix !== undefined ? { answerPrefix: item.answerPrefix } : {}),
        ...(ruler
          ? {
              fullContext: `${split.preamble}${split.separator}{context}${split.separator}${split.question}`,
              answerFormat: 'raw' as const,
            }
          : {}),
      },
      metadata: {
        ...(ruler ? { flavour: 'ruler' } : {}),
        source: item.file.path,
        line: item.ref.line,
        ruler_index: item.rulerIndex,
        ruler_length: item.rulerLength,
        value_type: split.valueType,
        separator: split.separator,
        ruler_model_template: modelTemplateAround(row.input).name,
        template_prefix_chars: split.prefixChars,
        template_suffix_chars: split.suffixChars,
        data_sha256: item.file.sha256,
      },
    };
  };
  const prepared = bucketedTask(task, byLength.entries, build, {
    metric: RULER_METRIC,
    data: byLength.data(dataPath, RULER_NIAH),
  });
  return ruler ? { ...prepared, flavour: 'ruler' } : prepared;
}

/**
 * The layout of --data: a file's (by its first row; undefined when it matches none, e.g. a SQuAD file), or for a
 * directory MemAgent's when it holds eval_{task}_{tokens}.json for the task, RULER's when it holds RULER's
 * {length}/data/{task}/validation.jsonl.
 */
function dataKind(path: string, task: string, ctx: DataContext): string | undefined {
  if (isDirectory(path)) {
    if (listFiles(path, 2).some((f) => memagentFileName(f)?.task === task)) return MEMAGENT_RULER;
    return rulerFilesUnder(path, task).length > 0 ? RULER_NIAH : undefined;
  }
  try {
    return detectFile(path, ctx.dataFormats).format;
  } catch (err) {
    if (err instanceof UserError) return undefined;
    throw err;
  }
}

/** RULER's files for a non-NIAH task: the directory's, or the one file (refused when its path names another task). */
function rulerFiles(path: string, task: string, ctx: DataContext): string[] {
  const files = isDirectory(path) ? rulerFilesIn(path, task) : [path];
  for (const f of files) {
    const named = rulerTaskInPath(f);
    if (named !== undefined && named !== task)
      throw new UserError(`${f} is RULER's ${named} data, not ${task}: run \`bench run ${named} --data ${f}\``);
    const d = detectFile(f, ctx.dataFormats);
    if (d.format !== RULER_NIAH) throw wrongTask(task, d);
  }
  return files;
}

/** A --flavour that contradicts the data's own is refused (the data decides the prompt and the scoring). */
function checkFlavour(env: TaskEnv, task: string, own: string, why: string): void {
  const given = env.options.flavour;
  if (given !== undefined && given !== own)
    throw new UserError(
      `--flavour ${given} does not fit ${task}'s --data: ${why}; drop --flavour or pass --flavour ${own}`,
    );
}

/** RULER scripts/data/synthetic/niah.py rows {index, input, outputs, length, length_w_model_temp, answer_prefix, ...}:
 *  our niah_* tasks read them with --data FILE or DIR. */
export const rulerNiahFormat: DataFormat = {
  name: RULER_NIAH,
  title: "RULER's generated rows",
  expected: "RULER's {index, input, outputs, length, ...}",
  matches: (r) => 'input' in r && 'outputs' in r && !('context' in r),
  command: (d) => `bench run ${rulerTaskInPath(d.path) ?? 'niah_single_1'} --data ${d.path}`,
  reader: {
    tasks: (name) => RULER_TASKS.includes(name),
    read(env, task, ctx) {
      const data = env.options.data;
      if (data === undefined) {
        refuseOthersOptions(env, ctx, RULER_NIAH, `${task.name} does not use it`, true);
        return undefined;
      }
      const kind = dataKind(data, task.name, ctx);
      if (kind === MEMAGENT_RULER) {
        // --pool names the dataset MemAgent's index-form qa rows point into.
        const others = task.name.startsWith('qa') ? { ...env, options: { ...env.options, pool: undefined } } : env;
        refuseOthersOptions(others as TaskEnv, ctx, MEMAGENT_RULER, `${task.name} with MemAgent data does not use it`);
        checkFlavour(env, task.name, 'memagent', "MemAgent's files are its OOD flavour");
        return prepareMemAgentRuler(env, task.name, ctx);
      }
      if (NIAH_NAMES.includes(task.name)) return prepareRulerNiah(env, task.name, task.version, ctx);
      if (kind === RULER_NIAH) {
        refuseOthersOptions(env, ctx, RULER_NIAH, `${task.name} with RULER data does not use it`);
        checkFlavour(env, task.name, 'ruler', "RULER's rows hold RULER's prompt and answer prefix");
        return prepareRulerSynthetic(env, task.name, rulerFiles(data, task.name, ctx), data);
      }
      // qa_1 / qa_2 build their samples from a SQuAD or HotpotQA dev file themselves.
      if (task.name.startsWith('qa')) return undefined;
      throw new UserError(
        `${task.name} reads RULER's rows ({length}/data/${task.name}/validation.jsonl) or MemAgent's eval_${task.name}_{tokens}.json with --data; ${data} is neither${kind ? ` (it holds ${ctx.dataFormats.get(kind)?.title ?? kind})` : ''}`,
      );
    },
  },
};
