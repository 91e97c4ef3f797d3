// RULER's generated rows of vt, cwe, fwe, qa_1 and qa_2 (NVIDIA/RULER scripts/data/synthetic/{variable_tracking,
// common_words_extraction,freq_words_extraction,qa}.py via prepare.py): `{save_dir}/{task}/validation.jsonl`, one
// row {index, input, outputs, length, length_w_model_temp, answer_prefix} per sample. `input` is the model template
// around the task's template (after RULER's in-context example for vt and its demonstration for cwe), the answer
// prefix cut off. We find the context between the task template's text before {context} (its last occurrence: the
// example and the demonstration hold the template too) and the fixed text after it, keep everything else as the
// sample's one-shot template (RULER's flavour: the full-context method sends RULER's prompt as it is), and ask the
// question MemAgent's way (its `input`), as our own RULER-flavour samples do. A row with none of RULER's task
// templates is of a task we do not know and is refused; one with another task's template names that task.
import { textContext } from '../../harness/context.js';
import { MEMAGENT_DECODING } from '../../harness/protocol/decoding.js';
import { modelTemplateAround } from '../../harness/protocol/ruler-templates.js';
import type { GeneratedSample, LengthTarget, PreparedTask, TaskEnv } from '../../harness/types.js';
import { readRowAgain, rowError, scanRows, type RowRef, type ScannedFile } from '../../harness/data/read.js';
import { bucketedTask, type Entry } from '../../harness/data/source.js';
import { checkRulerRow, LengthFiles, powerOfTwoAtLeast, tokensTarget } from './row-files.js';
import { syntheticMetric } from './synthetic-tasks.js';
import { syntheticSpec, type SyntheticKind } from './synthetic-spec.js';
import { RULER_TEMPLATES, syntheticPrompt } from './synthetic-text.js';

export const RULER_ROWS = 'ruler-niah';
const FIELDS = 'index, input, outputs, length (and length_w_model_temp, answer_prefix)';

/** What follows {context} in RULER's templates, up to {query} (vt, qa) or to the end (cwe, fwe). */
const AFTER: Readonly<Record<SyntheticKind, string>> = {
  vt: '\nQuestion: Find all variables that are assigned the value ',
  cwe: '\nQuestion: What are the 10 most common words in the above list?',
  fwe: "\nQuestion: Do not provide any explanation. Please ignore the dots '....'. What are the three most frequently appeared words in the above coded text?",
  qa: '\n\nAnswer the question based on the given documents. Only give me the answer and do not output any other words.\n\nQuestion: ',
};

const BEFORE: Readonly<Record<SyntheticKind, string>> = Object.fromEntries(
  (Object.keys(RULER_TEMPLATES) as SyntheticKind[]).map((k) => [k, RULER_TEMPLATES[k].split('{context}')[0]]),
) as Record<SyntheticKind, string>;

/** The text after {task_template} in RULER's model templates (scripts/data/template.py), longest first: what may
 *  follow qa's question, which has no fixed end. */
const MODEL_TAILS = [
  '<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n',
  '<|END_OF_TURN_TOKEN|><|START_OF_TURN_TOKEN|><|CHATBOT_TOKEN|>',
  '<|eom|><|bom|><|assistant|>',
  '<|end|>\n<|assistant|>\n',
  '\n<SPECIAL_11>Assistant\n',
  '<|assistant|> \n ',
  '\n\nAssistant:',
  ' ASSISTANT: ',
  ' ASSISTANT:',
  ' [/INST]',
];

export interface SyntheticSplit {
  kind: SyntheticKind;
  /** Everything before the context (model template head, example or demonstration, the template's first part). */
  before: string;
  context: string;
  /** Everything after the context (the template's question, the model template's tail). */
  after: string;
  /** vt's value or qa's question; '' for cwe and fwe. */
  query: string;
}

/** Splits a RULER row's `input` of task kind `kind`, or says what is wrong. */
export function splitSyntheticInput(input: string, kind: SyntheticKind): SyntheticSplit | string {
  const head = BEFORE[kind];
  const at = input.lastIndexOf(head);
  if (at < 0) return `RULER's ${kind} template ("${head.slice(0, 40)}…") is not in it`;
  const start = at + head.length;
  const end = input.lastIndexOf(AFTER[kind]);
  if (end < start)
    return `RULER's ${kind} question ("${AFTER[kind].trim().slice(0, 40)}…") does not follow its context`;
  const rest = input.slice(end + AFTER[kind].length);
  let query = '';
  if (kind === 'vt') {
    const m = /^(\S+) in the text above\./.exec(rest);
    if (!m) return 'RULER\'s vt question does not end with "… the value N in the text above."';
    query = m[1];
  } else if (kind === 'qa') {
    const tail = MODEL_TAILS.find((t) => rest.endsWith(t)) ?? '';
    query = rest.slice(0, rest.length - tail.length);
    if (query.trim() === '') return "RULER's qa question is empty";
  }
  const context = input.slice(start, end);
  if (context.trim() === '') return `the context of RULER's ${kind} row is empty`;
  return { kind, before: input.slice(0, start), context, after: input.slice(end), query };
}

/** Which RULER task kind a row's `input` is of: 'niah', one of ours, or null (none of RULER's templates). */
export function rulerKindOf(input: string): SyntheticKind | 'niah' | null {
  if (/special magic \S+ (?:are|is) hidden within the following text\./.test(input)) return 'niah';
  const kinds = (Object.keys(BEFORE) as SyntheticKind[]).filter(
    (k) => typeof splitSyntheticInput(input, k) !== 'string',
  );
  // vt's example holds vt's template; cwe's demonstration cwe's: the template found last is the task's.
  return kinds.length
    ? kinds.reduce((a, b) => (input.lastIndexOf(BEFORE[a]) > input.lastIndexOf(BEFORE[b]) ? a : b))
    : null;
}

interface Item {
  file: ScannedFile;
  ref: RowRef;
  answers: string[];
  rulerIndex: unknown;
  rulerLength: number;
  answerPrefix?: string;
}

/** Why a row is not `task`'s: it is another RULER task's (named), or of none we know. */
export function otherTask(kind: SyntheticKind | 'niah' | null, task: string): string {
  if (kind === null)
    return "it is a row of a RULER task we do not know: its input holds none of RULER's 13 task templates (bench reads RULER's niah_*, vt, cwe, fwe, qa_1 and qa_2 rows)";
  const names = kind === 'niah' ? 'niah_*' : kind === 'qa' ? 'qa_1 or qa_2' : kind;
  return `it is RULER's ${kind === 'niah' ? 'NIAH' : kind} row, not ${task}'s: run \`bench run ${names} --data …\``;
}

/**
 * RULER rows of vt, cwe, fwe, qa_1 or qa_2 in `files` (already detected as RULER's rows): one token point per
 * length (RULER's `length` rounded up to a power of two); samples in RULER's flavour, scored as evaluate.py does.
 */
export function prepareRulerSynthetic(env: TaskEnv, task: string, files: string[], dataPath: string): PreparedTask {
  const spec = syntheticSpec(task);
  const kind = spec.kind;
  const byLength = new LengthFiles<Omit<Item, 'file'>>('RULER rows');
  for (const path of files) {
    const rows: Array<Entry<Omit<Item, 'file'>>> = [];
    const file = scanRows(path, (value, ref) => {
      const r = checkRulerRow(value, (what) => rowError(path, ref, `${what}; RULER's rows have ${FIELDS}`));
      const split = splitSyntheticInput(r.input as string, kind);
      if (typeof split === 'string') {
        const found = rulerKindOf(r.input as string);
        throw rowError(path, ref, `field "input": ${found === kind ? split : otherTask(found, task)}`);
      }
      rows.push({
        length: tokensTarget(powerOfTwoAtLeast(r.length as number)),
        item: {
          ref,
          answers: r.outputs as string[],
          rulerIndex: r.index ?? null,
          rulerLength: r.length as number,
          answerPrefix: r.answer_prefix as string | undefined,
        },
      });
    });
    byLength.add(file, rows);
  }
  const metric = syntheticMetric(kind, 'ruler');
  const build = (_length: LengthTarget, _index: number, item: Item): GeneratedSample => {
    const row = readRowAgain(item.file, item.ref) as { input: string };
    const split = splitSyntheticInput(row.input, kind) as SyntheticSplit;
    const template = `${split.before}{context}${split.after}`;
    // The native method wraps the task prompt in --chat-template itself: its template is the row's without the
    // model template prepare.py put around it (the same row again under that --chat-template).
    const model = modelTemplateAround(row.input);
    const native = `${split.before.slice(model.head.length)}{context}${split.after.slice(0, split.after.length - model.tail.length)}`;
    return {
      question: syntheticPrompt(kind, 'ruler', { query: split.query }).question,
      answers: item.answers,
      context: textContext(split.context, env.tokenizer),
      metric,
      prompt: {
        nativeTemplate: native,
        fullContext: template,
        answerFormat: 'raw',
        maxNewTokens: spec.tokensToGenerate,
        decoding: MEMAGENT_DECODING,
        ...(item.answerPrefix !== undefined ? { answerPrefix: item.answerPrefix } : {}),
      },
      metadata: {
        flavour: 'ruler',
        source: item.file.path,
        line: item.ref.line,
        ruler_index: item.rulerIndex,
        ruler_length: item.rulerLength,
        template_before_chars: split.before.length,
        template_after_chars: split.after.length,
        ruler_model_template: model.name,
        tokens_to_generate: spec.tokensToGenerate,
        data_sha256: item.file.sha256,
      },
    };
  };
  return {
    ...bucketedTask(task, byLength.entries, build, { metric, data: byLength.data(dataPath, RULER_ROWS) }),
    flavour: 'ruler',
  };
}
