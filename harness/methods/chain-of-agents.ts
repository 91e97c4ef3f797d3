// Chain-of-Agents (docs/PROTOCOLS.md §j.3): workers read the context's windows in order, each writing a summary of
// its window and the previous worker's summary ("communication unit"); a manager answers from the last one.
import { sampleDecoding } from '../protocol/decoding.js';
import { pyStrip } from '../protocol/pytext.js';
import type { ChatMessage, GenerationParams, Method, MethodContext, MethodOutput, Sample, Usage } from '../types.js';
import { addUsage, chatCall, failedOutput } from './call.js';
import { answeredOutput, answerQuestion, chunkTexts, isRecord, resumeOf, windowCount, windowSizes } from './chunked.js';
import { CHUNK_TOKENS, MEMORY_TOKENS } from './memagent.js';
import { FINAL, GENERATION_OPTIONS, samplingOf, templatesOf, type TemplatesInForce } from './options.js';
import { COA_MANAGER, COA_WORKER } from './prompts/chain-of-agents.js';
import {
  PLAN_OVERHEAD_TOKENS,
  type CallKind,
  type MethodDefinition,
  type PlannedCall,
  type PlanInput,
} from './registry.js';
import { asksBoxed, fillTemplate, type FinalVariant, type TemplateSpec } from './templates.js';
import { sameForEveryFinal } from './chunked.js';

export const COA_WORKER_TEMPLATE: TemplateSpec<'coaWorker'> = {
  name: 'coaWorker',
  slots: ['i', 'chunk', 'prev_cu', 'question'],
  defaults: sameForEveryFinal(COA_WORKER),
};
export const COA_MANAGER_TEMPLATE: TemplateSpec<'coaManager'> = {
  name: 'coaManager',
  slots: ['task_requirements', 'final_cu', 'question'],
  defaults: sameForEveryFinal(COA_MANAGER),
};

/** The manager's {task_requirements}: the paper leaves it per task; ours asks for the answer format of --final. */
export const COA_TASK_REQUIREMENTS: Record<FinalVariant, string> = {
  phrase: 'Format your response as follows: "Therefore, the answer is (insert answer here)".',
  boxed: 'Put the answer in \\boxed{}.',
  'boxed-upstream': 'Put the answer in \\boxed{}.',
};

export interface ChainOfAgentsSettings {
  chunkTokens: number;
  memoryTokens: number;
  temperature?: number;
  topP?: number;
  taskRequirements: string;
  templates: Readonly<Record<'coaWorker' | 'coaManager', string>>;
}

interface CoaState {
  cu: string;
}
const isCoaState = (s: unknown): s is CoaState => isRecord(s) && typeof s.cu === 'string';

export function chainOfAgentsMethod(settings: ChainOfAgentsSettings): Method {
  return {
    name: 'chain-of-agents',
    async run(sample: Sample, ctx: MethodContext): Promise<MethodOutput> {
      const params: GenerationParams = { maxTokens: settings.memoryTokens, ...sampleDecoding(settings, sample) };
      const question = pyStrip(sample.question);
      const resume = resumeOf(ctx.resume, isCoaState);
      let step = resume?.step ?? 0;
      let usage: Usage = resume?.usage ?? { promptTokens: 0, completionTokens: 0 };
      let cu = resume?.state.cu ?? '';
      const workers = windowCount(sample.context.tokenCount, settings.chunkTokens);
      const extra = () => ({ windows: workers, final_memory: cu });
      const send = async (kind: string, prompt: string) => {
        const messages: ChatMessage[] = [{ role: 'user', content: prompt }];
        const res = await chatCall(ctx, sample, 'chain-of-agents', step, kind, messages, params);
        usage = addUsage(usage, res.usage);
        step++;
        return res.text;
      };
      try {
        for (const chunk of chunkTexts(sample, ctx, settings.chunkTokens, step)) {
          const prompt = fillTemplate(settings.templates.coaWorker, {
            i: String(chunk.index + 1),
            chunk: chunk.text,
            prev_cu: cu,
            question,
          });
          cu = pyStrip(await send('worker', prompt));
          ctx.onCheckpoint?.({ step, usage, state: { cu } satisfies CoaState });
        }
        const prompt = fillTemplate(settings.templates.coaManager, {
          task_requirements: settings.taskRequirements,
          final_cu: cu,
          question: answerQuestion(sample),
        });
        const text = await send('manager', prompt);
        const format = sample.prompt?.answerFormat ?? (asksBoxed(settings.taskRequirements) ? 'boxed' : 'phrase');
        return answeredOutput(text, format, step, usage, extra());
      } catch (err) {
        return failedOutput(err, step, usage, extra());
      }
    },
  };
}

// Prompt overheads: the worker's instruction (~75 tokens) and question; the manager's (~40) plus requirements.
export const COA_WORKER_CALL: CallKind = {
  name: 'worker',
  overheadTokens: 110,
  readsMemory: { initialTokens: 0 },
  writesMemory: true,
  output: { median: 400, sigma: 0.5, min: 16, max: 1024 },
};
export const COA_MANAGER_CALL: CallKind = {
  name: 'manager',
  overheadTokens: 90,
  readsMemory: { initialTokens: 0 },
  output: { median: 60, sigma: 0.6, min: 8, max: 1024 },
};

/** One worker per window, then the manager. */
export function chainOfAgentsPlan(
  sample: PlanInput,
  s: Pick<ChainOfAgentsSettings, 'chunkTokens' | 'memoryTokens'>,
): PlannedCall[] {
  const calls: PlannedCall[] = windowSizes(sample.contextTokens, s.chunkTokens).map((w) => ({
    kind: COA_WORKER_CALL,
    contextTokens: w,
    promptTokensMax: w + PLAN_OVERHEAD_TOKENS + s.memoryTokens,
    maxNewTokens: s.memoryTokens,
  }));
  calls.push({
    kind: COA_MANAGER_CALL,
    contextTokens: 0,
    promptTokensMax: PLAN_OVERHEAD_TOKENS + s.memoryTokens,
    maxNewTokens: s.memoryTokens,
  });
  return calls;
}

const TEMPLATES = [COA_WORKER_TEMPLATE, COA_MANAGER_TEMPLATE] as const;

export const chainOfAgents: MethodDefinition<ChainOfAgentsSettings & TemplatesInForce<'coaWorker' | 'coaManager'>> = {
  name: 'chain-of-agents',
  description: 'workers summarise the windows in turn, each passing its summary on; a manager answers from the last',
  options: [
    { ...CHUNK_TOKENS, help: 'context tokens per worker' },
    { ...MEMORY_TOKENS, help: "max new tokens of each worker's summary and of the manager's answer" },
    ...GENERATION_OPTIONS,
  ],
  templates: TEMPLATES,
  calls: [COA_WORKER_CALL, COA_MANAGER_CALL],
  settings: (read) => {
    const variant = read.choice(FINAL);
    return {
      chunkTokens: read.int(CHUNK_TOKENS),
      memoryTokens: read.int(MEMORY_TOKENS),
      taskRequirements: COA_TASK_REQUIREMENTS[variant],
      ...samplingOf(read),
      ...templatesOf(read, TEMPLATES),
    };
  },
  create: chainOfAgentsMethod,
  plan: chainOfAgentsPlan,
  identityExtras: (s) => ({ templates: s.templatesIdentity }),
};
