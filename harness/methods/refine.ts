// LangChain's refine chain for question answering (docs/PROTOCOLS.md §j.4), as a chat model receives it: the first
// window goes through the initial prompt, every later window through the refine prompt beside the question and the
// answer so far; the last answer is the sample's. Calls = windows.
import { sampleDecoding } from '../protocol/decoding.js';
import { pyStrip } from '../protocol/pytext.js';
import type { ChatMessage, GenerationParams, Method, MethodContext, MethodOutput, Sample, Usage } from '../types.js';
import { addUsage, chatCall, failedOutput } from './call.js';
import {
  answeredOutput,
  answerQuestion,
  chunkTexts,
  isRecord,
  resumeOf,
  sameForEveryFinal,
  windowCount,
  windowSizes,
} from './chunked.js';
import { CHUNK_TOKENS, MEMORY_TOKENS } from './memagent.js';
import { GENERATION_OPTIONS, samplingOf, templatesOf, type TemplatesInForce } from './options.js';
import { REFINE_CHAT_INITIAL_SYSTEM, REFINE_CHAT_STEP } from './prompts/langchain.js';
import {
  PLAN_OVERHEAD_TOKENS,
  type CallKind,
  type MethodDefinition,
  type PlannedCall,
  type PlanInput,
} from './registry.js';
import { fillTemplate, type TemplateSpec } from './templates.js';

export const REFINE_INITIAL_TEMPLATE: TemplateSpec<'refineInitial'> = {
  name: 'refineInitial',
  slots: ['context_str'],
  defaults: sameForEveryFinal(REFINE_CHAT_INITIAL_SYSTEM),
};
export const REFINE_STEP_TEMPLATE: TemplateSpec<'refineStep'> = {
  name: 'refineStep',
  slots: ['context_str'],
  defaults: sameForEveryFinal(REFINE_CHAT_STEP),
};

export interface RefineSettings {
  chunkTokens: number;
  memoryTokens: number;
  temperature?: number;
  topP?: number;
  templates: Readonly<Record<'refineInitial' | 'refineStep', string>>;
}

interface RefineState {
  answer: string;
}
const isRefineState = (s: unknown): s is RefineState => isRecord(s) && typeof s.answer === 'string';

/** The chat messages of refine call `index` (0: the initial prompt as system message, then the question). */
export function refineMessages(
  templates: RefineSettings['templates'],
  index: number,
  question: string,
  chunk: string,
  answer: string,
): ChatMessage[] {
  if (index === 0)
    return [
      { role: 'system', content: fillTemplate(templates.refineInitial, { context_str: chunk }) },
      { role: 'user', content: question },
    ];
  return [
    { role: 'user', content: question },
    { role: 'assistant', content: answer },
    { role: 'user', content: fillTemplate(templates.refineStep, { context_str: chunk }) },
  ];
}

export function refineMethod(settings: RefineSettings): Method {
  return {
    name: 'refine',
    async run(sample: Sample, ctx: MethodContext): Promise<MethodOutput> {
      const params: GenerationParams = { maxTokens: settings.memoryTokens, ...sampleDecoding(settings, sample) };
      const question = pyStrip(sample.question);
      const resume = resumeOf(ctx.resume, isRefineState);
      let step = resume?.step ?? 0;
      let usage: Usage = resume?.usage ?? { promptTokens: 0, completionTokens: 0 };
      let answer = resume?.state.answer ?? '';
      let raw = answer;
      const windows = windowCount(sample.context.tokenCount, settings.chunkTokens);
      const extra = () => ({ windows });
      try {
        for (const chunk of chunkTexts(sample, ctx, settings.chunkTokens, step)) {
          // The last window's call gives the answer: it states the problem as the task's answering calls do.
          const asked = chunk.index === windows - 1 ? answerQuestion(sample) : question;
          const messages = refineMessages(settings.templates, chunk.index, asked, chunk.text, answer);
          const kind = chunk.index === 0 ? 'refine-initial' : 'refine';
          const res = await chatCall(ctx, sample, 'refine', step, kind, messages, params);
          usage = addUsage(usage, res.usage);
          step++;
          raw = res.text;
          answer = pyStrip(raw);
          ctx.onCheckpoint?.({ step, usage, state: { answer } satisfies RefineState });
        }
        return answeredOutput(raw, sample.prompt?.answerFormat, step, usage, extra());
      } catch (err) {
        return failedOutput(err, step, usage, extra());
      }
    },
  };
}

export const REFINE_INITIAL_CALL: CallKind = {
  name: 'refine-initial',
  overheadTokens: 70,
  writesMemory: true,
  output: { median: 60, sigma: 0.8, min: 8, max: 1024 },
};
export const REFINE_CALL: CallKind = {
  name: 'refine',
  overheadTokens: 110,
  readsMemory: { initialTokens: 0 },
  writesMemory: true,
  output: { median: 60, sigma: 0.8, min: 8, max: 1024 },
};

/** One call per window: the initial prompt, then the refine prompt. */
export function refinePlan(sample: PlanInput, s: Pick<RefineSettings, 'chunkTokens' | 'memoryTokens'>): PlannedCall[] {
  return windowSizes(sample.contextTokens, s.chunkTokens).map((w, i) => ({
    kind: i === 0 ? REFINE_INITIAL_CALL : REFINE_CALL,
    contextTokens: w,
    promptTokensMax: w + PLAN_OVERHEAD_TOKENS + (i === 0 ? 0 : s.memoryTokens),
    maxNewTokens: s.memoryTokens,
  }));
}

const TEMPLATES = [REFINE_INITIAL_TEMPLATE, REFINE_STEP_TEMPLATE] as const;

export const refine: MethodDefinition<RefineSettings & TemplatesInForce<'refineInitial' | 'refineStep'>> = {
  name: 'refine',
  description: "LangChain's refine chain: an answer from the first window, refined by each later window in turn",
  options: [
    { ...CHUNK_TOKENS, help: 'context tokens per refine call' },
    { ...MEMORY_TOKENS, help: 'max new tokens of each (refined) answer' },
    ...GENERATION_OPTIONS,
  ],
  templates: TEMPLATES,
  calls: [REFINE_INITIAL_CALL, REFINE_CALL],
  settings: (read) => ({
    chunkTokens: read.int(CHUNK_TOKENS),
    memoryTokens: read.int(MEMORY_TOKENS),
    ...samplingOf(read),
    ...templatesOf(read, TEMPLATES),
  }),
  create: refineMethod,
  plan: refinePlan,
  identityExtras: (s) => ({ templates: s.templatesIdentity }),
};
