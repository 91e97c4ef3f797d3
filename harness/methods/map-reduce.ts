// LangChain's map-reduce chain for question answering (docs/PROTOCOLS.md §j.4), as a chat model receives it: every
// window is mapped to the text relevant to the question; while the combine prompt over the mapped texts is longer
// than --map-reduce-token-max they are split greedily into fitting groups, each collapsed by the combine prompt;
// then one combine call answers. Calls = windows + collapse calls + 1.
import { sampleDecoding } from '../protocol/decoding.js';
import { pyStrip } from '../protocol/pytext.js';
import type {
  ChatMessage,
  GenerationParams,
  Method,
  MethodContext,
  MethodOutput,
  Sample,
  Tokenizer,
  Usage,
} from '../types.js';
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
import { COMBINE_CHAT_SYSTEM, MAP_CHAT_SYSTEM } from './prompts/langchain.js';
import {
  PLAN_OVERHEAD_TOKENS,
  type CallKind,
  type MethodDefinition,
  type MethodOption,
  type PlannedCall,
  type PlanInput,
} from './registry.js';
import { fillTemplate, type TemplateSpec } from './templates.js';

export const MAP_TEMPLATE: TemplateSpec<'mapReduceMap'> = {
  name: 'mapReduceMap',
  slots: ['context'],
  defaults: sameForEveryFinal(MAP_CHAT_SYSTEM),
};
export const COMBINE_TEMPLATE: TemplateSpec<'mapReduceCombine'> = {
  name: 'mapReduceCombine',
  slots: ['summaries'],
  defaults: sameForEveryFinal(COMBINE_CHAT_SYSTEM),
};

/** StuffDocumentsChain's document_separator. */
const DOCUMENT_SEPARATOR = '\n\n';
/** Collapse rounds before a sample is given up (LangChain loops without a bound). */
export const MAX_COLLAPSE_ROUNDS = 10;

export interface MapReduceSettings {
  chunkTokens: number;
  memoryTokens: number;
  tokenMax: number;
  temperature?: number;
  topP?: number;
  templates: Readonly<Record<'mapReduceMap' | 'mapReduceCombine', string>>;
}

/** Checkpoint: the mapped texts so far; in a collapse round, the round's input and the groups collapsed so far. */
interface MapReduceState {
  mapped: string[];
  round?: { docs: string[]; collapsed: string[] };
  rounds: number;
}
const strings = (x: unknown): x is string[] => Array.isArray(x) && x.every((s) => typeof s === 'string');
const isState = (s: unknown): s is MapReduceState =>
  isRecord(s) &&
  strings(s.mapped) &&
  typeof s.rounds === 'number' &&
  (s.round === undefined || (isRecord(s.round) && strings(s.round.docs) && strings(s.round.collapsed)));

export function combineMessages(template: string, docs: readonly string[], question: string): ChatMessage[] {
  return [
    { role: 'system', content: fillTemplate(template, { summaries: docs.join(DOCUMENT_SEPARATOR) }) },
    { role: 'user', content: question },
  ];
}

/** combine_documents_chain.prompt_length: the tokens of the chat prompt as LangChain formats it to a string. */
export function combineLength(
  tokenizer: Tokenizer,
  template: string,
  docs: readonly string[],
  question: string,
): number {
  const [system, human] = combineMessages(template, docs, question);
  return tokenizer.count(`System: ${system.content}\nHuman: ${human.content}`);
}

export class SingleDocumentTooLong extends Error {
  constructor(tokenMax: number) {
    super(
      `map-reduce: a single mapped text makes a combine prompt longer than --map-reduce-token-max ${tokenMax} (LangChain stops here too)`,
    );
  }
}

/** split_list_of_docs: greedy groups whose combine prompt fits tokenMax; a lone document that does not fit throws. */
export function splitDocs(
  docs: readonly string[],
  length: (docs: readonly string[]) => number,
  tokenMax: number,
): string[][] {
  const out: string[][] = [];
  let current: string[] = [];
  for (const doc of docs) {
    current.push(doc);
    if (length(current) > tokenMax) {
      if (current.length === 1) throw new SingleDocumentTooLong(tokenMax);
      out.push(current.slice(0, -1));
      current = current.slice(-1);
    }
  }
  out.push(current);
  return out;
}

export function mapReduceMethod(settings: MapReduceSettings): Method {
  return {
    name: 'map-reduce',
    async run(sample: Sample, ctx: MethodContext): Promise<MethodOutput> {
      const params: GenerationParams = { maxTokens: settings.memoryTokens, ...sampleDecoding(settings, sample) };
      const question = pyStrip(sample.question);
      const resume = resumeOf(ctx.resume, isState);
      const state: MapReduceState = resume?.state ?? { mapped: [], rounds: 0 };
      let step = resume?.step ?? 0;
      let usage: Usage = resume?.usage ?? { promptTokens: 0, completionTokens: 0 };
      const windows = windowCount(sample.context.tokenCount, settings.chunkTokens);
      const extra = () => ({ windows, collapse_rounds: state.rounds });
      const save = () => ctx.onCheckpoint?.({ step, usage, state: structuredClone(state) });
      const call = async (kind: string, messages: ChatMessage[]) => {
        const res = await chatCall(ctx, sample, 'map-reduce', step, kind, messages, params);
        usage = addUsage(usage, res.usage);
        step++;
        return res.text;
      };
      const finalQuestion = answerQuestion(sample);
      // Measured with the combine call's question, the longer of the two, so that the last combine fits too.
      const length = (docs: readonly string[]) =>
        combineLength(ctx.tokenizer, settings.templates.mapReduceCombine, docs, finalQuestion);
      try {
        if (state.round === undefined && state.rounds === 0)
          for (const chunk of chunkTexts(sample, ctx, settings.chunkTokens, state.mapped.length)) {
            const system = fillTemplate(settings.templates.mapReduceMap, { context: chunk.text });
            state.mapped.push(
              await call('map', [
                { role: 'system', content: system },
                { role: 'user', content: question },
              ]),
            );
            save();
          }
        let docs = state.mapped;
        for (;;) {
          if (state.round === undefined) {
            if (length(docs) <= settings.tokenMax) break;
            if (state.rounds >= MAX_COLLAPSE_ROUNDS)
              throw new Error(
                `map-reduce: the mapped texts still exceed the token max after ${MAX_COLLAPSE_ROUNDS} collapse rounds`,
              );
            state.round = { docs: [...docs], collapsed: [] };
          }
          const groups = splitDocs(state.round.docs, length, settings.tokenMax);
          for (let g = state.round.collapsed.length; g < groups.length; g++) {
            state.round.collapsed.push(
              await call('collapse', combineMessages(settings.templates.mapReduceCombine, groups[g], question)),
            );
            save();
          }
          docs = state.round.collapsed;
          state.mapped = docs;
          state.round = undefined;
          state.rounds++;
        }
        const text = await call('combine', combineMessages(settings.templates.mapReduceCombine, docs, finalQuestion));
        return answeredOutput(text, sample.prompt?.answerFormat, step, usage, extra());
      } catch (err) {
        return failedOutput(err, step, usage, extra());
      }
    },
  };
}

export const MAP_CALL: CallKind = {
  name: 'map',
  overheadTokens: 60,
  output: { median: 80, sigma: 0.9, min: 4, max: 1024 },
};
export const COLLAPSE_CALL: CallKind = {
  name: 'collapse',
  overheadTokens: 70,
  output: { median: 80, sigma: 0.8, min: 4, max: 1024 },
};
export const COMBINE_CALL: CallKind = {
  name: 'combine',
  overheadTokens: 70,
  output: { median: 60, sigma: 0.6, min: 8, max: 1024 },
};

/**
 * The map calls, the collapse calls expected when every output has its assumed median length (the real count
 * depends on what the model writes: calls.jsonl records it), then the combine call.
 */
export function mapReducePlan(
  sample: PlanInput,
  s: Pick<MapReduceSettings, 'chunkTokens' | 'memoryTokens' | 'tokenMax'>,
): PlannedCall[] {
  const sizes = windowSizes(sample.contextTokens, s.chunkTokens);
  const calls: PlannedCall[] = sizes.map((w) => ({
    kind: MAP_CALL,
    contextTokens: w,
    promptTokensMax: w + PLAN_OVERHEAD_TOKENS,
    maxNewTokens: s.memoryTokens,
  }));
  let docs = sizes.length;
  let each = MAP_CALL.output.median;
  const room = Math.max(1, s.tokenMax - COMBINE_CALL.overheadTokens);
  for (let round = 0; round < MAX_COLLAPSE_ROUNDS && docs * each > room; round++) {
    const perGroup = Math.max(2, Math.floor(room / each));
    const groups = Math.ceil(docs / perGroup);
    for (let g = 0; g < groups; g++) {
      const n = Math.min(perGroup, docs - g * perGroup);
      calls.push({
        kind: COLLAPSE_CALL,
        contextTokens: n * each,
        promptTokensMax: Math.min(s.tokenMax, n * each + PLAN_OVERHEAD_TOKENS),
        maxNewTokens: s.memoryTokens,
      });
    }
    docs = groups;
    each = COLLAPSE_CALL.output.median;
  }
  calls.push({
    kind: COMBINE_CALL,
    contextTokens: docs * each,
    promptTokensMax: Math.min(s.tokenMax, docs * each + PLAN_OVERHEAD_TOKENS),
    maxNewTokens: s.memoryTokens,
  });
  return calls;
}

const TOKEN_MAX: MethodOption = {
  flag: 'map-reduce-token-max',
  type: 'integer',
  min: 256,
  max: 10_000_000,
  default: 3000,
  help: "longest combine prompt in tokens before the mapped texts are collapsed (LangChain's token_max)",
};

const TEMPLATES = [MAP_TEMPLATE, COMBINE_TEMPLATE] as const;

export const mapReduce: MethodDefinition<MapReduceSettings & TemplatesInForce<'mapReduceMap' | 'mapReduceCombine'>> = {
  name: 'map-reduce',
  description: "LangChain's map-reduce chain: relevant text from each window, collapsed until it fits, then one answer",
  options: [
    { ...CHUNK_TOKENS, help: 'context tokens per map call' },
    { ...MEMORY_TOKENS, help: 'max new tokens of each map, collapse and combine call' },
    TOKEN_MAX,
    ...GENERATION_OPTIONS,
  ],
  templates: TEMPLATES,
  calls: [MAP_CALL, COLLAPSE_CALL, COMBINE_CALL],
  settings: (read) => ({
    chunkTokens: read.int(CHUNK_TOKENS),
    memoryTokens: read.int(MEMORY_TOKENS),
    tokenMax: read.int(TOKEN_MAX),
    ...samplingOf(read),
    ...templatesOf(read, TEMPLATES),
  }),
  create: mapReduceMethod,
  plan: mapReducePlan,
  identityExtras: (s) => ({ templates: s.templatesIdentity }),
};
