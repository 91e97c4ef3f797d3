// Builds one NIAH sample: keys, values and needles, depths, queries, then the haystack sized to the budget.
import { UserError } from '../../harness/errors.js';
import { MEMAGENT_DECODING } from '../../harness/protocol/decoding.js';
import type { LengthTarget, GeneratedSample, Tokenizer } from '../../harness/types.js';
import { rngFor } from '../../harness/util/rng.js';
import type { EssayTokens } from './essay.js';
import { planEssay, type NeedleInput, type PlannedContext, type PromptFrame } from './haystack-essay.js';
import { planLines } from './haystack-lines.js';
import { drawDistinctKeys, drawValue, type WordLists } from './keys.js';
import type { DistractorCodec, NoiseCodec } from './lines.js';
import { rulerStep, SeamCounter, type SizingRule } from './sizing.js';
import { DEPTHS, TOKENS_TO_GENERATE, type NiahSpec } from './spec.js';
import { needleSentence, promptText } from './text.js';

/** Bumped whenever generated samples change for the same (task, seed, length, index).
 *  2: question = MemAgent's `input`; essays concatenated without a separator, rss.txt included (49 files). */
export const NIAH_GENERATOR_VERSION = '2';

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
  /** Task option --sizing: 'exact' (default) or 'ruler' (docs/PROTOCOLS.md §c.4). */
  sizing?: 'exact' | 'ruler';
  /** --sizing ruler: the size found once per length (by token target), from the probe sample. */
  rulerStart?: Map<number, number>;
  /** Task option --flavour: 'ruler' scores RULER's way (string_match_all on the raw reply, RULER's prompt for the
   *  one-shot methods); absent or 'memagent': MemAgent's variant, as before. The samples' text is the same. */
  flavour?: 'memagent' | 'ruler';
}

/** RULER's own metric for NIAH (scripts/eval/synthetic/constants.py). */
export const NIAH_RULER_METRIC = 'string_match_all';

/** The sample RULER's once-per-task search is emulated on: a draw of its own, not one of the samples. */
export const PROBE_INDEX = -1;

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
  const needles = raw.map((nd, i) => ({
    ...nd,
    text: needleSentence(spec.valueKind, nd.key, nd.value),
    depth: depths[i],
  }));
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
export function drawDepths(
  task: string,
  seed: number,
  length: number,
  index: number,
  k: number,
  rng: ReturnType<typeof rngFor>,
): number[] {
  if (k === 0) return [];
  if (index < 0 || DEPTHS.length % k !== 0) return rng.sample(DEPTHS, k).sort((a, b) => a - b);
  const first = index * k;
  const deck = rngFor('niah-depth-deck', task, seed, length, Math.floor(first / DEPTHS.length)).shuffle([...DEPTHS]);
  const at = first % DEPTHS.length;
  return deck.slice(at, at + k).sort((a, b) => a - b);
}

/** The sizing rule of a sample at `length`: exact, or RULER's start (probed once per length) and step. */
function sizingRule(res: NiahResources, length: LengthTarget): SizingRule {
  if (res.sizing !== 'ruler') return { kind: 'exact' };
  res.rulerStart ??= new Map();
  let start = res.rulerStart.get(length.value);
  if (start === undefined) {
    start = planSample(res, length, PROBE_INDEX, { kind: 'exact' }).plan.units;
    res.rulerStart.set(length.value, start);
  }
  return { kind: 'ruler', start, step: rulerStep(res.spec.haystack, length.value) };
}

function planSample(
  res: NiahResources,
  length: LengthTarget,
  index: number,
  sizing: SizingRule,
): { draw: NiahDraw; text: ReturnType<typeof promptText>; plan: PlannedContext } {
  const { spec, tokenizer, seed } = res;
  const draw = drawNiah(spec, res.words, seed, length.value, index);
  const text = promptText(spec.valueKind, draw.queries, spec.valuesPerKey);
  const frame: PromptFrame = {
    before: `${text.preamble}\n`,
    after: `\n${text.question}${text.answerPrefix}`,
    budget: length.value,
    reserve: TOKENS_TO_GENERATE,
    sizing,
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
  return { draw, text, plan };
}

export function buildNiahSample(res: NiahResources, length: LengthTarget, index: number): GeneratedSample {
  const { spec, tokenizer } = res;
  if (length.kind !== 'tokens') {
    throw new UserError(
      `${spec.name} takes token lengths (e.g. 32k), not ${length.label}; docs: lengths are for document-count tasks (see bench tasks)`,
    );
  }
  const sizing = sizingRule(res, length);
  const { draw, text, plan } = planSample(res, length, index, sizing);
  const ruler = res.flavour === 'ruler';
  if (plan.minimumTokens !== undefined) {
    throw new UserError(
      `${spec.name} does not fit in ${length.label} (${length.value} tokens): even the smallest haystack needs ${plan.minimumTokens} tokens ` +
        `(prompt plus ${TOKENS_TO_GENERATE} answer tokens); use a longer length`,
    );
  }

  return {
    // MemAgent's own `input` (its synthetic/constants.py template, singularised like RULER's): what its driver puts
    // in <problem> and in its full-context baseline's prompt (docs/PROTOCOLS.md §c.8). RULER's own prompt, with its
    // "I will quiz you" sentence, is nativeTemplate.
    question: text.memagentInput,
    answers: draw.answers,
    context: plan.context,
    metric: ruler ? NIAH_RULER_METRIC : NIAH_METRIC,
    prompt: {
      nativeTemplate: `${text.preamble}\n{context}\n${text.question}`,
      answerPrefix: text.answerPrefix,
      maxNewTokens: TOKENS_TO_GENERATE,
      // MemAgent's ruler_general.py samples at 0.7 / 0.95 for every method (RULER's own pred/call_api.py is greedy).
      decoding: MEMAGENT_DECODING,
      // RULER's flavour: the one-shot prompt is RULER's own, scored on the raw reply as evaluate.py does.
      ...(ruler ? { fullContext: `${text.preamble}\n{context}\n${text.question}`, answerFormat: 'raw' as const } : {}),
    },
    // The queried needles: what the answer needs.
    evidence: plan.needles
      .filter((n) => draw.queries.includes(n.key))
      .map((n, i) => ({
        label: `needle ${i + 1} (${n.key})`,
        start: n.tokenOffset,
        end: n.tokenOffset + n.tokenCount,
      })),
    metadata: {
      ...(ruler ? { flavour: 'ruler' } : {}),
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
      ...(sizing.kind === 'ruler'
        ? { sizing: 'ruler', ruler_start_units: sizing.start, ruler_step_units: sizing.step }
        : {}),
    },
  };
}
