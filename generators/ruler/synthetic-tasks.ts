// The tasks vt, cwe, fwe, qa_1 and qa_2 (docs/PROTOCOLS.md §c.9) in two flavours (task option --flavour):
// - memagent (default): MemAgent's OOD evaluation (taskutils/memory_data, memory_eval/ruler_general.py): the question
//   is MemAgent's `input` without the context, the answer prefix is MemAgent's (stored, never sent), 128 samples at
//   0.7 / 0.95; scored on the text after the last </think> with the "the answer is" phrase: string_match_all rounded
//   per sample (memagent_niah) for vt, cwe, fwe; sub_em against the first gold (em and f1 beside it) for qa.
// - ruler: RULER's data (in-context example for vt, demonstration for cwe) and one-shot prompt with the context
//   inside (the full-context method sends it), RULER's answer prefix (written by bench generate, not sent); scored on
//   the raw reply: string_match_all for vt, cwe, fwe, string_match_part for qa.
// Both sizes: the whole one-shot prompt (answer prefix included) plus tokens_to_generate within the target, exact by
// default or RULER's procedure with --sizing ruler.
import { UserError } from '../../harness/errors.js';
import { MEMAGENT_DECODING } from '../../harness/protocol/decoding.js';
import type { GeneratedSample, LengthTarget, PreparedTask, TaskDefinition, TaskEnv } from '../../harness/types.js';
import { PROBE_INDEX } from './build.js';
import { cweBuilder } from './cwe.js';
import { fweBuilder } from './fwe.js';
import { niahSizing } from './index.js';
import { qaBuilder } from './qa.js';
import { loadHotpotQa, loadSquad, type QaData } from './qa-data.js';
import { SeamCounter, type SizingRule } from './sizing.js';
import { isTooSmall, type SyntheticBuilder, type SyntheticEnv } from './synthetic-plan.js';
import {
  FLAVOURS,
  SYNTHETIC_SPECS,
  type RulerFlavour,
  type SyntheticKind,
  type SyntheticSpec,
} from './synthetic-spec.js';
import { vtBuilder } from './vt.js';

/** Bumped whenever generated samples change for the same (task, flavour, seed, length, index). */
export const SYNTHETIC_GENERATOR_VERSION = '1';
export const SYNTHETIC_TASK_VERSION = `1.${SYNTHETIC_GENERATOR_VERSION}`;

const DESCRIPTIONS: Record<SyntheticSpec['name'], string> = {
  vt: 'RULER variable tracking: the 5 variables of a 4-hop chain hidden among noise lines',
  cwe: 'RULER common words: the 10 words repeated 30 times in a numbered list of words repeated 3 times',
  fwe: 'RULER frequent words: the 3 most frequent coded words of a Zipf (alpha 2) text',
  qa_1: 'RULER QA on SQuAD v2 dev (answerable questions): a paragraph among others',
  qa_2: "RULER QA on HotpotQA dev (distractor): a question's 10 paragraphs among others",
};

/** Task option --flavour: 'memagent' (default) or 'ruler'. */
export function syntheticFlavour(options: Record<string, string>): RulerFlavour {
  const v = options.flavour ?? FLAVOURS[0];
  if (!(FLAVOURS as readonly string[]).includes(v))
    throw new UserError(`--flavour must be ${FLAVOURS.map((f) => `'${f}'`).join(' or ')}, got '${v}'`);
  return v as RulerFlavour;
}

/** The metric a flavour scores a task with (ruler_general.py for memagent, RULER's evaluate.py for ruler). */
export function syntheticMetric(kind: SyntheticKind, flavour: RulerFlavour): string {
  if (kind === 'qa') return flavour === 'ruler' ? 'string_match_part' : 'sub_em';
  return flavour === 'ruler' ? 'string_match_all' : 'memagent_niah';
}

function builderFor(spec: SyntheticSpec, env: SyntheticEnv, data?: QaData): SyntheticBuilder {
  switch (spec.kind) {
    case 'vt':
      return vtBuilder(env);
    case 'cwe':
      return cweBuilder(env);
    case 'fwe':
      return fweBuilder(env);
    case 'qa':
      return qaBuilder(env, data!);
  }
}

function qaData(spec: SyntheticSpec, path: string | undefined): QaData {
  return spec.dataset === 'squad' ? loadSquad(path) : loadHotpotQa(path);
}

export function prepareSynthetic(spec: SyntheticSpec, env: TaskEnv): PreparedTask {
  const flavour = syntheticFlavour(env.options);
  const sizing = niahSizing(env.options);
  if (env.options.data !== undefined && spec.kind !== 'qa')
    throw new UserError(
      `${spec.name} generates its own samples and reads no --data (qa_1 reads a SQuAD v2 dev file, qa_2 a HotpotQA dev file)`,
    );
  const data = spec.kind === 'qa' ? qaData(spec, env.options.data) : undefined;
  const senv: SyntheticEnv = {
    tokenizer: env.tokenizer,
    seed: env.seed,
    flavour,
    seams: new SeamCounter(env.tokenizer),
    tokensToGenerate: spec.tokensToGenerate,
  };
  let builder: SyntheticBuilder | undefined;
  const get = () => (builder ??= builderFor(spec, senv, data));
  const starts = new Map<number, number>();
  const rule = (budget: number): SizingRule => {
    if (sizing !== 'ruler') return { kind: 'exact' };
    const b = get();
    let start = starts.get(budget);
    if (start === undefined) {
      if (b.rulerStart) start = b.rulerStart(budget);
      else {
        const probe = b.plan(budget, PROBE_INDEX, { kind: 'exact' });
        start = isTooSmall(probe) ? 1 : probe.units;
      }
      starts.set(budget, start);
    }
    return { kind: 'ruler', start, step: b.rulerStep(budget) };
  };
  const limit = spec.maxTokens?.[flavour];
  return {
    // Synthetic tasks: any number of samples; qa reuses its questions (question i mod Q).
    maxSamples: () => Number.MAX_SAFE_INTEGER,
    metric: syntheticMetric(spec.kind, flavour),
    flavour,
    ...(limit ? { maxTokens: limit } : {}),
    ...(data?.given
      ? {
          data: {
            path: env.options.data!,
            format: data.dataset === 'squad' ? 'squad-v2' : 'hotpotqa-dev',
            files: [{ path: data.source, format: data.dataset, sha256: data.sha256, rows: data.questions.length }],
          },
        }
      : {}),
    build: (length, index) => buildSynthetic(spec, flavour, get(), rule, length, index, env.tokenizer.id),
  };
}

function buildSynthetic(
  spec: SyntheticSpec,
  flavour: RulerFlavour,
  builder: SyntheticBuilder,
  rule: (budget: number) => SizingRule,
  length: LengthTarget,
  index: number,
  tokenizerId: string,
): GeneratedSample {
  if (length.kind !== 'tokens') throw new UserError(`${spec.name} takes token lengths (e.g. 32k), not ${length.label}`);
  const sizing = rule(length.value);
  const plan = builder.plan(length.value, index, sizing);
  if (isTooSmall(plan))
    throw new UserError(
      `${spec.name} does not fit in ${length.label} (${length.value} tokens): its smallest prompt needs ${plan.minimumTokens} tokens with its ${spec.tokensToGenerate} answer tokens; use a longer length`,
    );
  const ruler = flavour === 'ruler';
  return {
    question: plan.prompt.question,
    answers: plan.answers,
    context: plan.context,
    ...(plan.evidence ? { evidence: plan.evidence } : {}),
    metric: syntheticMetric(spec.kind, flavour),
    prompt: {
      nativeTemplate: plan.prompt.template,
      answerPrefix: plan.prompt.answerPrefix,
      maxNewTokens: spec.tokensToGenerate,
      decoding: MEMAGENT_DECODING,
      // RULER's flavour: the one-shot prompt is RULER's own, scored on the raw reply as evaluate.py does.
      ...(ruler ? { fullContext: plan.prompt.template, answerFormat: 'raw' as const } : {}),
    },
    metadata: {
      flavour,
      ...plan.metadata,
      context_tokens: plan.context.tokenCount,
      prompt_tokens: plan.promptTokens,
      tokens_to_generate: spec.tokensToGenerate,
      budget_tokens: length.value,
      tokenizer: tokenizerId,
      generator_version: SYNTHETIC_GENERATOR_VERSION,
      ...(sizing.kind === 'ruler'
        ? { sizing: 'ruler', ruler_start_units: sizing.start, ruler_step_units: sizing.step }
        : {}),
    },
  };
}

function task(spec: SyntheticSpec): TaskDefinition {
  return {
    name: spec.name,
    version: SYNTHETIC_TASK_VERSION,
    description: DESCRIPTIONS[spec.name],
    metric: syntheticMetric(spec.kind, FLAVOURS[0]),
    defaultSamples: 128,
    // MemAgent's OOD grid (taskutils/memory_eval/run.py): 8K…512K, qa_1 up to 256K.
    defaultLengths: spec.maxTokens?.memagent ? '8k..256k' : '8k..512k',
    acceptsDocCounts: false,
    decoding: MEMAGENT_DECODING,
    flavours: FLAVOURS.map((name) => ({ name, metric: syntheticMetric(spec.kind, name) })),
    async prepare(env) {
      return prepareSynthetic(spec, env);
    },
  };
}

export const syntheticTasks: TaskDefinition[] = SYNTHETIC_SPECS.map(task);
