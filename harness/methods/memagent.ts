import type {
  GenerationParams,
  Method,
  MethodCheckpoint,
  MethodContext,
  MethodOutput,
  Sample,
  Usage,
} from '../types.js';
import { afterLastThink, takeAnswer } from '../protocol/answer.js';
import { sampleDecoding } from '../protocol/decoding.js';
import { pyStrip } from '../protocol/pytext.js';
import { addUsage, callModel, failedOutput } from './call.js';
import { GENERATION_OPTIONS, samplingOf, templatesOf, type TemplatesInForce } from './options.js';
import {
  PLAN_OVERHEAD_TOKENS,
  type CallKind,
  type MethodDefinition,
  type MethodOption,
  type PlannedCall,
  type PlanInput,
} from './registry.js';
import { asksBoxed, FINAL_TEMPLATE, fillTemplate, NO_MEMORY, UPDATE_TEMPLATE } from './templates.js';
import { answerQuestion } from './chunked.js';
import { windowTexts } from './windows.js';

export interface MemAgentSettings {
  chunkTokens: number;
  memoryTokens: number;
  /** --temperature / --top-p; unset fields take the task's decoding (MemAgent's 0.7 / 0.95 on its own tasks). */
  temperature?: number;
  topP?: number;
  templates: Readonly<Record<'update' | 'final', string>>;
}

/** What MemAgent keeps in a checkpoint: the memory after the last finished update. */
export interface MemAgentState {
  memory: string;
}

/** The state of a checkpoint, if it is MemAgent's (a checkpoint it cannot read restarts the sample). */
function resumeState(resume: MethodCheckpoint | undefined): (MethodCheckpoint & { state: MemAgentState }) | undefined {
  const state = resume?.state as Partial<MemAgentState> | undefined;
  return resume && typeof state?.memory === 'string' ? { ...resume, state: { memory: state.memory } } : undefined;
}

/**
 * MemAgent (docs/PROTOCOLS.md §a): the context's token ids are cut into windows of chunkTokens, each decoded back to
 * text; after each window the model rewrites the memory (max memoryTokens new tokens): the reply after its last
 * </think>, stripped, replaces the old memory; a final call answers from the memory alone. Calls = ceil(tokens / chunkTokens) + 1.
 */
export function memAgentMethod(settings: MemAgentSettings): Method {
  return {
    name: 'memagent',
    chunkTokens: settings.chunkTokens,
    async run(sample: Sample, ctx: MethodContext): Promise<MethodOutput> {
      const params: GenerationParams = { maxTokens: settings.memoryTokens, ...sampleDecoding(settings, sample) };
      // recurrent.py: prompt = item['input'].strip(), on every task (docs/PROTOCOLS.md §a.3; LongBench too, §e.4).
      const question = pyStrip(sample.question);
      const resume = resumeState(ctx.resume);
      let memory = resume?.state.memory ?? NO_MEMORY;
      let step = resume?.step ?? 0;
      let usage: Usage = resume?.usage ?? { promptTokens: 0, completionTokens: 0 };
      let memoryTokens = ctx.tokenizer.count(memory);
      const updateOverhead = ctx.tokenizer.count(
        fillTemplate(settings.templates.update, { question, memory: '', chunk: '' }),
      );
      const windows = Math.ceil(sample.context.tokenCount / settings.chunkTokens);
      try {
        for (const window of windowTexts(sample.context, settings.chunkTokens, step, ctx.tokenizer)) {
          const chunk = window.text;
          const res = await callModel(ctx, sample, 'memagent', step, 'update', {
            messages: [{ role: 'user', content: fillTemplate(settings.templates.update, { question, memory, chunk }) }],
            params,
            promptTokensHint: updateOverhead + memoryTokens + window.tokens,
          });
          // The reply after its last </think>, stripped, replaces the memory (as upstream's driver keeps it).
          memory = afterLastThink(res.text);
          memoryTokens = res.usage.completionTokens;
          usage = addUsage(usage, res.usage);
          ctx.onMemory?.({ chunk: step, memory, tokens: memoryTokens });
          step++;
          ctx.onCheckpoint?.({ step, usage, state: { memory } satisfies MemAgentState });
        }
        const taskFinal = sample.prompt?.memagentFinal;
        const finalPrompt = fillTemplate(taskFinal ?? settings.templates.final, {
          question: answerQuestion(sample),
          memory,
        });
        const res = await callModel(ctx, sample, 'memagent', step, 'final', {
          messages: [{ role: 'user', content: finalPrompt }],
          params,
          promptTokensHint: ctx.tokenizer.count(finalPrompt),
        });
        usage = addUsage(usage, res.usage);
        step++;
        const text = res.text.trim();
        let prediction =
          taskFinal !== undefined ? text : takeAnswer(text, asksBoxed(settings.templates.final) ? 'boxed' : 'phrase');
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
        return failedOutput(err, step, usage, { windows, final_memory: memory });
      }
    },
  };
}

// Prompt tokens besides context and memory, as bench plan expects them: instructions (96), question (~25), chat
// template (~30) for an update; instructions 60 + question + template for the final call. Outputs: our assumption,
// no public trace of RL-MemAgent outputs exists (docs/SIMULATION.md, "Output lengths"); --calibrate measures them.
/** Tokens of "No previous memory", the memory before the first update. */
const INITIAL_MEMORY_TOKENS = 3;
export const UPDATE_CALL: CallKind = {
  name: 'update',
  overheadTokens: 150,
  readsMemory: { initialTokens: INITIAL_MEMORY_TOKENS },
  writesMemory: true,
  output: { median: 400, sigma: 0.5, min: 16, max: 1024 },
};
export const FINAL_CALL: CallKind = {
  name: 'final',
  overheadTokens: 115,
  readsMemory: { initialTokens: INITIAL_MEMORY_TOKENS },
  output: { median: 60, sigma: 0.6, min: 8, max: 1024 },
};

/** The calls of one sample: ceil(tokens / chunk) updates (the last window is the remainder), then the final answer. */
export function memAgentPlan(
  sample: PlanInput,
  settings: Pick<MemAgentSettings, 'chunkTokens' | 'memoryTokens'>,
): PlannedCall[] {
  const { chunkTokens: chunk, memoryTokens: memory } = settings;
  const updates = Math.ceil(sample.contextTokens / chunk);
  const calls: PlannedCall[] = [];
  for (let i = 0; i < updates; i++) {
    const window = i < updates - 1 ? chunk : sample.contextTokens - chunk * (updates - 1);
    calls.push({
      kind: UPDATE_CALL,
      contextTokens: window,
      promptTokensMax: window + PLAN_OVERHEAD_TOKENS + memory,
      maxNewTokens: memory,
    });
  }
  calls.push({
    kind: FINAL_CALL,
    contextTokens: 0,
    promptTokensMax: PLAN_OVERHEAD_TOKENS + memory,
    maxNewTokens: memory,
  });
  return calls;
}

export const CHUNK_TOKENS: MethodOption = {
  flag: 'chunk-tokens',
  type: 'integer',
  min: 16,
  default: 5000,
  help: 'context tokens per memory-update call',
};
export const MEMORY_TOKENS: MethodOption = {
  flag: 'memory-tokens',
  type: 'integer',
  min: 16,
  default: 1024,
  help: 'memory and final-answer budget (max new tokens of every call)',
};

export const memAgent: MethodDefinition<MemAgentSettings & TemplatesInForce<'update' | 'final'>> = {
  name: 'memagent',
  description: 'reads the context in windows, overwriting a fixed memory after each, then answers from memory alone',
  options: [CHUNK_TOKENS, MEMORY_TOKENS, ...GENERATION_OPTIONS],
  templates: [UPDATE_TEMPLATE, FINAL_TEMPLATE],
  calls: [UPDATE_CALL, FINAL_CALL],
  settings: (read) => ({
    chunkTokens: read.int(CHUNK_TOKENS),
    memoryTokens: read.int(MEMORY_TOKENS),
    ...samplingOf(read),
    ...templatesOf(read, [UPDATE_TEMPLATE, FINAL_TEMPLATE]),
  }),
  create: memAgentMethod,
  plan: memAgentPlan,
  identityExtras: (s) => ({ templates: s.templatesIdentity }),
};
