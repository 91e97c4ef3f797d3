// The tasks qa1 … qa20: BABILong (booydar/babilong) samples, bAbI facts hidden in book text at 0k … 10M tokens, prompted
// as run_model_on_babilong.py prompts them and scored by metrics.py's compare_answers (docs/PROTOCOLS.md §m).
import { textContext } from '../../harness/context.js';
import { UserError } from '../../harness/errors.js';
import type { Metric } from '../../harness/scorers/metric.js';
import type {
  Decoding,
  DataSourceInfo,
  GeneratedSample,
  LengthTarget,
  PreparedTask,
  PromptSpec,
  TaskDefinition,
  TaskEnv,
  Tokenizer,
} from '../../harness/types.js';
import { rngFor } from '../../harness/util/rng.js';
import { pyStrip } from '../../harness/protocol/pytext.js';
import type { BabiSample } from './babi.js';
import { BOOKS, bookHashes, bookSentences } from './books.js';
import { buildContext, SentencePool } from './build.js';
import { loadBabilong, type BabiData, type RowsData } from './data.js';
import { BABILONG_LIMIT_WHY, babilongLengthName, MAX_BABILONG_TOKENS, maxRows, messageTokens } from './lengths.js';
import { compareAnswers, TASK_LABELS } from './metrics.js';
import {
  formattedTemplate,
  parseSwitches,
  promptConfigName,
  promptParts,
  userTemplate,
  type PromptSwitches,
  type TaskPrompt,
} from './prompts.js';
import { BABI_FILES, BABILONG_TASKS, describeTask } from './tasks.js';

export const BABILONG_METRIC = 'babilong_acc';
export const BABILONG_VERSION = '2';
/** run_model_on_babilong.py: greedy, at most 20 new tokens. */
export const BABILONG_MAX_NEW_TOKENS = 20;
export const BABILONG_DECODING: Readonly<Decoding> = Object.freeze({ temperature: 0, topP: 1 });
/** RMT-team/babilong holds 100 samples of each task at each length. */
export const BABILONG_SAMPLES = 100;

export const babilongMetric: Metric = {
  name: BABILONG_METRIC,
  input: 'raw',
  description:
    "BABILong's compare_answers: the output's first sentence names the target and no other of the task's labels (labels in the question do not count)",
  score(output, answers, opts) {
    const task = String(opts?.babilong_task ?? '');
    const labels = TASK_LABELS[task];
    if (!labels) throw new UserError(`babilong_acc: record has no known babilong_task ('${task}'); rescore with bench`);
    return compareAnswers(answers[0] ?? '', pyStrip(output ?? ''), String(opts?.question ?? ''), labels) ? 1 : 0;
  },
};

/** The one-shot prompt of get_formatted_input, with {context} and {question}: strip() leaves no leading blank lines
 *  when parts are switched off; the question's trailing space goes with the final strip (questionFill 'stripped'). */
function fullContextTemplate(p: TaskPrompt): string {
  return formattedTemplate(p, userTemplate()).replace(/^\s+/, '');
}

/** The answering calls' problem: the task's parts, then the question, as BABILong's prompt has them. */
function finalQuestion(p: TaskPrompt, question: string): string {
  return pyStrip(formattedTemplate(p, `Question: ${question}`));
}

function promptSpec(p: TaskPrompt, question: string): PromptSpec {
  return {
    fullContext: fullContextTemplate(p),
    maxNewTokens: BABILONG_MAX_NEW_TOKENS,
    answerFormat: 'raw',
    questionFill: 'stripped',
    decoding: BABILONG_DECODING,
    finalQuestion: finalQuestion(p, question),
  };
}

const pools = new Map<string, SentencePool>();

function poolFor(tokenizer: Tokenizer): SentencePool {
  let pool = pools.get(tokenizer.id);
  if (!pool) pools.set(tokenizer.id, (pool = new SentencePool(bookSentences(), tokenizer)));
  return pool;
}

function dataInfo(task: string, data: BabiData | RowsData, path: string | undefined): DataSourceInfo {
  if (data.kind === 'rows')
    return {
      path: path ?? '',
      format: 'babilong-rows',
      files: data.files.map((f) => ({ path: f.file, format: 'babilong-rows', sha256: f.sha256, rows: f.rows.length })),
    };
  return {
    path: path ?? `datasets/babilong (bundled bAbI ${BABI_FILES[task]}_test.txt)`,
    format: 'babi',
    files: [
      { path: data.file, format: 'babi', sha256: data.sha256, rows: data.samples.length },
      ...BOOKS.map((b, i) => ({
        path: `datasets/babilong/books/${b.file} (${b.title}, ${b.author})`,
        format: 'background',
        sha256: bookHashes()[i],
        rows: bookSentences()[i].length,
      })),
    ],
  };
}

function sampleOf(
  task: string,
  env: TaskEnv,
  switches: PromptSwitches,
  s: { question: string; answer: string },
  length: LengthTarget,
): Omit<GeneratedSample, 'context'> {
  const p = promptParts(task, switches);
  return {
    question: s.question,
    answers: [s.answer],
    metric: BABILONG_METRIC,
    scoring: { babilong_task: task, question: s.question },
    prompt: promptSpec(p, s.question),
    metadata: {
      babilong_task: task,
      babilong_length: babilongLengthName(length),
      question: s.question,
      target: s.answer,
      prompt_cfg: promptConfigName(switches),
      seed: env.seed,
    },
  };
}

function prepareRows(task: string, env: TaskEnv, switches: PromptSwitches, data: RowsData): PreparedTask {
  const at = (l: LengthTarget) => data.files.find((f) => f.length.value === l.value);
  return {
    data: dataInfo(task, data, env.options.data),
    flavour: promptConfigName(switches),
    lengths: data.files.map((f) => f.length),
    maxSamples: (l) => at(l)?.rows.length ?? 0,
    build(length, index): GeneratedSample {
      const file = at(length);
      const row = file?.rows[index];
      if (!file || !row) throw new UserError(`${task}: no row ${index} at ${length.label} in --data ${env.options.data}`);
      return {
        ...sampleOf(task, env, switches, { question: row.question, answer: row.target }, length),
        context: textContext(pyStrip(row.input), env.tokenizer),
        evidenceNote: "BABILong's published rows do not say where their facts lie, so no chunk is marked.",
      };
    },
  };
}

function prepareBabi(task: string, env: TaskEnv, switches: PromptSwitches, data: BabiData): PreparedTask {
  const order = rngFor('babilong', task, env.seed, 'order').shuffle(data.samples.map((_, i) => i));
  const eligible = new Map<number, BabiSample[]>();
  // get_dataset_df drops the samples over max_n_facts; TaskDataset.__len__ is then the last kept sample's number, so
  // create_tasks.py never draws the last sample that a length keeps. Nor do we.
  const at = (l: LengthTarget): BabiSample[] => {
    let list = eligible.get(l.value);
    if (!list) {
      const most = maxRows(l);
      const fits = (i: number) => most === undefined || data.samples[i].facts.length + 1 <= most;
      let lastKept = data.samples.length - 1;
      while (lastKept >= 0 && !fits(lastKept)) lastKept--;
      list = order.filter((i) => i !== lastKept && fits(i)).map((i) => data.samples[i]);
      eligible.set(l.value, list);
    }
    return list;
  };
  return {
    data: dataInfo(task, data, env.options.data),
    flavour: promptConfigName(switches),
    maxTokens: { tokens: MAX_BABILONG_TOKENS, why: BABILONG_LIMIT_WHY },
    maxSamples: (l) => at(l).length,
    build(length, index): GeneratedSample {
      const s = at(length)[index];
      if (!s) throw new UserError(`${task} has ${at(length).length} samples at ${length.label}; index ${index} is out of range`);
      const rng = rngFor('babilong', task, env.seed, length.value, index, 'background');
      const built = buildContext(s, poolFor(env.tokenizer), messageTokens(length), rng, env.tokenizer);
      const base = sampleOf(task, env, switches, s, length);
      return {
        ...base,
        context: built.context,
        evidence: built.evidence,
        metadata: {
          ...base.metadata,
          facts: s.facts.length,
          supporting_facts: s.supporting.length,
          fact_positions: built.factPositions,
          background_sentences: built.backgroundSentences,
          background: BOOKS.map((b) => b.name),
        },
      };
    },
  };
}

function babilongTask(task: string): TaskDefinition {
  return {
    name: task,
    version: BABILONG_VERSION,
    description: `BABILong ${task} (bAbI ${describeTask(task)}): the facts of a bAbI story hidden in public-domain book text, 0k to 10M tokens; --babilong-prompt yes/yes/yes; bundled bAbI v1.2 test split or --data`,
    metric: BABILONG_METRIC,
    defaultSamples: BABILONG_SAMPLES,
    defaultLengths: '0k..128k',
    acceptsDocCounts: false,
    zeroLength: true,
    decoding: BABILONG_DECODING,
    async prepare(env) {
      const switches = parseSwitches(env.options['babilong-prompt']);
      const data = loadBabilong(task, env.options.data);
      return data.kind === 'rows' ? prepareRows(task, env, switches, data) : prepareBabi(task, env, switches, data);
    },
  };
}

export const BABILONG_TASK_DEFINITIONS: readonly TaskDefinition[] = BABILONG_TASKS.map(babilongTask);
