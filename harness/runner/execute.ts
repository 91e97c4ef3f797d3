import type { RunConfig } from '../config/run-config.js';
import { methods as methodRegistry } from '../methods/index.js';
import { scoreSample } from '../scorers/score-sample.js';
import type { MetricRegistry } from '../scorers/metric.js';
import type {
  CallRecord,
  MemoryUpdate,
  Method,
  MethodCheckpoint,
  Model,
  PreparedTask,
  SampleRecord,
  Tokenizer,
} from '../types.js';
import { evidenceChunks, GoldMatcher, holdsGold, retention } from '../memory/retention.js';
import { splitSegments } from '../memory/memory-delta.js';
import { MemoryTraceEncoder } from '../memory/trace-codec.js';
import { memoryHash, type MemoryTraceLine } from '../memory/trace-line.js';
import type { CheckpointStore } from '../run-dir/checkpoints.js';
import type { PromptStore } from '../run-dir/prompt-store.js';
import { overTarget } from '../config/lengths.js';
import { withRunnerIdentity, type SampleIdentity } from './sample-identity.js';
import { redact, redactDeep, redactSecrets } from '../redact.js';

/** What identifies a unit of work; plain data, so it can cross to a worker thread. The sample it builds is given
 *  this identity (task, version, length, index; sample-identity.ts), whatever the generator set. */
export interface UnitSpec extends SampleIdentity {
  method: string;
  /** unitKey of the above: the key its record is written and found under. */
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
  /** The catalog's metrics, which score each finished sample. */
  metrics: MetricRegistry;
  signal?: AbortSignal;
}

/** The run's methods, created from the registry with the run's settings. */
export function buildMethods(config: RunConfig): Method[] {
  return config.methods.map((name) => methodRegistry.get(name).create(config.methodSettings));
}

/** Builds the sample, runs the method, scores the output. Returns null when interrupted before the sample ended. */
export async function executeUnit(
  env: ExecEnv,
  spec: UnitSpec,
  onCall: (call: CallRecord) => void,
  onMemory?: (line: MemoryTraceLine) => void,
): Promise<SampleRecord | null> {
  const prepared = env.prepared.get(spec.task);
  const method = env.methods.get(spec.method);
  if (!prepared || !method) throw new Error(`unit ${spec.key}: task or method not prepared`);
  const sample = withRunnerIdentity(prepared.build(spec.length, spec.index), spec);
  const resume = env.checkpoints.load(spec.key);
  // A failed checkpoint or prompt write (a full disk) stops the sample and then the run: the method sees it as an
  // error of its call, but the sample is not recorded as errored; the I/O error is thrown instead.
  let ioFailure: unknown;
  const io = <T>(fn: () => T): T => {
    try {
      return fn();
    } catch (err) {
      ioFailure ??= err;
      throw err;
    }
  };
  let lastSave = performance.now();
  const started = performance.now();
  // Answered calls that ended on the length limit (cut off at max tokens): the record's cutCalls. Saved with each
  // checkpoint, so a resumed sample counts the calls made before the resume too.
  let cutCalls = resume?.cutCalls ?? 0;
  // Thinking over the sample's calls (reasoning models), kept in checkpoints like cutCalls.
  let thinkingTokens = resume?.thinkingTokens ?? 0;
  let unclosedThinkCalls = resume?.unclosedThinkCalls ?? 0;
  let reasoning: string | undefined;
  // A method with a memory: per update, whether the memory held the gold (kept in checkpoints like cutCalls).
  const hasMemory = method.chunkTokens !== undefined;
  let holds = resume?.memoryHolds ?? '';
  const gold = new GoldMatcher(sample.answers);
  const encoder = onMemory ? new MemoryTraceEncoder() : undefined;
  const output = await method.run(sample, {
    model: env.model,
    tokenizer: env.tokenizer,
    signal: env.signal,
    resume,
    onCall(call: CallRecord) {
      if (call.status === 'ok' && call.finishReason === 'length') cutCalls++;
      thinkingTokens += call.thinkingTokens ?? 0;
      if (call.unclosedThink) unclosedThinkCalls++;
      if (call.reasoning !== undefined) reasoning = call.reasoning;
      onCall(call.error === undefined ? call : { ...call, error: redact(call.error) });
    },
    onPrompt: env.prompts ? (hash, request) => io(() => env.prompts!.put(hash, request)) : undefined,
    onMemory(update: MemoryUpdate) {
      const memory = redactSecrets(update.memory);
      const segments = splitSegments(memory);
      const flags = gold.flags(segments);
      const held = holdsGold(flags, sample.metric);
      holds = holds.slice(0, update.chunk).padEnd(update.chunk, '0') + (held ? '1' : '0');
      if (!onMemory || !encoder) return;
      onMemory({
        sampleId: sample.id,
        method: spec.method,
        chunk: update.chunk,
        tokens: update.tokens,
        hash: memoryHash(memory),
        ...encoder.encode(update.chunk, memory, segments),
        gold: flags,
        holds: held,
      });
    },
    onCheckpoint(cp: MethodCheckpoint) {
      const now = performance.now();
      if (env.checkpointEveryCall || now - lastSave > 1000) {
        const thinking = thinkingTokens > 0 || unclosedThinkCalls > 0 ? { thinkingTokens, unclosedThinkCalls } : {};
        io(() =>
          env.checkpoints.save(spec.key, {
            ...cp,
            cutCalls,
            ...thinking,
            ...(hasMemory ? { memoryHolds: holds } : {}),
          }),
        );
        lastSave = now;
      }
    },
  });
  if (ioFailure !== undefined) throw ioFailure;
  if (env.signal?.aborted && output.status !== 'ok') return null;
  // A context longer than its token target is scored as usual but never passes for that length.
  const over = overTarget(sample.length, sample.context.tokenCount);
  const { score, scores } = scoreSample(
    {
      ...output,
      metric: sample.metric,
      answers: sample.answers,
      scoring: sample.scoring,
    },
    env.metrics,
  );
  const status = over && output.status === 'ok' ? 'over-target' : output.status;
  // What the server sent back (an error quoting the API key, an answer echoing a header) is stored redacted.
  return {
    id: sample.id,
    task: sample.task,
    taskVersion: sample.taskVersion,
    method: spec.method,
    model: env.modelId,
    lengthLabel: sample.length.label,
    lengthKind: sample.length.kind,
    length: sample.length.value,
    index: sample.index,
    builtTokens: sample.context.tokenCount,
    question: sample.question,
    answers: sample.answers,
    prediction: output.prediction === null ? null : redactSecrets(output.prediction),
    rawOutput: redactSecrets(output.rawOutput),
    metric: sample.metric,
    ...(sample.scoring ? { scoring: sample.scoring } : {}),
    score,
    scores,
    status,
    ...(output.error ? { error: redact(output.error) } : {}),
    calls: output.calls,
    cutCalls,
    usage: output.usage,
    ...(thinkingTokens > 0 ? { thinkingTokens } : {}),
    ...(unclosedThinkCalls > 0 ? { unclosedThinkCalls } : {}),
    ...(reasoning !== undefined ? { reasoning } : {}),
    elapsedMs: Math.round(performance.now() - started),
    metadata: { ...sample.metadata, ...over },
    ...(sample.evidence ? { evidence: sample.evidence } : {}),
    ...(sample.evidenceNote ? { evidenceNote: sample.evidenceNote } : {}),
    ...(hasMemory ? { memory: retention(holds, evidenceChunks(sample.evidence ?? [], method.chunkTokens!)) } : {}),
    extra: redactDeep(output.extra ?? {}),
  };
}
