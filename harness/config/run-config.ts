// What `bench run` was asked to do, after parsing and validation. Shared by the runner, the model factory, the
// worker threads and --dry-run; the CLI only produces it.
import type { MethodFlagValues } from '../methods/registry.js';
import type { LengthTarget } from '../types.js';

/** The OpenAI route calls take. */
export type ApiKind = 'chat' | 'completions';

export interface RunConfig {
  tasks: string[];
  /** Undefined: each task's default grid. */
  lengths?: LengthTarget[];
  lengthSpec?: string;
  samples?: number;
  seed: number;
  out?: string;
  /** Registered method names (harness/methods/index.ts), run side by side over the same samples. */
  methods: string[];
  /** Every method option's value by flag (defaults filled in); each method parses its own typed settings from it
   *  (MethodDefinition.settings). Plain data: it crosses to worker threads and is the manifest's `settings`. */
  methodSettings: MethodFlagValues;
  /** 'local' or the endpoint URLs. */
  model: 'local' | string[];
  modelName?: string;
  apiKeyEnv?: string;
  concurrency: number;
  requestsPerEndpoint: number;
  tokenizer: string;
  /** Task options (--placement, --data). */
  options: Record<string, string>;
  shard?: { index: number; count: number };
  workers?: number;
  /** Each worker thread's old-generation heap in MB (--worker-heap-mb; worker-pool.ts has the default). */
  workerHeapMb?: number;
  progress: boolean;
  trial: number;
  cache: boolean;
  storePrompts: boolean;
  /** Write memory.jsonl, the memory after every memory-update call (default on; --no-memory-trace turns it off). */
  memoryTrace?: boolean;
  /** Retry 429s (default) or end the sample as an error at once (daily quotas). */
  retry429: boolean;
  /** Rerun samples that ended as errors in an earlier run of this directory. */
  retryErrors: boolean;
  /** Let this run add tasks, lengths or methods to a run directory that holds fewer (recorded in its history). */
  extend: boolean;
  /** Count samples, calls and tokens without calling a model or writing a run directory. */
  dryRun: boolean;
  /** The server's batch (max_num_seqs × replicas): calls beyond it wait here, longest remaining chain first. */
  serverBatch?: number;
  /** Base per-request timeout in ms (grows with prompt and output size). */
  requestTimeoutMs?: number;
  /** First retry backoff ceiling in ms. */
  retryBaseMs?: number;
  cacheDebug: boolean;
  /** Which OpenAI route the calls take: /chat/completions (default) or /completions, the prompt text sent as it is
   *  (harness/models/api.ts). Unset: chat. */
  api?: ApiKind;
  /** The endpoint's context window when the user gives it (--max-model-len); else GET /models' max_model_len. */
  maxModelLen?: number;
  /** Run even when a method's largest planned call does not fit the window (the window preflight); its samples
   *  that the server rejects end 'truncated'. */
  allowTruncation?: boolean;
  /** --thinking-budget: thinking tokens allowed apart from each call's answer budget (harness/models/thinking.ts). */
  thinkingBudget?: number;
  /** --protocol: a preset of another upstream's run mode (harness/protocol/ruler-native.ts); unset: our default. */
  protocol?: 'ruler';
}
