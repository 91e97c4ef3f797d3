// The seams of the pipeline: generator → Sample → Method (talks to a Model) → SampleRecord → scorer → report.

export type Role = 'system' | 'user' | 'assistant';
export interface ChatMessage {
  role: Role;
  content: string;
}

export interface GenerationParams {
  maxTokens: number;
  temperature: number;
  topP: number;
  stop?: string[];
}

export interface ModelRequest {
  messages: ChatMessage[];
  /** Set for a text completion (POST /completions): the exact text to continue, sent without a chat template.
   *  `messages` then holds the same text as one user message, for models that only chat (the embedded reader) and
   *  for whatever hashes or stores prompts. Unset: a chat completion of `messages`. */
  prompt?: string;
  params: GenerationParams;
  /** The last message is an assistant message the model continues (an answer prefix as prefill, or thinking forced
   *  closed): chat requests then ask the server to continue it (vLLM's continue_final_message) instead of starting a
   *  new assistant turn. */
  continueFinal?: boolean;
  /** The caller's own count of the prompt's tokens, when it has one cheaply (within a few tokens: template edges may
   *  merge). The embedded model reports it as usage; remote clients compare it with the server's count. */
  promptTokensHint?: number;
}

export interface Usage {
  promptTokens: number;
  completionTokens: number;
}

/** Usage as a server reported it, checked (harness/models/openai/wire.ts): a count it left out, or sent as anything but
 *  a whole number ≥ 0 ("many", -5, 1.5), is 0 here and named in `problems`; callModel (harness/methods/call.ts) then
 *  counts that field with the run's tokenizer and flags the call in calls.jsonl. */
export interface ReportedUsage extends Usage {
  problems?: string[];
  /** Which fields the problems concern, to be counted by the caller. */
  uncounted?: Array<'promptTokens' | 'completionTokens'>;
}

export interface ModelResponse {
  text: string;
  /** May carry `problems` / `uncounted` (ReportedUsage) when the server's usage was missing or not a count. */
  usage: Usage | ReportedUsage;
  latencyMs: number;
  /** "stop" | "length" | other server-provided reason. */
  finishReason: string;
  cached: boolean;
  retries: number;
  /** The reasoning the server returned apart from the answer (`reasoning_content`, or `reasoning`): kept in the
   *  records, never part of `text`, so never carried into a later prompt. */
  reasoning?: string;
  /** The server's count of reasoning tokens (usage.completion_tokens_details.reasoning_tokens), when it sent one. */
  reasoningTokens?: number;
  /** Set when --thinking-budget made this call two requests (think, then answer continuing the thinking). */
  thinkingPasses?: 2;
}

/** A model is "messages in, text + usage out". Failures throw ModelCallError (harness/errors.ts). */
export interface Model {
  /** Stable identifier recorded in results, e.g. "local:reference-reader" or "http://127.0.0.1:8000/v1#qwen". Never holds secrets. */
  readonly id: string;
  /** True for the embedded lexical reader: reports label it "reference reader (not an LLM)". */
  readonly isReferenceReader: boolean;
  generate(request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse>;
  close?(): Promise<void>;
  /** The endpoint's context window in tokens (prompt + max_tokens), when its GET /models says (vLLM's
   *  max_model_len); the smallest over a pool's endpoints. The window preflight checks the run against it. */
  readonly contextWindow?: number;
}

/** Exact token counts and ids in one vocabulary. encode() treats special-token-looking text as plain text. */
export interface Tokenizer {
  /** e.g. "qwen2.5" or "o200k_base". */
  readonly id: string;
  encode(text: string): Uint32Array;
  /** Decodes ids to text; a multi-byte character split at the edge becomes U+FFFD, as HF/Python decode does. */
  decode(ids: Uint32Array | number[]): string;
  count(text: string): number;
}

/** A length on the grid: a token target (RULER convention, k = 1024), a RULER-HQA document count, or 'native' for
 *  datasets whose documents keep their own lengths (LongBench; label 'all'). */
export interface LengthTarget {
  kind: 'tokens' | 'docs' | 'native';
  value: number;
  /** Display label, e.g. "32k", "3.5m", "docs:50". */
  label: string;
}

/** A document held as token ids, streamed in pieces so a 3.5M-token context never has to be one string. */
export interface ContextSource {
  readonly tokenCount: number;
  /** Token ids of the whole context, in order, in pieces of any size. Callable more than once. */
  pieces(): Iterable<Uint32Array>;
  /**
   * Optional: the text of each piece, in step with pieces(), each exactly what decoding that piece gives. Lets
   * chunked methods cut windows without decoding every id again (harness/methods/windows.ts).
   */
  pieceTexts?(): Iterable<string>;
  /** The whole context as text (materialises it). */
  text(): string;
}

/** Sampling of a model call (docs/PROTOCOLS.md §a.5, §e.6): each task has its protocol's default (harness/protocol/decoding.ts). */
export interface Decoding {
  temperature: number;
  topP: number;
}

export interface PromptSpec {
  /** One-shot template with {context} and {question} placeholders (full-context / rag). Default: MemAgent's full-context QA template. */
  fullContext?: string;
  /** Max new tokens of the one-shot answering call (full-context, rag): LongBench's per-dataset limits, RULER's
   *  tokens_to_generate. Unset: 10,000 (ONE_SHOT_ANSWER_TOKENS, MemAgent's full-context baseline). MemAgent ignores it:
   *  every one of its calls allows --memory-tokens (default 1024). `bench generate --format ruler` adds it (1024 when
   *  unset) to a row's `length`. */
  maxNewTokens?: number;
  /** How the answer is taken from the final output: 'phrase' = MemAgent "the answer is" extraction,
   *  'boxed' = last \\boxed{}, 'raw' = the whole continuation (LongBench scores the raw text). Default 'phrase'. */
  answerFormat?: 'phrase' | 'boxed' | 'raw';
  /** The task's own one-shot layout with {context} (RULER's NIAH prompt), written by `bench generate --format ruler`.
   *  Methods do not use it: full-context follows MemAgent's baseline template with the task's question. */
  nativeTemplate?: string;
  /** RULER's answer prefix, which its native prompt ends with (after the question). No method sends it: full-context
   *  and rag use the one-shot template, MemAgent its own prompts. `bench generate --format ruler` writes it as the
   *  row's answer_prefix and counts it in `length`. */
  answerPrefix?: string;
  /** Middle truncation of a one-shot prompt longer than the window (docs/PROTOCOLS.md §a.9, §e.6), chosen by the
   *  task's family: 'joined' keeps the first floor(max/2) and last ceil(max/2) ids and decodes them joined (MemAgent's
   *  baseline); 'halves' keeps int(max/2) ids at each end (max-1 ids for an odd max) and decodes each half on its own
   *  (LongBench's pred.py). Default 'joined'. */
  truncation?: 'joined' | 'halves';
  /** How the one-shot template receives the question: 'stripped' (MemAgent's baselines strip it) or 'raw' (LongBench's
   *  pred.py formats the row's fields as they are). Default 'stripped'. MemAgent's own prompts always strip it. */
  questionFill?: 'stripped' | 'raw';
  /** The task's default sampling (its protocol's); --temperature / --top-p override it. Default MemAgent's 0.7 / 0.95. */
  decoding?: Decoding;
  /** A second call of the one-shot methods (full-context, rag) after a non-empty first reply: `template` with every
   *  `placeholder` replaced by that reply, stripped; its reply is the answer (LongBench v2's 0shot_cot → 0shot_cot_ans).
   *  The first reply is kept in the record's extra `first_output`. */
  followUp?: { template: string; placeholder: string; maxNewTokens: number };
  /** MemAgent's answer-from-memory prompt for this task ({question}, {memory}), in place of its own; the reply is the
   *  answer as it stands (LongBench v2 asks for "The correct answer is (...)"). */
  memagentFinal?: string;
  /** The problem as the answering calls of the chunked methods state it (MemAgent's and InfMem's final call,
   *  ReMemR1's answer, Chain-of-Agents' manager, refine's last window, map-reduce's combine), in place of `question`,
   *  which the reading calls keep (BABILong: the task's instruction, examples and post-prompt before its question). */
  finalQuestion?: string;
}

/** Per-sample inputs of a metric beyond prediction and answers (harness/scorers), set by the generator and read only
 *  by its family's metrics (LongBench: dataset, allClasses). Plain JSON: it is stored in each SampleRecord. */
export type MetricOptions = Readonly<Record<string, unknown>>;

/** What a generator builds: a sample without its identity. The runner gives it that (harness/runner/sample-identity.ts),
 *  so resume never depends on how a generator would have spelled ids. */
export interface GeneratedSample {
  /** The problem statement shown to the model (MemAgent's <problem>). */
  question: string;
  answers: string[];
  context: ContextSource;
  /** Metric that scores this sample (see harness/scorers). */
  metric: string;
  /** What the metric needs besides prediction and answers (LongBench: dataset, all_classes). Never shown to any model. */
  scoring?: MetricOptions;
  /** Optional per-task prompt settings for the methods (LongBench templates, NIAH answer prefix, ...). */
  prompt?: PromptSpec;
  /** Generator facts (gold positions, reuse factor, ...). Never shown to any model. */
  metadata: Record<string, unknown>;
  /** Where the gold evidence lies in the context, as token spans (supporting paragraphs, needles, the vt chain), where
   *  the generator knows it. Never shown to any model; the record keeps it and the chunks it falls in. */
  evidence?: EvidenceSpan[];
  /** Where the generator cannot know it: why (e.g. a dataset whose rows do not say), for the record and bench view. */
  evidenceNote?: string;
}

/** A stretch of the context's token ids [start, end) that holds gold evidence. */
export interface EvidenceSpan {
  /** What it is, e.g. "supporting paragraph (Document 12)", "needle 1", "VAR ABCDE = 12345". */
  label: string;
  start: number;
  end: number;
}

/** A sample as the runner runs it: what the generator built, plus the identity the runner gave it. */
export interface Sample extends GeneratedSample {
  /** Stable id `${task}/${length.label}/${index}`, used for resume (harness/run-dir/record-key.ts). */
  id: string;
  task: string;
  taskVersion: string;
  length: LengthTarget;
  index: number;
}

export interface TaskEnv {
  tokenizer: Tokenizer;
  seed: number;
  options: Record<string, string>;
}

/** Where a task's samples come from when they are read from the user's files (--data), for the manifest and grid line. */
export interface DataSourceInfo {
  /** --data as given: a file or a directory. */
  path: string;
  /** The detected format (harness/data/format.ts), e.g. "memagent-hqa (index form)". */
  format: string;
  /** Every file read, with its sha256 and row count. */
  files: Array<{ path: string; format: string; sha256: string; rows: number }>;
  /** The HotpotQA file that MemAgent's index-form rows point into (--pool). */
  pool?: { path: string; sha256: string; paragraphs: number };
  /** Files of a --data directory left out because they hold another format. */
  ignored?: string[];
}

export interface PreparedTask {
  /** How many samples exist at this length (before --samples caps it). */
  maxSamples(length: LengthTarget): number;
  build(length: LengthTarget, index: number): GeneratedSample;
  /** Lengths defined by the data (samples read from files): the run's grid, which --lengths may only filter. */
  lengths?: LengthTarget[];
  /** The headline metric when the data decides it (e.g. RULER rows: string_match_all), else the task's. */
  metric?: string;
  /** Set when the samples come from --data. */
  data?: DataSourceInfo;
  /** The protocol variant the samples follow, for tasks with several (TaskDefinition.flavours); in the manifest. */
  flavour?: string;
  /** The longest token target this preparation runs (e.g. MemAgent's qa_1 stops at 256K), with the reason. */
  maxTokens?: { tokens: number; why: string };
}

export interface TaskDefinition {
  name: string;
  version: string;
  description: string;
  /** Default metric name (harness/scorers registry). */
  metric: string;
  defaultSamples: number;
  defaultLengths: string;
  /** Whether `docs:` lengths are meaningful for this task. */
  acceptsDocCounts: boolean;
  /** Takes the token length 0 (`--lengths 0k`): BABILong's facts with no background text. */
  zeroLength?: boolean;
  /** True for datasets with their own document lengths (LongBench): the grid is one 'native' point, --lengths is refused. */
  nativeLengths?: boolean;
  /** For a task that reads a dataset: the rows bundled with bench, run without --data (0: none, --data is needed), and
   *  whether they are only a small test fixture, and what those rows are (`source`, e.g. "built from HotpotQA, not
   *  LongBench's rows"); `defaultSamples` is then the full dataset's size. Absent for tasks that generate their
   *  samples. */
  bundled?(): { rows: number; fixture: boolean; source?: string };
  /** The task's default sampling, the same as its samples' prompt.decoding (recorded in the manifest and the run
   *  identity). Default MemAgent's 0.7 / 0.95 (harness/protocol/decoding.ts). */
  decoding?: Decoding;
  /** Protocol variants the task can follow (its --flavour values) and the metric of each, the default first. */
  flavours?: readonly { name: string; metric: string }[];
  /** May throw DatasetMissingError (harness/errors.ts): the runner then reports it once and skips the task. */
  prepare(env: TaskEnv): Promise<PreparedTask>;
}

/** 'over-target': the method ran and was scored, but the context is longer than its token target (the question's own
 *  paragraphs alone exceed it; metadata.over_target, target_tokens, built_tokens). Reports count these apart. */
export type SampleStatus = 'ok' | 'error' | 'truncated' | 'over-target';

/** One model call, as recorded in calls.jsonl. */
export interface CallRecord {
  sampleId: string;
  method: string;
  step: number;
  kind: string;
  latencyMs: number;
  /** Wall-clock start of the model call (epoch ms, sub-ms precision): end − latencyMs. Lets `bench plan --calibrate`
   *  see which calls overlapped. Absent in runs recorded before it existed. */
  startedAt?: number;
  /** Validated counts: the server's where it sent whole numbers ≥ 0, else the run tokenizer's (see usageFlag). */
  usage: Usage;
  /** Set when the server's usage was missing or not a count: what was wrong; `usage` then holds the run tokenizer's
   *  count for those fields. Absent when the server's usage was used as sent. */
  usageFlag?: string;
  /** The server's finish reason of an answered call ("stop", "length", ...). Absent for failed calls and in runs
   *  recorded before it existed. "length": the answer was cut at its max-tokens limit. */
  finishReason?: string;
  status: 'ok' | 'error';
  retries: number;
  cached: boolean;
  promptHash?: string;
  /** Redacted (harness/redact.ts): never holds the API key or an Authorization value. */
  error?: string;
  /** Tokens of the call's thinking: its reasoning_content (the server's count, else the run tokenizer's) plus any
   *  `<think>` text in its answer up to the last `</think>`. Absent when 0. */
  thinkingTokens?: number;
  /** The answer opened `<think>` and never closed it (the method's upstream rule then decides what it keeps). */
  unclosedThink?: true;
  /** The reasoning_content the server returned for this call, as sent (redacted). */
  reasoning?: string;
  /** 2 when --thinking-budget made the call think, then answer in a second request. */
  requests?: number;
}

export interface MethodOutput {
  /** Extracted answer, or null when the output had no extractable answer. */
  prediction: string | null;
  /** Final raw model text. */
  rawOutput: string;
  status: SampleStatus;
  error?: string;
  calls: number;
  usage: Usage;
  extra?: Record<string, unknown>;
}

/** State of a multi-call method after a finished call, so a killed run resumes inside a sample. */
export interface MethodCheckpoint<State = unknown> {
  /** Number of finished calls. */
  step: number;
  usage: Usage;
  /** Calls so far that ended on the length limit (SampleRecord.cutCalls), kept by the runner, not the method: a
   *  resumed sample goes on counting from here. Absent in checkpoints written before it existed. */
  cutCalls?: number;
  /** Thinking tokens and unclosed-think calls so far (SampleRecord), kept by the runner like cutCalls. */
  thinkingTokens?: number;
  unclosedThinkCalls?: number;
  /** Per finished memory update so far, '1' where the memory held the gold and '0' where not (MemoryRetention.holds),
   *  kept by the runner: a resumed sample goes on from here. Absent for methods without a memory. */
  memoryHolds?: string;
  /** The method's own state (plain JSON), e.g. MemAgent's { memory }. Only the method reads it; a state it cannot
   *  read restarts the sample. Checkpoints written before `state` existed held MemAgent's memory beside step and
   *  usage; harness/run-dir/checkpoints.ts reads them into this form. */
  state: State;
}

export interface MethodContext {
  model: Model;
  tokenizer: Tokenizer;
  signal?: AbortSignal;
  /** Called after every model call (for calls.jsonl). */
  onCall?(record: CallRecord): void;
  /** Called before every model call with the prompt's content hash (the run stores each prompt once). */
  onPrompt?(hash: string, request: ModelRequest): void;
  /** Where a resumed sample starts: the last checkpoint this method saved for the sample. */
  resume?: MethodCheckpoint;
  /** Called after every finished call of a multi-call method; the runner saves what it is given. */
  onCheckpoint?(checkpoint: MethodCheckpoint): void;
  /** Called after every memory-update call of a method with a memory (MemAgent), before its checkpoint. */
  onMemory?(update: MemoryUpdate): void;
}

/** The memory after one memory-update call: `chunk` is the 0-based index of the window it read. */
export interface MemoryUpdate {
  chunk: number;
  memory: string;
  /** Its tokens (the call's completion tokens). */
  tokens: number;
}

export interface Method {
  name: string;
  /** For a method that reads the context in windows: the window size in tokens (evidence chunks are counted in it). */
  chunkTokens?: number;
  run(sample: Sample, ctx: MethodContext): Promise<MethodOutput>;
}

/** A memory agent's retention of the gold over its chunks (harness/memory/retention.ts). */
export interface MemoryRetention {
  /** 0-based indices of the chunks that overlap an evidence span (empty when the evidence location is unknown). */
  evidenceChunks: number[];
  /** One character per memory update, in chunk order: '1' where the memory held the gold (normalized substring). */
  holds: string;
  /** The first chunk after which the memory held the gold; null if it never did. */
  capturedAt: number | null;
  /** The first chunk after capturedAt after which it no longer did; null if it kept it to the end (or never had it). */
  lostAt: number | null;
}

/** One finished sample: a line of samples.jsonl. Scores are 0..1 here; reports show ×100. */
export interface SampleRecord {
  id: string;
  task: string;
  taskVersion: string;
  method: string;
  model: string;
  lengthLabel: string;
  lengthKind: 'tokens' | 'docs' | 'native';
  /** Target value: tokens for kind 'tokens', document count for 'docs'. */
  length: number;
  index: number;
  /** Tokens of the built context in the run's tokenizer. */
  builtTokens: number;
  question: string;
  answers: string[];
  prediction: string | null;
  rawOutput: string;
  /** Name of the headline metric (harness/scorers). */
  metric: string;
  /** The sample's metric options (Sample.scoring), so a rescore needs no guess. Absent in records written before it
   *  existed: rescoring then reads metadata.dataset / metadata.all_classes. */
  scoring?: MetricOptions;
  /** Headline score, 0..1. */
  score: number;
  /** All metrics computed for this sample, 0..1 (e.g. sub_em, em, f1). */
  scores: Record<string, number>;
  status: SampleStatus;
  /** Redacted (harness/redact.ts), like every string a record takes from a server. */
  error?: string;
  calls: number;
  /** Of this sample's answered calls, those that ended on the length limit (finish reason "length": cut off at
   *  max tokens). A resumed sample counts from its checkpoint (MethodCheckpoint.cutCalls). Absent in records written
   *  before it existed (read as 0). */
  cutCalls?: number;
  usage: Usage;
  /** Thinking tokens over the sample's calls (CallRecord.thinkingTokens). Absent when 0 and in older records. */
  thinkingTokens?: number;
  /** Of the sample's calls, those whose `<think>` never closed. Absent when 0. */
  unclosedThinkCalls?: number;
  /** The reasoning_content of the sample's last call that had one (redacted). */
  reasoning?: string;
  elapsedMs: number;
  /** Generator facts (Sample.metadata). In records written before `extra` existed it also holds the method's extras. */
  metadata: Record<string, unknown>;
  /** Where the gold evidence lies (Sample.evidence), when the generator knows it. */
  evidence?: EvidenceSpan[];
  /** Why the generator cannot say where it lies (Sample.evidenceNote). */
  evidenceNote?: string;
  /** For a method with a memory (MemAgent): the chunks holding evidence and when the memory held the gold. */
  memory?: MemoryRetention;
  /** The method's output extras (MethodOutput.extra: windows, final_memory, middle_truncated, prompt_tokens, ...).
   *  Absent in old records; read through methodExtra() (reports/records.ts), which falls back to metadata. */
  extra?: Record<string, unknown>;
}
