import { pyStrip } from '../protocol/pytext.js';
import type { DecodingOverride } from '../protocol/decoding.js';
import type { ContextSource, Method, MethodContext, MethodOutput, PromptSpec, Sample, Tokenizer } from '../types.js';
import { answerOnce } from './call.js';
import {
  GENERATION_OPTIONS,
  MAX_CONTEXT,
  ONE_SHOT_ANSWER_TOKENS,
  samplingOf,
  templatesOf,
  type TemplatesInForce,
} from './options.js';
import {
  PLAN_OVERHEAD_TOKENS,
  type CallKind,
  type MethodDefinition,
  type PlannedCall,
  type PlanInput,
} from './registry.js';
import { asksBoxed, fillTemplate, ONE_SHOT_TEMPLATE } from './templates.js';
import { tokenWindows } from './windows.js';

export interface FullContextSettings extends DecodingOverride {
  maxContext: number;
  maxNewTokens: number;
  templates: Readonly<Record<'fullContext', string>>;
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

export type TruncationRule = NonNullable<PromptSpec['truncation']>;

/** Ids kept at each end of a prompt longer than maxContext (docs/PROTOCOLS.md §a.9, §e.6). */
export function truncationHalves(maxContext: number, rule: TruncationRule): { head: number; tail: number } {
  const head = Math.floor(maxContext / 2);
  // 'joined' (MemAgent): input_ids[:max//2] + input_ids[-max//2:] (-max//2 rounds towards minus infinity: the tail
  // keeps the odd id). 'halves' (LongBench): half = int(max_length/2); tokenized[:half] + tokenized[-half:] (max-1
  // ids for an odd max).
  return { head, tail: rule === 'halves' ? head : maxContext - head };
}

/** The kept ids as text: 'joined' decodes them in one call (MemAgent), 'halves' decodes each half and concatenates
 *  them (LongBench). */
function decodeKept(tokenizer: Tokenizer, head: Uint32Array, tail: Uint32Array, rule: TruncationRule): string {
  if (rule === 'halves') return tokenizer.decode(head) + tokenizer.decode(tail);
  const joined = new Uint32Array(head.length + tail.length);
  joined.set(head, 0);
  joined.set(tail, head.length);
  return tokenizer.decode(joined);
}

/**
 * The prompt for a context that may not fit: the whole prompt's ids, if more than maxContext, lose their middle
 * (truncationHalves: 'joined' by default, the task's rule where its PromptSpec names one). To avoid encoding a
 * multi-million-token prompt, each half is encoded from its own region of the context plus a margin; the halves
 * are equal to the whole prompt's ids because pre-tokenization never merges across the margin.
 */
export function middleTruncatedPrompt(
  template: string,
  question: string,
  context: ContextSource,
  tokenizer: Tokenizer,
  maxContext: number,
  rule: TruncationRule = 'joined',
): { prompt: string; truncated: boolean; promptTokens: number } {
  // A template without {context} (LongBench v2's 0shot_no_context) is all head.
  const [before, after = ''] = fillTemplate(template, { question, context: '\u0000' }).split('\u0000');
  const overhead = tokenizer.count(before) + tokenizer.count(after);
  if (context.tokenCount + overhead <= maxContext - MARGIN) {
    const prompt = before + context.text() + after;
    return { prompt, truncated: false, promptTokens: context.tokenCount + overhead };
  }
  const { head: headN, tail: tailN } = truncationHalves(maxContext, rule);
  if (context.tokenCount + overhead <= maxContext + MARGIN) {
    const prompt = before + context.text() + after;
    const ids = tokenizer.encode(prompt);
    if (ids.length <= maxContext) return { prompt, truncated: false, promptTokens: ids.length };
    return {
      prompt: decodeKept(tokenizer, ids.subarray(0, headN), ids.subarray(ids.length - tailN), rule),
      truncated: true,
      promptTokens: headN + tailN,
    };
  }
  const headIds = tokenizer.encode(before + tokenizer.decode(firstIds(context, headN + MARGIN))).subarray(0, headN);
  const tailAll = tokenizer.encode(tokenizer.decode(lastIds(context, tailN + MARGIN)) + after);
  const tailIds = tailAll.subarray(tailAll.length - tailN);
  return { prompt: decodeKept(tokenizer, headIds, tailIds, rule), truncated: true, promptTokens: headN + tailN };
}

/** The question as the one-shot template receives it: stripped (MemAgent's baselines) or raw (LongBench's pred.py). */
export function oneShotQuestion(sample: Sample): string {
  return sample.prompt?.questionFill === 'raw' ? sample.question : pyStrip(sample.question);
}

/** The whole context in one prompt, middle-truncated to maxContext tokens (docs/PROTOCOLS.md §a.9, §e.6). */
export function fullContextMethod(settings: FullContextSettings): Method {
  return {
    name: 'full-context',
    async run(sample: Sample, ctx: MethodContext): Promise<MethodOutput> {
      const template = sample.prompt?.fullContext ?? settings.templates.fullContext;
      const built = middleTruncatedPrompt(
        template,
        oneShotQuestion(sample),
        sample.context,
        ctx.tokenizer,
        settings.maxContext,
        sample.prompt?.truncation,
      );
      const defaultFormat = asksBoxed(settings.templates.fullContext) ? 'boxed' : 'phrase';
      return answerOnce(
        ctx,
        sample,
        'full-context',
        built,
        { ...settings, defaultFormat },
        { middle_truncated: built.truncated, prompt_tokens: built.promptTokens },
      );
    },
  };
}

/** The answering call of a one-shot method: its context plus the template and question (the same estimate as MemAgent's
 *  final call), never more than the plan's bound; outputs as assumed for MemAgent's final answer. */
export const ANSWER_CALL: CallKind = {
  name: 'answer',
  overheadTokens: 115,
  output: { median: 60, sigma: 0.6, min: 8, max: 1024 },
};

/** One answering call whose prompt holds at most the window (full-context and rag). */
export function oneShotPlan(sample: PlanInput, settings: { maxContext: number }): PlannedCall[] {
  const window = settings.maxContext;
  return [
    {
      kind: ANSWER_CALL,
      contextTokens: Math.min(sample.contextTokens, window),
      promptTokensMax: Math.min(sample.contextTokens + PLAN_OVERHEAD_TOKENS, window),
      maxNewTokens: sample.maxNewTokens ?? ONE_SHOT_ANSWER_TOKENS,
    },
  ];
}

export const fullContext: MethodDefinition<FullContextSettings & TemplatesInForce<'fullContext'>> = {
  name: 'full-context',
  description: 'the whole context in one prompt, middle-truncated to --max-context tokens',
  options: [
    { ...MAX_CONTEXT, help: 'prompt window in tokens; a longer prompt loses its middle' },
    ...GENERATION_OPTIONS,
  ],
  templates: [ONE_SHOT_TEMPLATE],
  calls: [ANSWER_CALL],
  settings: (read) => ({
    maxContext: read.int(MAX_CONTEXT),
    maxNewTokens: ONE_SHOT_ANSWER_TOKENS,
    ...samplingOf(read),
    ...templatesOf(read, [ONE_SHOT_TEMPLATE]),
  }),
  create: fullContextMethod,
  plan: oneShotPlan,
  identityExtras: (s) => ({ templates: s.templatesIdentity }),
};
