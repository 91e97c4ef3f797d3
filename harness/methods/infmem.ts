// InfMem (docs/PROTOCOLS.md §j.1; UCMP13753/InfMem infmem.py async_query_llm_multi_turn): per window a retrieval
// planner decides between a BM25 search inside the document and STOP; a writer rewrites the memory from the
// retrieved units, the window and the old memory; after --infmem-early-stop consecutive stop votes (or the last
// window) MemAgent's final prompt answers from memory. Every request is a /completions request over the Qwen3 chat
// template rendered here, as upstream sends it; with thinking on (upstream's setting, which its ENABLE_THINK
// switch cannot turn off: any non-empty value, "False" included, reads as true) each logical call is two requests:
// up to --infmem-think-tokens of thinking, closed by force when unfinished, then a continuation.
import { afterLastThink, takeAnswer } from '../protocol/answer.js';
import { sampleDecoding } from '../protocol/decoding.js';
import { pyStrip } from '../protocol/pytext.js';
import type { ChatMessage, Decoding, Method, MethodContext, MethodOutput, Sample, Usage } from '../types.js';
import { addUsage, callModel, failedOutput } from './call.js';
import { answerQuestion, isRecord, resumeOf, sameForEveryFinal, windowCount, windowSizes } from './chunked.js';
import { buildUnits, clampTopK, InDocumentIndex, normalizeQuery, retrievedBlock } from './infmem-retrieval.js';
import { parsePlannerOutput, readSearchArgs, retrievalHistory } from './infmem-planner.js';
import { CHUNK_TOKENS, MEMORY_TOKENS } from './memagent.js';
import { GENERATION_OPTIONS, samplingOf, templatesOf, type TemplatesInForce } from './options.js';
import { INFMEM_FORCED_CLOSE, INFMEM_PLANNER, INFMEM_WRITER, QWEN_AGENT_SYSTEM } from './prompts/infmem.js';
import { qwen3Prompt } from './qwen-chat.js';
import {
  PLAN_OVERHEAD_TOKENS,
  type CallKind,
  type MethodDefinition,
  type MethodOption,
  type PlannedCall,
  type PlanInput,
} from './registry.js';
import { asksBoxed, FINAL_TEMPLATE, fillTemplate, NO_MEMORY, type TemplateSpec } from './templates.js';

export const PLANNER_TEMPLATE: TemplateSpec<'infmemPlanner'> = {
  name: 'infmemPlanner',
  slots: ['question', 'retrieval_history', 'memory'],
  defaults: sameForEveryFinal(INFMEM_PLANNER),
};
export const WRITER_TEMPLATE: TemplateSpec<'infmemWriter'> = {
  name: 'infmemWriter',
  slots: ['question', 'retrieve', 'chunk', 'memory'],
  defaults: sameForEveryFinal(INFMEM_WRITER),
};

export interface InfMemSettings {
  chunkTokens: number;
  memoryTokens: number;
  topK: number;
  unitTokens: number;
  unitOverlap: number;
  perChunk: number;
  jaccard: number;
  earlyStop: number;
  think: boolean;
  thinkTokens: number;
  temperature?: number;
  topP?: number;
  templates: Readonly<Record<'infmemPlanner' | 'infmemWriter' | 'final', string>>;
}

interface InfMemState {
  /** The window being worked on (0-based), and whether its planner call is done. */
  chunk: number;
  phase: 'plan' | 'write';
  memory: string;
  stopVotes: number;
  history: { query: unknown; topK: unknown }[];
  retrieved: string;
  searches: number;
}
const isState = (s: unknown): s is InfMemState =>
  isRecord(s) &&
  typeof s.chunk === 'number' &&
  (s.phase === 'plan' || s.phase === 'write') &&
  typeof s.memory === 'string' &&
  typeof s.stopVotes === 'number' &&
  Array.isArray(s.history) &&
  typeof s.retrieved === 'string' &&
  typeof s.searches === 'number';

function contextIds(sample: Sample): Uint32Array {
  const ids = new Uint32Array(sample.context.tokenCount);
  let at = 0;
  for (const piece of sample.context.pieces()) {
    ids.set(piece, at);
    at += piece.length;
  }
  return ids;
}

export function infMemMethod(settings: InfMemSettings): Method {
  return {
    name: 'infmem',
    async run(sample: Sample, ctx: MethodContext): Promise<MethodOutput> {
      const decoding: Decoding = sampleDecoding(settings, sample);
      const question = pyStrip(sample.question);
      const resume = resumeOf(ctx.resume, isState);
      const state: InfMemState = resume?.state ?? {
        chunk: 0,
        phase: 'plan',
        memory: NO_MEMORY,
        stopVotes: 0,
        history: [],
        retrieved: '',
        searches: 0,
      };
      let step = resume?.step ?? 0;
      let usage: Usage = resume?.usage ?? { promptTokens: 0, completionTokens: 0 };
      const n = windowCount(sample.context.tokenCount, settings.chunkTokens);
      let stoppedAt: number | null = null;
      const extra = () => ({
        windows: n,
        step: stoppedAt ?? state.chunk,
        max_step: n,
        early_stop: stoppedAt !== null,
        searches: state.searches,
        final_memory: state.memory,
        enable_think: settings.think,
      });

      const request = async (kind: string, messages: ChatMessage[], prompt: string, maxTokens: number) => {
        const res = await callModel(ctx, sample, 'infmem', step, kind, {
          messages,
          prompt,
          params: { maxTokens, ...decoding },
          promptTokensHint: ctx.tokenizer.count(prompt),
        });
        usage = addUsage(usage, res.usage);
        step++;
        return res.text;
      };
      /** call_llm_text: one request, or thinking then its continuation. */
      const generate = async (kind: string, messages: ChatMessage[]): Promise<string> => {
        if (!settings.think) return request(kind, messages, qwen3Prompt(messages, false), settings.memoryTokens);
        const prompt = qwen3Prompt(messages, true);
        let thinking = await request(`${kind}-think`, messages, prompt, settings.thinkTokens);
        if (!thinking.includes('</think>')) thinking = thinking.trimEnd() + INFMEM_FORCED_CLOSE;
        const more = await request(
          kind,
          [...messages, { role: 'assistant', content: thinking }],
          prompt + thinking,
          Math.max(1, settings.memoryTokens),
        );
        return pyStrip(thinking + pyStrip(more));
      };
      const save = () => ctx.onCheckpoint?.({ step, usage, state: structuredClone(state) });

      try {
        const ids = contextIds(sample);
        const decode = (x: Uint32Array) => ctx.tokenizer.decode(x);
        let index: InDocumentIndex | null = null;
        const search = (query: string, topK: number, chunk: number) => {
          index ??= new InDocumentIndex(
            buildUnits(ids, decode, settings.chunkTokens, settings.unitTokens, settings.unitOverlap),
            { perChunk: settings.perChunk, jaccard: settings.jaccard },
          );
          return index.search(query, topK, chunk);
        };
        while (state.chunk < n) {
          const c = state.chunk;
          if (state.phase === 'plan') {
            const history = retrievalHistory(c + 1, n, state.history);
            const planner = fillTemplate(settings.templates.infmemPlanner, {
              question,
              retrieval_history: history,
              memory: state.memory,
            });
            const raw = await generate('plan', [
              { role: 'system', content: QWEN_AGENT_SYSTEM },
              { role: 'user', content: planner },
            ]);
            const { stop, calls } = parsePlannerOutput(raw);
            if (!stop) state.stopVotes = 0;
            if (stop || calls.length === 0) {
              state.stopVotes++;
              if (state.stopVotes >= settings.earlyStop) {
                stoppedAt = c + 1;
                break;
              }
            }
            state.retrieved = '';
            for (const call of calls) {
              if (call.name !== 'retrievesearch') continue;
              const args = readSearchArgs(call.args, question, settings.topK);
              state.history.push(args);
              const found = search(normalizeQuery(args.query, question), clampTopK(args.topK, settings.topK), c);
              state.retrieved = retrievedBlock(found);
              state.searches++;
            }
            state.phase = 'write';
            save();
          }
          const chunk = decode(ids.subarray(c * settings.chunkTokens, (c + 1) * settings.chunkTokens));
          const writer = fillTemplate(settings.templates.infmemWriter, {
            question,
            retrieve: state.retrieved,
            chunk,
            memory: state.memory,
          });
          state.memory = afterLastThink(await generate('write', [{ role: 'user', content: writer }]));
          state.chunk = c + 1;
          state.phase = 'plan';
          state.retrieved = '';
          save();
        }
        const final = fillTemplate(settings.templates.final, { question: answerQuestion(sample), memory: state.memory });
        const text = await generate('answer-memory', [{ role: 'user', content: final }]);
        let prediction = takeAnswer(text, asksBoxed(settings.templates.final) ? 'boxed' : 'phrase');
        if (prediction === null && sample.prompt?.answerFormat === 'raw') prediction = afterLastThink(text);
        return { prediction, rawOutput: text, status: 'ok', calls: step, usage, extra: extra() };
      } catch (err) {
        return failedOutput(err, step, usage, extra());
      }
    },
  };
}

// Overheads: the planner's instructions and Qwen-Agent's tool text (~640 tokens), the writer's (~150), MemAgent's
// final (~115); the writer also carries up to top-k retrieved units (counted as context in the plan).
const thinking = (name: string, readsMemory: boolean, overheadTokens: number): CallKind => ({
  name,
  overheadTokens,
  ...(readsMemory ? { readsMemory: { initialTokens: 3 } } : {}),
  output: { median: 500, sigma: 0.6, min: 16, max: 1024 },
});
export const PLAN_THINK_CALL = thinking('plan-think', true, 640);
export const PLAN_CALL: CallKind = {
  name: 'plan',
  overheadTokens: 640,
  readsMemory: { initialTokens: 3 },
  output: { median: 40, sigma: 0.5, min: 4, max: 1024 },
};
export const WRITE_THINK_CALL = thinking('write-think', true, 150);
export const WRITE_CALL: CallKind = {
  name: 'write',
  overheadTokens: 150,
  readsMemory: { initialTokens: 3 },
  writesMemory: true,
  output: { median: 400, sigma: 0.5, min: 16, max: 1024 },
};
export const ANSWER_THINK_CALL = thinking('answer-memory-think', true, 115);
export const ANSWER_MEMORY_CALL: CallKind = {
  name: 'answer-memory',
  overheadTokens: 115,
  readsMemory: { initialTokens: 3 },
  output: { median: 60, sigma: 0.6, min: 8, max: 1024 },
};

/** The calls without an early stop (the most a sample makes): per window a planner and a writer, then the answer;
 *  each twice with thinking. An early stop at window k leaves 2(k − 1) + 2 logical calls. */
export function infMemPlan(
  sample: PlanInput,
  s: Pick<InfMemSettings, 'chunkTokens' | 'memoryTokens' | 'topK' | 'unitTokens' | 'think' | 'thinkTokens'>,
): PlannedCall[] {
  const calls: PlannedCall[] = [];
  const add = (kind: CallKind, thinkKind: CallKind, context: number) => {
    if (s.think)
      calls.push({
        kind: thinkKind,
        contextTokens: context,
        promptTokensMax: context + PLAN_OVERHEAD_TOKENS + s.memoryTokens + thinkKind.overheadTokens,
        maxNewTokens: s.thinkTokens,
      });
    calls.push({
      kind,
      contextTokens: context,
      promptTokensMax:
        context + PLAN_OVERHEAD_TOKENS + s.memoryTokens + kind.overheadTokens + (s.think ? s.thinkTokens + 20 : 0),
      maxNewTokens: s.memoryTokens,
    });
  };
  for (const w of windowSizes(sample.contextTokens, s.chunkTokens)) {
    add(PLAN_CALL, PLAN_THINK_CALL, 0);
    add(WRITE_CALL, WRITE_THINK_CALL, w + Math.min(sample.contextTokens - w, s.topK * s.unitTokens));
  }
  add(ANSWER_MEMORY_CALL, ANSWER_THINK_CALL, 0);
  return calls;
}

const opt = (
  flag: string,
  type: 'integer' | 'number',
  d: number,
  min: number,
  max: number,
  help: string,
): MethodOption => ({
  flag,
  type,
  default: d,
  min,
  max,
  help,
});
const TOP_K = opt(
  'infmem-top-k',
  'integer',
  8,
  3,
  20,
  "top_k of a search call that names none (calls' own are clamped to 3-20)",
);
const UNIT_TOKENS = opt('infmem-unit-tokens', 'integer', 500, 16, 100_000, 'tokens per retrieval unit');
const UNIT_OVERLAP = opt(
  'infmem-unit-overlap',
  'integer',
  100,
  0,
  99_999,
  'tokens shared by consecutive retrieval units',
);
const PER_CHUNK = opt('infmem-per-chunk', 'integer', 2, 1, 1000, 'most retrieved units from one window');
const JACCARD = opt(
  'infmem-jaccard',
  'number',
  0.8,
  0,
  1,
  'a unit whose token-set Jaccard with a chosen one exceeds this is dropped',
);
const EARLY_STOP = opt('infmem-early-stop', 'integer', 3, 1, 1_000_000, 'consecutive STOP votes that end the reading');
const THINK_TOKENS = opt('infmem-think-tokens', 'integer', 1024, 1, 100_000, 'thinking budget of each logical call');
const THINK: MethodOption = {
  flag: 'infmem-think',
  type: 'choice',
  choices: ['on', 'off'],
  default: 'on',
  help: "two-stage thinking requests (upstream's setting; its ENABLE_THINK=False still thinks)",
};

const TEMPLATES = [PLANNER_TEMPLATE, WRITER_TEMPLATE, FINAL_TEMPLATE] as const;

export const infMem: MethodDefinition<InfMemSettings & TemplatesInForce<'infmemPlanner' | 'infmemWriter' | 'final'>> = {
  name: 'infmem',
  description: 'a planner per window: BM25 inside the document or STOP; a writer updates the memory; early stop',
  options: [
    { ...CHUNK_TOKENS, help: 'context tokens per window' },
    { ...MEMORY_TOKENS, help: 'max new tokens of each answer after thinking (memory, plan, final answer)' },
    TOP_K,
    UNIT_TOKENS,
    UNIT_OVERLAP,
    PER_CHUNK,
    JACCARD,
    EARLY_STOP,
    THINK,
    THINK_TOKENS,
    ...GENERATION_OPTIONS,
  ],
  templates: TEMPLATES,
  calls: [PLAN_THINK_CALL, PLAN_CALL, WRITE_THINK_CALL, WRITE_CALL, ANSWER_THINK_CALL, ANSWER_MEMORY_CALL],
  settings: (read) => {
    const unitTokens = read.int(UNIT_TOKENS);
    const unitOverlap = read.int(UNIT_OVERLAP);
    return {
      chunkTokens: read.int(CHUNK_TOKENS),
      memoryTokens: read.int(MEMORY_TOKENS),
      topK: read.int(TOP_K),
      unitTokens,
      unitOverlap,
      perChunk: read.int(PER_CHUNK),
      jaccard: read.optionalNumber(JACCARD) ?? 0.8,
      earlyStop: read.int(EARLY_STOP),
      think: read.choice(THINK as MethodOption & { choices: readonly ('on' | 'off')[] }) === 'on',
      thinkTokens: read.int(THINK_TOKENS),
      ...samplingOf(read),
      ...templatesOf(read, TEMPLATES),
    };
  },
  create: infMemMethod,
  plan: infMemPlan,
  identityExtras: (s) => ({ templates: s.templatesIdentity }),
};
