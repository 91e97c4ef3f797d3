import type { GenerationParams, Method, MethodContext, MethodOutput, Sample, Usage } from '../types.js';
import { errorMessage } from '../errors.js';
import { afterLastThink, takeAnswer } from '../protocol/answer.js';
import { sampleDecoding } from '../protocol/decoding.js';
import { pyStrip } from '../protocol/pytext.js';
import { addUsage, callModel, failureStatus } from './call.js';
import { GENERATION_OPTIONS, samplingOf, templatesIdentity, templatesOf } from './options.js';
import {
  intSetting,
  PLAN_OVERHEAD_TOKENS,
  type MethodDefinition,
  type MethodSettings,
  type PlannedCall,
  type PlanInput,
} from './registry.js';
import { asksBoxed, fillTemplate, NO_MEMORY, type TemplateSet } from './templates.js';
import { skipWindows } from './windows.js';

export interface MemAgentSettings {
  chunkTokens: number;
  memoryTokens: number;
  /** --temperature / --top-p; unset fields take the task's decoding (MemAgent's 0.7 / 0.95 on its own tasks). */
  temperature?: number;
  topP?: number;
  templates: TemplateSet;
}

/**
 * MemAgent (docs/PROTOCOLS.md §a): the context's token ids are cut into windows of chunkTokens, each decoded back to
 * text; after each window the model rewrites the memory (max memoryTokens new tokens): the reply after its last
 * </think>, stripped, replaces the old memory; a final call answers from the memory alone. Calls = ceil(tokens / chunkTokens) + 1.
 */
export function memAgentMethod(settings: MemAgentSettings): Method {
  return {
    name: 'memagent',
    async run(sample: Sample, ctx: MethodContext): Promise<MethodOutput> {
      const params: GenerationParams = { maxTokens: settings.memoryTokens, ...sampleDecoding(settings, sample) };
      // recurrent.py: prompt = item['input'].strip(), on every task (docs/PROTOCOLS.md §a.3; LongBench too, §e.4).
      const question = pyStrip(sample.question);
      let memory = ctx.resume?.memory ?? NO_MEMORY;
      let step = ctx.resume?.step ?? 0;
      let usage: Usage = ctx.resume?.usage ?? { promptTokens: 0, completionTokens: 0 };
      let memoryTokens = ctx.resume ? ctx.tokenizer.count(memory) : ctx.tokenizer.count(NO_MEMORY);
      const updateOverhead = ctx.tokenizer.count(
        fillTemplate(settings.templates.update, { question, memory: '', chunk: '' }),
      );
      const windows = Math.ceil(sample.context.tokenCount / settings.chunkTokens);
      try {
        for (const window of skipWindows(sample.context.pieces(), settings.chunkTokens, step)) {
          const chunk = ctx.tokenizer.decode(window);
          const res = await callModel(ctx, sample, 'memagent', step, 'update', {
            messages: [{ role: 'user', content: fillTemplate(settings.templates.update, { question, memory, chunk }) }],
            params,
            promptTokensHint: updateOverhead + memoryTokens + window.length,
          });
          // The reply after its last </think>, stripped, replaces the memory (as upstream's driver keeps it).
          memory = afterLastThink(res.text);
          memoryTokens = res.usage.completionTokens;
          usage = addUsage(usage, res.usage);
          step++;
          ctx.onCheckpoint?.({ step, memory, usage });
        }
        const finalPrompt = fillTemplate(settings.templates.final, { question, memory });
        const res = await callModel(ctx, sample, 'memagent', step, 'final', {
          messages: [{ role: 'user', content: finalPrompt }],
          params,
          promptTokensHint: ctx.tokenizer.count(finalPrompt),
        });
        usage = addUsage(usage, res.usage);
        step++;
        const text = res.text.trim();
        let prediction = takeAnswer(text, asksBoxed(settings.templates.final) ? 'boxed' : 'phrase');
        // Tasks scored on the raw continuation (LongBench) fall back to the whole reply when no phrase is present.
        if (prediction === null && sample.prompt?.answerFormat === 'raw') prediction = text;
        return {
          prediction,
          rawOutput: res.text,
          status: 'ok',
          calls: step,
          usage,
          extra: { windows, final_memory: memory },
        };
      } catch (err) {
        return {
          prediction: null,
          rawOutput: '',
          status: failureStatus(err),
          error: errorMessage(err),
          calls: step,
          usage,
          extra: { windows, final_memory: memory },
        };
      }
    },
  };
}

/** The calls of one sample: ceil(tokens / chunk) updates (the last window is the remainder), then the final answer. */
export function memAgentPlan(sample: PlanInput, settings: MethodSettings): PlannedCall[] {
  const chunk = intSetting(settings, 'chunk-tokens');
  const memory = intSetting(settings, 'memory-tokens');
  const updates = Math.ceil(sample.contextTokens / chunk);
  const calls: PlannedCall[] = [];
  for (let i = 0; i < updates; i++) {
    const window = i < updates - 1 ? chunk : sample.contextTokens - chunk * (updates - 1);
    calls.push({
      kind: 'update',
      contextTokens: window,
      promptTokensMax: window + PLAN_OVERHEAD_TOKENS + memory,
      maxNewTokens: memory,
    });
  }
  calls.push({ kind: 'final', contextTokens: 0, promptTokensMax: PLAN_OVERHEAD_TOKENS + memory, maxNewTokens: memory });
  return calls;
}

export const memAgent: MethodDefinition = {
  name: 'memagent',
  description: 'reads the context in windows, overwriting a fixed memory after each, then answers from memory alone',
  options: [
    { flag: 'chunk-tokens', type: 'integer', min: 16, default: 5000, help: 'context tokens per memory-update call' },
    {
      flag: 'memory-tokens',
      type: 'integer',
      min: 16,
      default: 1024,
      help: 'memory and final-answer budget (max new tokens of every call)',
    },
    ...GENERATION_OPTIONS,
  ],
  create: (settings) =>
    memAgentMethod({
      chunkTokens: intSetting(settings, 'chunk-tokens'),
      memoryTokens: intSetting(settings, 'memory-tokens'),
      ...samplingOf(settings),
      templates: templatesOf(settings),
    }),
  plan: memAgentPlan,
  identityExtras: templatesIdentity,
};
