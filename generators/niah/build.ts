// Builds one NIAH sample: keys, values and needles, depths, queries, then the haystack sized to the budget.
import { UserError } from '../../harness/errors.js';
import type { LengthTarget, Sample, Tokenizer } from '../../harness/types.js';
import { rngFor } from '../common/rng.js';
import type { EssayTokens } from './essay.js';
import { planEssay, type NeedleInput, type PlannedContext, type PromptFrame } from './haystack-essay.js';
import { planLines } from './haystack-lines.js';
import { drawDistinctKeys, drawValue, type WordLists } from './keys.js';
import type { DistractorCodec, NoiseCodec } from './lines.js';
import { SeamCounter } from './sizing.js';
import { DEPTHS, TOKENS_TO_GENERATE, type NiahSpec } from './spec.js';
import { needleSentence, promptText } from './text.js';

/** Bumped whenever generated samples change for the same (task, seed, length, index). */
export const NIAH_GENERATOR_VERSION = '1';

export const NIAH_METRIC = 'memagent_niah';

export interface NiahResources {
  spec: NiahSpec;
  tokenizer: Tokenizer;
  seed: number;
  words: WordLists;
  seams: SeamCounter;
  essay?: EssayTokens;
  noise?: NoiseCodec;
  distractors?: DistractorCodec;
}

export interface NiahDraw {
  keys: string[];
  /** Needles sorted by depth (the order they appear in the context). */
  needles: NeedleInput[];
  queries: string[];
  answers: string[];
}

/** The random choices of one sample (everything except the haystack size, which depends on the tokenizer). */
export function drawNiah(spec: NiahSpec, words: WordLists, seed: number, length: number, index: number): NiahDraw {
  const rng = rngFor('niah', spec.name, seed, length, index);
  const keys = drawDistinctKeys(rng, spec.keyKind, words, spec.keys);
  const used = new Set<string>();
  const values = keys.map(() => {
    const vs: string[] = [];
    while (vs.length < spec.valuesPerKey) {
      const v = drawValue(rng, spec.valueKind);
      if (!used.has(v)) {
        used.add(v);
        vs.push(v);
      }
    }
    return vs;
  });
  const raw = keys.flatMap((key, i) => values[i].map((value) => ({ key, value })));
  // RULER shuffles the needles with a fresh generator seeded by the run seed (the same permutation every sample).
  rngFor('niah-needle-order', seed).shuffle(raw);
  const depths = drawDepths(spec.name, seed, length, index, raw.length, rng);
  const needles = raw.map((nd, i) => ({ ...nd, text: needleSentence(spec.valueKind, nd.key, nd.value), depth: depths[i] }));
  const asked = rng.sampleIndices(spec.keys, spec.queries);
  const queries = asked.map((i) => keys[i]);
  const answers = asked.flatMap((i) => values[i]);
  return { keys, needles, queries, answers };
}

/**
 * Depths for the needles of sample `index`, from the 40-point grid without replacement. Our choice: when the
 * needle count divides 40, the draws continue across consecutive samples through seeded shuffled decks of the
 * grid (sample i takes cards i·k … i·k+k−1), so every 40 needles cover the grid exactly and 128 samples always
 * cover it; each sample's depths are still a uniform draw without replacement. RULER draws each sample
 * independently (random.sample(DEPTHS, k)), which can leave grid points unused over 128 samples.
 */
export function drawDepths(task: string, seed: number, length: number, index: number, k: number, rng: ReturnType<typeof rngFor>): number[] {
  if (k === 0) return [];
  if (DEPTHS.length % k !== 0) return rng.sample(DEPTHS, k).sort((a, b) => a - b);
  const first = index * k;
  const deck = rngFor('niah-depth-deck', task, seed, length, Math.floor(first / DEPTHS.length)).shuffle([...DEPTHS]);
  const at = first % DEPTHS.length;
  return deck.slice(at, at + k).sort((a, b) => a - b);
}

export function buildNiahSample(res: NiahResources, taskVersion: string, length: LengthTarget, index: number): Sample {
  const { spec, tokenizer, seed } = res;
  if (length.kind !== 'tokens') {
    throw new UserError(`${spec.name} takes token lengths (e.g. 32k), not ${length.label}; docs: lengths are for ruler-hqa`);
  }
  const draw = drawNiah(spec, res.words, seed, length.value, index);
  const text = promptText(spec.valueKind, draw.queries, spec.valuesPerKey);
  const frame: PromptFrame = {
    before: `${text.preamble}\n`,
    after: `\n${text.question}${text.answerPrefix}`,
    budget: length.value,
    reserve: TOKENS_TO_GENERATE,
  };

  let plan: PlannedContext;
  if (spec.haystack === 'essay') {
    plan = planEssay(tokenizer, res.essay!, res.seams, draw.needles, frame);
  } else {
    const avoidKeys = new Set(draw.keys);
    const avoidValues = new Set(draw.needles.map((n) => n.value));
    plan = planLines(
      tokenizer,
      {
        kind: spec.haystack,
        noise: res.noise,
        distractors: res.distractors,
        streamRng: () => rngFor('niah', spec.name, seed, length.value, index, 'distractors'),
        avoidKeys,
        avoidValues,
      },
      res.seams,
      draw.needles,
      frame,
    );
  }
  if (plan.minimumTokens !== undefined) {
    throw new UserError(
      `${spec.name} does not fit in ${length.label} (${length.value} tokens): even the smallest haystack needs ${plan.minimumTokens} tokens ` +
        `(prompt plus ${TOKENS_TO_GENERATE} answer tokens); use a longer length`,
    );
  }

  return {
    id: `${spec.name}/${length.label}/${index}`,
    task: spec.name,
    taskVersion,
    length,
    index,
    // MemAgent's `input`: the preamble and the question without the context (docs/PROTOCOLS.md §c.8).
    question: `${text.preamble}\n${text.question}`,
    answers: draw.answers,
    context: plan.context,
    metric: NIAH_METRIC,
    prompt: {
      nativeTemplate: `${text.preamble}\n{context}\n${text.question}`,
      answerPrefix: text.answerPrefix,
      maxNewTokens: TOKENS_TO_GENERATE,
    },
    metadata: {
      haystack: spec.haystack,
      key_kind: spec.keyKind,
      value_kind: spec.valueKind,
      queries: draw.queries,
      needles: plan.needles.map((n) => ({
        key: n.key,
        value: n.value,
        depth: n.depth,
        char_offset: n.charOffset,
        value_char_offset: n.charOffset + n.text.length - 1 - n.value.length,
        token_offset: n.tokenOffset,
        token_count: n.tokenCount,
        queried: draw.queries.includes(n.key),
      })),
      real_needles: plan.needles.length,
      distractor_needles: 0,
      ...plan.extra,
      context_tokens: plan.context.tokenCount,
      prompt_tokens: plan.promptTokens,
      tokens_to_generate: TOKENS_TO_GENERATE,
      budget_tokens: length.value,
      tokenizer: tokenizer.id,
      generator_version: NIAH_GENERATOR_VERSION,
    },
  };
}
