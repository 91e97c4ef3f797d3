// LongBench's "compress" baseline (docs/PROTOCOLS.md §j.5): the context is split into parts of about
// --compress-words words, each part summarised on its own ("Summerize the context above..."), and the labelled
// summaries ("Paragraph Summary1 : ...") answer the question through the one-shot prompt. Upstream's script never
// joins them (a NameError it swallows keeps the original context); we join them, as the method intends.
// Calls = parts + 1; a context under --compress-words words is answered whole, as upstream leaves it (1 call).
import { sampleDecoding } from '../protocol/decoding.js';
import { takeAnswer } from '../protocol/answer.js';
import type { Method, MethodContext, MethodOutput, Sample, Usage } from '../types.js';
import { addUsage, callModel, failedOutput } from './call.js';
import { isRecord, resumeOf, sameForEveryFinal } from './chunked.js';
import { mostlyChinese, splitForCompression } from './compress-split.js';
import { ANSWER_CALL, middleTruncatedPrompt, oneShotQuestion } from './full-context.js';
import {
  GENERATION_OPTIONS,
  MAX_CONTEXT,
  ONE_SHOT_ANSWER_TOKENS,
  samplingOf,
  templatesOf,
  type TemplatesInForce,
} from './options.js';
import { COMPRESS_EN, COMPRESS_ZH } from './prompts/compress.js';
import {
  PLAN_OVERHEAD_TOKENS,
  type CallKind,
  type MethodDefinition,
  type MethodOption,
  type PlannedCall,
  type PlanInput,
} from './registry.js';
import { asksBoxed, ONE_SHOT_TEMPLATE, type TemplateSpec } from './templates.js';
import { textContext } from '../context.js';

export const COMPRESS_TEMPLATE: TemplateSpec<'compress'> = {
  name: 'compress',
  slots: ['text'],
  defaults: sameForEveryFinal(`{text}\n${COMPRESS_EN}`),
};
export const COMPRESS_ZH_TEMPLATE: TemplateSpec<'compressZh'> = {
  name: 'compressZh',
  slots: ['text'],
  defaults: sameForEveryFinal(`{text}\n${COMPRESS_ZH}`),
};

export interface CompressSettings {
  maxWords: number;
  summaryTokens: number;
  maxContext: number;
  maxNewTokens: number;
  temperature?: number;
  topP?: number;
  templates: Readonly<Record<'compress' | 'compressZh' | 'fullContext', string>>;
}

interface CompressState {
  summaries: string[];
}
const isState = (s: unknown): s is CompressState =>
  isRecord(s) && Array.isArray(s.summaries) && s.summaries.every((x) => typeof x === 'string');

/** The summaries as upstream labels them, concatenated. */
export function labelledSummaries(summaries: readonly string[], chinese: boolean): string {
  const label = chinese ? '段落摘要' : 'Paragraph Summary';
  return summaries.map((s, i) => `${label}${i + 1} : ${s}\n`).join('');
}

export function compressMethod(settings: CompressSettings): Method {
  return {
    name: 'compress',
    async run(sample: Sample, ctx: MethodContext): Promise<MethodOutput> {
      const decoding = sampleDecoding(settings, sample);
      const text = sample.context.text();
      const parts = splitForCompression(text, settings.maxWords);
      const chinese = mostlyChinese(text);
      const resume = resumeOf(ctx.resume, isState);
      const summaries = resume?.state.summaries ?? [];
      let step = resume?.step ?? 0;
      let usage: Usage = resume?.usage ?? { promptTokens: 0, completionTokens: 0 };
      const extra = () => ({ parts: parts?.length ?? 0, language: chinese ? 'zh' : 'en' });
      try {
        const template = chinese ? settings.templates.compressZh : settings.templates.compress;
        for (let i = summaries.length; i < (parts?.length ?? 0); i++) {
          // The prompt is built by concatenation upstream (text + '\n' + instruction): no slot is re-read.
          const prompt = template.split('{text}').join(parts![i]);
          const res = await callModel(ctx, sample, 'compress', step, 'summarise', {
            messages: [{ role: 'user', content: prompt }],
            params: { maxTokens: settings.summaryTokens, ...decoding },
            promptTokensHint: ctx.tokenizer.count(prompt),
          });
          summaries.push(res.text);
          usage = addUsage(usage, res.usage);
          step++;
          ctx.onCheckpoint?.({ step, usage, state: { summaries: [...summaries] } satisfies CompressState });
        }
        const context =
          parts === null ? sample.context : textContext(labelledSummaries(summaries, chinese), ctx.tokenizer);
        const oneShot = sample.prompt?.fullContext ?? settings.templates.fullContext;
        const built = middleTruncatedPrompt(
          oneShot,
          oneShotQuestion(sample),
          context,
          ctx.tokenizer,
          settings.maxContext,
          sample.prompt?.truncation,
        );
        const res = await callModel(ctx, sample, 'compress', step, 'answer', {
          messages: [{ role: 'user', content: built.prompt }],
          params: { maxTokens: sample.prompt?.maxNewTokens ?? settings.maxNewTokens, ...decoding },
          promptTokensHint: built.promptTokens,
        });
        usage = addUsage(usage, res.usage);
        step++;
        const format = sample.prompt?.answerFormat ?? (asksBoxed(settings.templates.fullContext) ? 'boxed' : 'phrase');
        return {
          prediction: takeAnswer(format === 'raw' ? res.text : res.text.trim(), format),
          rawOutput: res.text,
          status: 'ok',
          calls: step,
          usage,
          extra: { ...extra(), compressed_tokens: context.tokenCount, middle_truncated: built.truncated },
        };
      } catch (err) {
        return failedOutput(err, step, usage, extra());
      }
    },
  };
}

export const SUMMARISE_CALL: CallKind = {
  name: 'summarise',
  overheadTokens: 20,
  output: { median: 150, sigma: 0.4, min: 8, max: 200 },
};

/** Words per token of English prose in the qwen2.5 vocabulary, as get_word_list counts words (measured on
 *  RULER-HQA contexts at 16k and 32k: 0.64-0.66; plans only). */
export const WORDS_PER_TOKEN = 0.655;

/** An estimate: the parts follow the word count, which a plan knows only through the token count. */
export function compressPlan(
  sample: PlanInput,
  s: Pick<CompressSettings, 'maxWords' | 'summaryTokens' | 'maxContext'>,
): PlannedCall[] {
  const splitLen = Math.floor((sample.contextTokens * WORDS_PER_TOKEN) / s.maxWords);
  const parts = splitLen === 0 ? 0 : splitLen + 1;
  const each = parts === 0 ? 0 : Math.ceil(sample.contextTokens / parts);
  const calls: PlannedCall[] = Array.from({ length: parts }, () => ({
    kind: SUMMARISE_CALL,
    contextTokens: each,
    promptTokensMax: each + PLAN_OVERHEAD_TOKENS,
    maxNewTokens: s.summaryTokens,
  }));
  const context = parts === 0 ? sample.contextTokens : parts * (s.summaryTokens + 8);
  calls.push({
    kind: ANSWER_CALL,
    contextTokens: Math.min(context, s.maxContext),
    promptTokensMax: Math.min(context + PLAN_OVERHEAD_TOKENS, s.maxContext),
    maxNewTokens: sample.maxNewTokens ?? ONE_SHOT_ANSWER_TOKENS,
  });
  return calls;
}

const MAX_WORDS: MethodOption = {
  flag: 'compress-words',
  type: 'integer',
  min: 16,
  max: 1_000_000,
  default: 500,
  help: 'words per summarised part (upstream --max_len)',
};
const SUMMARY_TOKENS: MethodOption = {
  flag: 'compress-summary-tokens',
  type: 'integer',
  min: 8,
  max: 100_000,
  default: 200,
  help: 'max new tokens of each part summary',
};

const TEMPLATES = [COMPRESS_TEMPLATE, COMPRESS_ZH_TEMPLATE, ONE_SHOT_TEMPLATE] as const;

export const compress: MethodDefinition<
  CompressSettings & TemplatesInForce<'compress' | 'compressZh' | 'fullContext'>
> = {
  name: 'compress',
  description: 'compress: each ~500-word part summarised alone, the labelled summaries answered one-shot',
  options: [
    MAX_WORDS,
    SUMMARY_TOKENS,
    { ...MAX_CONTEXT, help: 'prompt window of the answering call (a context too short to split goes whole)' },
    ...GENERATION_OPTIONS,
  ],
  templates: TEMPLATES,
  calls: [SUMMARISE_CALL, ANSWER_CALL],
  settings: (read) => ({
    maxWords: read.int(MAX_WORDS),
    summaryTokens: read.int(SUMMARY_TOKENS),
    maxContext: read.int(MAX_CONTEXT),
    maxNewTokens: ONE_SHOT_ANSWER_TOKENS,
    ...samplingOf(read),
    ...templatesOf(read, TEMPLATES),
  }),
  create: compressMethod,
  plan: compressPlan,
  identityExtras: (s) => ({ templates: s.templatesIdentity }),
};
