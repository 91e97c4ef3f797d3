// ReMemR1 (docs/PROTOCOLS.md §j.2; syr-cn/ReMemR1 rememr1.py async_query_llm): MemAgent's reading with a richer
// update: the reply minus any <recall>…</recall> becomes the memory (its <thinking> and <update> parts included),
// every memory is kept, and a <recall>query</recall> brings back the most similar past memory (TF-IDF, top 1) into
// the next prompt; the final prompt asks for \boxed{}. Calls = windows + 1.
import { afterLastThink, extractBoxedAnswer } from '../protocol/answer.js';
import { sampleDecoding } from '../protocol/decoding.js';
import { pyStrip } from '../protocol/pytext.js';
import { stripSpecialTokens } from '../protocol/special-tokens.js';
import type { GenerationParams, Method, MethodContext, MethodOutput, Sample, Usage } from '../types.js';
import { addUsage, callModel, failedOutput } from './call.js';
import {
  answerQuestion,
  chunkTexts,
  isRecord,
  resumeOf,
  sameForEveryFinal,
  windowCount,
  windowSizes,
} from './chunked.js';
import { CHUNK_TOKENS } from './memagent.js';
import { GENERATION_OPTIONS, samplingOf, templatesOf, type TemplatesInForce } from './options.js';
import { REMEMR1_FINAL, REMEMR1_UPDATE } from './prompts/rememr1.js';
import {
  PLAN_OVERHEAD_TOKENS,
  type CallKind,
  type MethodDefinition,
  type MethodOption,
  type PlannedCall,
  type PlanInput,
} from './registry.js';
import { fillTemplate, NO_MEMORY, type TemplateSpec } from './templates.js';
import { top1Retrieve, type TermCounts } from './tfidf.js';

export const NO_RECALLED_MEMORY = 'No memory was recalled.';

export const REMEMR1_UPDATE_TEMPLATE: TemplateSpec<'rememr1Update'> = {
  name: 'rememr1Update',
  slots: ['question', 'recalled_memory', 'memory', 'chunk'],
  defaults: sameForEveryFinal(REMEMR1_UPDATE),
};
export const REMEMR1_FINAL_TEMPLATE: TemplateSpec<'rememr1Final'> = {
  name: 'rememr1Final',
  slots: ['question', 'recalled_memory', 'memory'],
  defaults: sameForEveryFinal(REMEMR1_FINAL),
};

export interface ReMemR1Settings {
  chunkTokens: number;
  maxNewTokens: number;
  recall: boolean;
  temperature?: number;
  topP?: number;
  templates: Readonly<Record<'rememr1Update' | 'rememr1Final', string>>;
}

interface ReMemR1State {
  memory: string;
  recalled: string;
  /** Every memory written so far, each once, in the order first written. */
  past: string[];
  recalls: number;
}
const isState = (s: unknown): s is ReMemR1State =>
  isRecord(s) &&
  typeof s.memory === 'string' &&
  typeof s.recalled === 'string' &&
  Array.isArray(s.past) &&
  s.past.every((x) => typeof x === 'string') &&
  typeof s.recalls === 'number';

/** _parse_update_memory2: the reply without its <recall>…</recall> parts (non-greedy, across lines), stripped. */
export function memoryOfReply(reply: string): string {
  return pyStrip(reply.replace(/<recall>[\s\S]*?<\/recall>/g, ''));
}

/** _parse_recall_query: group 1 of the first <recall>(.+)</recall> on one line (greedy), or null. */
export function recallQuery(reply: string): string | null {
  const m = /<recall>(.+)<\/recall>/.exec(reply);
  return m ? m[1] : null;
}

/** test_qa.py: the last \boxed{} of the text after the last </think> (the whole reply when none). */
export function boxedAnswer(reply: string): string | null {
  const text = stripSpecialTokens(reply);
  const after = afterLastThink(text);
  return extractBoxedAnswer(after !== '' ? after : text);
}

export function reMemR1Method(settings: ReMemR1Settings): Method {
  return {
    name: 'rememr1',
    async run(sample: Sample, ctx: MethodContext): Promise<MethodOutput> {
      const params: GenerationParams = { maxTokens: settings.maxNewTokens, ...sampleDecoding(settings, sample) };
      const question = pyStrip(sample.question);
      const resume = resumeOf(ctx.resume, isState);
      const termCounts: TermCounts = new Map();
      const state: ReMemR1State = resume?.state ?? {
        memory: NO_MEMORY,
        recalled: NO_RECALLED_MEMORY,
        past: [],
        recalls: 0,
      };
      let step = resume?.step ?? 0;
      let usage: Usage = resume?.usage ?? { promptTokens: 0, completionTokens: 0 };
      const windows = windowCount(sample.context.tokenCount, settings.chunkTokens);
      const extra = () => ({ windows, recalls: state.recalls, final_memory: state.memory });
      try {
        for (const chunk of chunkTexts(sample, ctx, settings.chunkTokens, step)) {
          const prompt = fillTemplate(settings.templates.rememr1Update, {
            question,
            recalled_memory: state.recalled,
            memory: state.memory,
            chunk: chunk.text,
          });
          const res = await callModel(ctx, sample, 'rememr1', step, 'recall-update', {
            messages: [{ role: 'user', content: prompt }],
            params,
            promptTokensHint: ctx.tokenizer.count(prompt),
          });
          usage = addUsage(usage, res.usage);
          step++;
          state.memory = memoryOfReply(res.text);
          if (!state.past.includes(state.memory)) state.past.push(state.memory);
          const query = settings.recall ? recallQuery(res.text) : null;
          if (query === null) state.recalled = NO_RECALLED_MEMORY;
          else {
            state.recalled = top1Retrieve(query, state.past, ctx.tokenizer, termCounts) ?? 'None';
            state.recalls++;
          }
          ctx.onCheckpoint?.({ step, usage, state: structuredClone(state) });
        }
        const prompt = fillTemplate(settings.templates.rememr1Final, {
          question: answerQuestion(sample),
          recalled_memory: state.recalled,
          memory: state.memory,
        });
        const res = await callModel(ctx, sample, 'rememr1', step, 'boxed-final', {
          messages: [{ role: 'user', content: prompt }],
          params,
          promptTokensHint: ctx.tokenizer.count(prompt),
        });
        usage = addUsage(usage, res.usage);
        step++;
        let prediction = boxedAnswer(res.text);
        if (prediction === null && sample.prompt?.answerFormat === 'raw') prediction = afterLastThink(res.text);
        return { prediction, rawOutput: res.text, status: 'ok', calls: step, usage, extra: extra() };
      } catch (err) {
        return failedOutput(err, step, usage, extra());
      }
    },
  };
}

export const RECALL_UPDATE_CALL: CallKind = {
  name: 'recall-update',
  overheadTokens: 260,
  readsMemory: { initialTokens: 3 },
  writesMemory: true,
  output: { median: 600, sigma: 0.5, min: 16, max: 2048 },
};
export const BOXED_FINAL_CALL: CallKind = {
  name: 'boxed-final',
  overheadTokens: 90,
  readsMemory: { initialTokens: 3 },
  output: { median: 60, sigma: 0.6, min: 8, max: 2048 },
};

/** One update per window (the recalled memory counted at most once more), then the boxed answer. */
export function reMemR1Plan(
  sample: PlanInput,
  s: Pick<ReMemR1Settings, 'chunkTokens' | 'maxNewTokens' | 'recall'>,
): PlannedCall[] {
  const carried = s.maxNewTokens * (s.recall ? 2 : 1);
  const calls: PlannedCall[] = windowSizes(sample.contextTokens, s.chunkTokens).map((w) => ({
    kind: RECALL_UPDATE_CALL,
    contextTokens: w,
    promptTokensMax: w + PLAN_OVERHEAD_TOKENS + carried,
    maxNewTokens: s.maxNewTokens,
  }));
  calls.push({
    kind: BOXED_FINAL_CALL,
    contextTokens: 0,
    promptTokensMax: PLAN_OVERHEAD_TOKENS + carried,
    maxNewTokens: s.maxNewTokens,
  });
  return calls;
}

const MAX_NEW: MethodOption = {
  flag: 'rememr1-max-new',
  type: 'integer',
  min: 16,
  max: 100_000,
  default: 2048,
  help: "max new tokens of every call (ReMemR1's RECURRENT_MAX_NEW)",
};
const RECALL: MethodOption = {
  flag: 'rememr1-recall',
  type: 'choice',
  choices: ['on', 'off'],
  default: 'on',
  help: 'answer <recall> queries from the past memories (off: the recalled memory stays empty)',
};

const TEMPLATES = [REMEMR1_UPDATE_TEMPLATE, REMEMR1_FINAL_TEMPLATE] as const;

export const reMemR1: MethodDefinition<ReMemR1Settings & TemplatesInForce<'rememr1Update' | 'rememr1Final'>> = {
  name: 'rememr1',
  description:
    'MemAgent-style reading with <update> memory, <recall> of the closest past memory (TF-IDF), boxed answer',
  options: [{ ...CHUNK_TOKENS, help: 'context tokens per update call' }, MAX_NEW, RECALL, ...GENERATION_OPTIONS],
  templates: TEMPLATES,
  calls: [RECALL_UPDATE_CALL, BOXED_FINAL_CALL],
  settings: (read) => ({
    chunkTokens: read.int(CHUNK_TOKENS),
    maxNewTokens: read.int(MAX_NEW),
    recall: read.choice(RECALL as MethodOption & { choices: readonly ('on' | 'off')[] }) === 'on',
    ...samplingOf(read),
    ...templatesOf(read, TEMPLATES),
  }),
  create: reMemR1Method,
  plan: reMemR1Plan,
  identityExtras: (s) => ({ templates: s.templatesIdentity }),
};
