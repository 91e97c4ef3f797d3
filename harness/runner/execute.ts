import type { RunConfig } from '../cli/parse.js';
import { UserError } from '../errors.js';
import { fullContextMethod } from '../methods/full-context.js';
import { memAgentMethod } from '../methods/memagent.js';
import { ragMethod } from '../methods/rag.js';
import { loadTemplates } from '../methods/templates.js';
import type { CallRecord, LengthTarget, Method, MethodCheckpoint, Model, PreparedTask, SampleRecord, Tokenizer } from '../types.js';
import type { CheckpointStore } from '../run-dir/checkpoints.js';
import type { PromptStore } from '../run-dir/prompt-store.js';
import { scoreOutput } from './score.js';

/** What identifies a unit of work; plain data, so it can cross to a worker thread. */
export interface UnitSpec {
  task: string;
  length: LengthTarget;
  index: number;
  method: string;
  key: string;
}

export interface ExecEnv {
  /** The model as results name it: the embedded reader's id, or the served model name (not the endpoint URL, so a
   *  run can resume against the same model served elsewhere). */
  modelId: string;
  prepared: Map<string, PreparedTask>;
  methods: Map<string, Method>;
  model: Model;
  tokenizer: Tokenizer;
  checkpoints: CheckpointStore;
  /** Stores each prompt once by content hash (--store-prompts). */
  prompts?: PromptStore;
  /** Save a checkpoint after every call (remote models) or at most once a second (embedded model). */
  checkpointEveryCall: boolean;
  signal?: AbortSignal;
}

export function buildMethods(config: RunConfig): Method[] {
  const templates = loadTemplates(config.templates, config.finalVariant);
  return config.methods.map((name) => {
    switch (name) {
      case 'memagent':
        return memAgentMethod({ chunkTokens: config.chunkTokens, memoryTokens: config.memoryTokens, temperature: config.temperature, topP: config.topP, templates });
      case 'full-context':
        return fullContextMethod({ maxContext: config.maxContext, maxNewTokens: 10000, temperature: config.temperature, topP: config.topP, templates });
      case 'rag':
        return ragMethod({ maxContext: config.maxContext, maxNewTokens: 10000, temperature: config.temperature, topP: config.topP, templates, ...(config.ragTopK ? { topK: config.ragTopK } : {}) });
      default:
        throw new UserError(`unknown method '${name}': use memagent, full-context or rag`);
    }
  });
}

/** Builds the sample, runs the method, scores the output. Returns null when interrupted before the sample ended. */
export async function executeUnit(env: ExecEnv, spec: UnitSpec, onCall: (call: CallRecord) => void): Promise<SampleRecord | null> {
  const prepared = env.prepared.get(spec.task);
  const method = env.methods.get(spec.method);
  if (!prepared || !method) throw new Error(`unit ${spec.key}: task or method not prepared`);
  const sample = prepared.build(spec.length, spec.index);
  const resume = env.checkpoints.load(spec.key);
  let lastSave = performance.now();
  const started = performance.now();
  const output = await method.run(sample, {
    model: env.model,
    tokenizer: env.tokenizer,
    signal: env.signal,
    resume,
    onCall,
    onPrompt: env.prompts ? (hash, request) => env.prompts!.put(hash, request) : undefined,
    onCheckpoint(cp: MethodCheckpoint) {
      const now = performance.now();
      if (env.checkpointEveryCall || now - lastSave > 1000) {
        env.checkpoints.save(spec.key, cp);
        lastSave = now;
      }
    },
  });
  if (env.signal?.aborted && output.status !== 'ok') return null;
  const { score, scores } = scoreOutput(sample, output);
  return {
    id: sample.id, task: sample.task, taskVersion: sample.taskVersion, method: spec.method, model: env.modelId,
    lengthLabel: sample.length.label, lengthKind: sample.length.kind, length: sample.length.value, index: sample.index,
    builtTokens: sample.context.tokenCount, question: sample.question, answers: sample.answers,
    prediction: output.prediction, rawOutput: output.rawOutput, metric: sample.metric, score, scores,
    status: output.status, ...(output.error ? { error: output.error } : {}), calls: output.calls, usage: output.usage,
    elapsedMs: Math.round(performance.now() - started), metadata: { ...sample.metadata, ...(output.extra ?? {}) },
  };
}
