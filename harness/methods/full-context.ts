import type { ContextSource, Method, MethodContext, MethodOutput, Sample, Tokenizer } from '../types.js';
import { answerOnce } from './call.js';
import { GENERATION_OPTIONS, MAX_CONTEXT, ONE_SHOT_ANSWER_TOKENS, samplingOf, templatesIdentity, templatesOf } from './options.js';
import { intSetting, PLAN_OVERHEAD_TOKENS, type MethodDefinition, type MethodSettings, type PlannedCall, type PlanInput } from './registry.js';
import { fillTemplate, type TemplateSet } from './templates.js';
import { tokenWindows } from './windows.js';

export interface FullContextSettings {
  maxContext: number;
  maxNewTokens: number;
  temperature: number;
  topP: number;
  templates: TemplateSet;
}

const MARGIN = 64;

function firstIds(source: ContextSource, n: number): Uint32Array {
  for (const w of tokenWindows(source.pieces(), n)) return w;
  return new Uint32Array(0);
}

function lastIds(source: ContextSource, n: number): Uint32Array {
  const skip = Math.max(0, source.tokenCount - n);
  const out = new Uint32Array(Math.min(n, source.tokenCount));
  let seen = 0;
  let fill = 0;
  for (const piece of source.pieces()) {
    const start = Math.max(0, skip - seen);
    if (start < piece.length) {
      out.set(piece.subarray(start), fill);
      fill += piece.length - start;
    }
    seen += piece.length;
  }
  return out;
}

/**
 * The prompt for a context that may not fit: MemAgent/LongBench middle truncation keeps the first floor(max/2) and the
 * last ceil(max/2) tokens of the whole prompt (Python's -max//2) and decodes each half. To avoid encoding a
 * multi-million-token prompt, each half is encoded from its own region of the context plus a margin; the halves
 * are equal to the whole prompt's ids because pre-tokenization never merges across the margin.
 */
export function middleTruncatedPrompt(template: string, question: string, context: ContextSource, tokenizer: Tokenizer, maxContext: number): { prompt: string; truncated: boolean; promptTokens: number } {
  const [before, after] = fillTemplate(template, { question, context: '\u0000' }).split('\u0000');
  const overhead = tokenizer.count(before) + tokenizer.count(after);
  if (context.tokenCount + overhead <= maxContext - MARGIN) {
    const prompt = before + context.text() + after;
    return { prompt, truncated: false, promptTokens: context.tokenCount + overhead };
  }
  const headN = Math.floor(maxContext / 2);
  const tailN = maxContext - headN;
  if (context.tokenCount + overhead <= maxContext + MARGIN) {
    const prompt = before + context.text() + after;
    const ids = tokenizer.encode(prompt);
    if (ids.length <= maxContext) return { prompt, truncated: false, promptTokens: ids.length };
    return { prompt: tokenizer.decode(ids.subarray(0, headN)) + tokenizer.decode(ids.subarray(ids.length - tailN)), truncated: true, promptTokens: maxContext };
  }
  const headIds = tokenizer.encode(before + tokenizer.decode(firstIds(context, headN + MARGIN))).subarray(0, headN);
  const tailAll = tokenizer.encode(tokenizer.decode(lastIds(context, tailN + MARGIN)) + after);
  const tailIds = tailAll.subarray(tailAll.length - tailN);
  return { prompt: tokenizer.decode(headIds) + tokenizer.decode(tailIds), truncated: true, promptTokens: maxContext };
}

/** The whole context in one prompt, middle-truncated to maxContext tokens (docs/PROTOCOLS.md §a.9, §e.6). */
export function fullContextMethod(settings: FullContextSettings): Method {
  return {
    name: 'full-context',
    async run(sample: Sample, ctx: MethodContext): Promise<MethodOutput> {
      const template = sample.prompt?.fullContext ?? settings.templates.fullContext;
      const built = middleTruncatedPrompt(template, sample.question.trim(), sample.context, ctx.tokenizer, settings.maxContext);
      const defaultFormat = settings.templates.fullContext.includes('\\boxed{}') ? 'boxed' : 'phrase';
      return answerOnce(ctx, sample, 'full-context', built, { ...settings, defaultFormat }, { middle_truncated: built.truncated, prompt_tokens: built.promptTokens });
    },
  };
}

/** One answering call whose prompt holds at most the window (full-context and rag). */
export function oneShotPlan(sample: PlanInput, settings: MethodSettings): PlannedCall[] {
  const window = intSetting(settings, 'max-context');
  return [{
    kind: 'answer',
    contextTokens: Math.min(sample.contextTokens, window),
    promptTokensMax: Math.min(sample.contextTokens + PLAN_OVERHEAD_TOKENS, window),
    maxNewTokens: sample.maxNewTokens ?? ONE_SHOT_ANSWER_TOKENS,
  }];
}

export const fullContext: MethodDefinition = {
  name: 'full-context',
  description: 'the whole context in one prompt, middle-truncated to --max-context tokens',
  options: [MAX_CONTEXT, ...GENERATION_OPTIONS],
  create: (settings) =>
    fullContextMethod({ maxContext: intSetting(settings, 'max-context'), maxNewTokens: ONE_SHOT_ANSWER_TOKENS, ...samplingOf(settings), templates: templatesOf(settings) }),
  plan: oneShotPlan,
  identityExtras: templatesIdentity,
};
