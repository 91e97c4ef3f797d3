import type { ContextSource, Method, MethodContext, MethodOutput, Sample, Tokenizer } from '../types.js';
import { Bm25Index, TopK } from './bm25.js';
import { answerOnce } from './call.js';
import { ANSWER_CALL, oneShotPlan, oneShotQuestion } from './full-context.js';
import {
  GENERATION_OPTIONS,
  MAX_CONTEXT,
  ONE_SHOT_ANSWER_TOKENS,
  samplingOf,
  templatesOf,
  type TemplatesInForce,
} from './options.js';
import type { MethodDefinition, MethodOption } from './registry.js';
import { asksBoxed, fillTemplate, ONE_SHOT_TEMPLATE } from './templates.js';
import { tokenWindows } from './windows.js';

export interface RagSettings {
  /** The prompt window, as for full-context: the built prompt never exceeds it. */
  maxContext: number;
  /** Passage size in context tokens. Default 500. */
  passageTokens?: number;
  /** At most this many passages (default: as many as fit in the window). */
  topK?: number;
  maxNewTokens: number;
  /** --temperature / --top-p; unset fields take the task's decoding. */
  temperature?: number;
  topP?: number;
  templates: Readonly<Record<'fullContext', string>>;
}

export const PASSAGE_SEPARATOR = '\n\n';

export interface PassageSelection {
  total: number;
  /** Kept passage indices in document order. */
  positions: number[];
  /** The kept passages' text, in document order. */
  texts: string[];
  prompt: string;
  promptTokens: number;
}

/** Decoded text of the windows at `positions` (sorted), re-reading the context once. */
function decodeAt(context: ContextSource, size: number, positions: number[], tokenizer: Tokenizer): string[] {
  const out: string[] = [];
  let i = 0;
  let next = 0;
  for (const window of tokenWindows(context.pieces(), size)) {
    if (next >= positions.length) break;
    if (i === positions[next]) {
      out.push(tokenizer.decode(window));
      next++;
    }
    i++;
  }
  return out;
}

/**
 * BM25 retrieval within one prompt window. The context's token ids are cut into passages of `passageTokens`
 * (decoded one at a time and reduced to the question's term counts), ranked by BM25 against the question, and the
 * best that fit in maxContext minus the template and question are put back in document order. The built prompt is
 * counted exactly; if edge merges push it over, the lowest-ranked passage is dropped until it fits.
 */
export function selectPassages(
  template: string,
  question: string,
  context: ContextSource,
  tokenizer: Tokenizer,
  maxContext: number,
  passageTokens: number,
  topK = Infinity,
): PassageSelection {
  const build = (texts: string[]) => fillTemplate(template, { question, context: texts.join(PASSAGE_SEPARATOR) });
  const budget = maxContext - tokenizer.count(build([]));
  const sep = tokenizer.count(PASSAGE_SEPARATOR);

  const index = new Bm25Index(question);
  const lengths: number[] = [];
  for (const window of tokenWindows(context.pieces(), passageTokens)) {
    index.add(tokenizer.decode(window));
    lengths.push(window.length);
  }
  const total = lengths.length;

  // Every full passage costs at least passageTokens, so no more than this many can be kept.
  const top = new TopK(Math.min(total, topK, Math.floor(Math.max(0, budget) / passageTokens) + 1));
  for (let i = 0; i < total; i++) top.offer(i, index.score(i));
  const ranked: number[] = [];
  let used = 0;
  for (const { pos } of top.best()) {
    const cost = lengths[pos] + (ranked.length > 0 ? sep : 0);
    if (used + cost > budget) continue;
    ranked.push(pos);
    used += cost;
  }

  for (;;) {
    const positions = [...ranked].sort((a, b) => a - b);
    const texts = decodeAt(context, passageTokens, positions, tokenizer);
    const prompt = build(texts);
    const promptTokens = tokenizer.count(prompt);
    if (promptTokens <= maxContext || ranked.length === 0) return { total, positions, texts, prompt, promptTokens };
    ranked.pop();
  }
}

/** BM25 top passages of the context in one prompt of at most maxContext tokens (the rag baseline). */
export function ragMethod(settings: RagSettings): Method {
  const passageTokens = settings.passageTokens ?? 500;
  if (!Number.isInteger(passageTokens) || passageTokens < 1)
    throw new Error(`rag: passageTokens must be a positive integer, got ${passageTokens}`);
  if (settings.topK !== undefined && (!Number.isInteger(settings.topK) || settings.topK < 1))
    throw new Error(`rag: topK must be a positive integer, got ${settings.topK}`);
  return {
    name: 'rag',
    async run(sample: Sample, ctx: MethodContext): Promise<MethodOutput> {
      const template = sample.prompt?.fullContext ?? settings.templates.fullContext;
      const sel = selectPassages(
        template,
        oneShotQuestion(sample),
        sample.context,
        ctx.tokenizer,
        settings.maxContext,
        passageTokens,
        settings.topK,
      );
      const extra = {
        passages_total: sel.total,
        passages_kept: sel.positions.length,
        kept_positions: sel.positions,
        prompt_tokens: sel.promptTokens,
      };
      const defaultFormat = asksBoxed(settings.templates.fullContext) ? 'boxed' : 'phrase';
      return answerOnce(ctx, sample, 'rag', sel, { ...settings, defaultFormat }, extra);
    },
  };
}

const RAG_TOP_K: MethodOption = {
  flag: 'rag-top-k',
  type: 'integer',
  min: 1,
  help: 'keep at most N passages (default: as many as fit the window)',
};

export const rag: MethodDefinition<RagSettings & TemplatesInForce<'fullContext'>> = {
  name: 'rag',
  description:
    'BM25 over 500-token passages; the best that fit --max-context, in document order, in the full-context prompt',
  options: [
    { ...MAX_CONTEXT, help: 'prompt window in tokens, filled with the best passages' },
    RAG_TOP_K,
    ...GENERATION_OPTIONS,
  ],
  templates: [ONE_SHOT_TEMPLATE],
  calls: [ANSWER_CALL],
  settings: (read) => {
    const topK = read.optionalInt(RAG_TOP_K);
    return {
      maxContext: read.int(MAX_CONTEXT),
      maxNewTokens: ONE_SHOT_ANSWER_TOKENS,
      ...samplingOf(read),
      ...templatesOf(read, [ONE_SHOT_TEMPLATE]),
      ...(topK ? { topK } : {}),
    };
  },
  create: ragMethod,
  plan: oneShotPlan,
  identityExtras: (s) => ({ templates: s.templatesIdentity }),
};
