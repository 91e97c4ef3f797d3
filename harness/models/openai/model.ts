// A Model backed by an OpenAI-compatible endpoint: chat requests go to /chat/completions, requests with a `prompt`
// to /completions; both through the same bounded, classified retry loop (retry-loop.ts).
import type OpenAI from 'openai';
import type { Model, ModelRequest, ModelResponse } from '../../types.js';
import { displayURL, makeClient } from './client.js';
import {
  DEFAULT_BACKOFF,
  DEFAULT_TIMEOUT_POLICY,
  abortableSleep,
  seededRandom,
  type BackoffPolicy,
  type TimeoutPolicy,
} from './policy.js';
import {
  createRetryLoop,
  emptyStats,
  endpointHealth,
  type ClientStats,
  type RetryEvent,
  type RetryLoopSettings,
} from './retry-loop.js';
import { chatWire } from './chat-wire.js';
import { textWire } from './text-wire.js';
import type { WireSettings } from './wire.js';

export { EndpointCallError, type ClientStats, type RetryEvent } from './retry-loop.js';

export interface OpenAIModelOptions {
  /** e.g. "http://127.0.0.1:8000/v1". */
  baseURL: string;
  /** Model name sent in requests (--model-name). */
  modelName: string;
  /** The key itself (read by the caller from the variable named by --api-key-env). Never logged or stored. */
  apiKey?: string;
  /** Retries after the first attempt. Default 8 (9 attempts). */
  maxRetries?: number;
  /** No new attempt starts once this much time has passed since the call began (incl. waits). Default 15 min. */
  totalRetryBudgetMs?: number;
  backoff?: Partial<BackoffPolicy>;
  timeoutPolicy?: Partial<TimeoutPolicy>;
  /** False: a 429 fails the call at once (free-tier quotas that reset daily). Default true. */
  retryRateLimited?: boolean;
  /** Extra fields merged into every request body (e.g. { chat_template_kwargs: {...} }). */
  extraBody?: Record<string, unknown>;
  /** Chat requests send max_tokens (vLLM, SGLang, most servers) or max_completion_tokens (newer OpenAI models).
   *  Default max_tokens; text completions always send max_tokens. */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
  headers?: Record<string, string>;
  /** Jitter source; default seeded from jitterSeed. */
  random?: () => number;
  jitterSeed?: number;
  /** Wait function (tests record the scheduled delays or scale them down). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Called before each retry wait. */
  onRetry?: (event: RetryEvent) => void;
  /** Called when a call gives up because its total retry time budget is spent (not for fatal errors). */
  onBudgetSpent?: (message: string) => void;
}

export interface OpenAIModel extends Model {
  readonly baseURL: string;
  readonly modelName: string;
  stats(): ClientStats;
}

export function createOpenAIModel(options: OpenAIModelOptions): OpenAIModel {
  const endpoint = displayURL(options.baseURL);
  const client: OpenAI = makeClient({ baseURL: endpoint, apiKey: options.apiKey, headers: options.headers });
  const stats = emptyStats();
  let modelListing: Promise<string[] | undefined> | undefined;
  const loop: RetryLoopSettings = {
    endpoint,
    modelName: options.modelName,
    client,
    hadApiKey: options.apiKey !== undefined && options.apiKey !== '',
    maxRetries: options.maxRetries ?? 8,
    totalRetryBudgetMs: options.totalRetryBudgetMs ?? 15 * 60_000,
    backoff: { ...DEFAULT_BACKOFF, ...options.backoff },
    timeouts: { ...DEFAULT_TIMEOUT_POLICY, ...options.timeoutPolicy },
    retryRateLimited: options.retryRateLimited ?? true,
    random: options.random ?? seededRandom(options.jitterSeed ?? 1),
    sleep: options.sleep ?? abortableSleep,
    stats,
    availableModels: () =>
      (modelListing ??= (async () => {
        try {
          const page = await client.models.list({ timeout: 10_000, maxRetries: 0 });
          return page.data.map((m) => m.id);
        } catch {
          return undefined;
        }
      })()),
    onRetry: options.onRetry,
    onBudgetSpent: options.onBudgetSpent,
    health: endpointHealth(),
  };
  const wire: WireSettings = {
    modelName: options.modelName,
    extraBody: options.extraBody,
    maxTokensField: options.maxTokensField,
  };
  const chat = createRetryLoop(chatWire(wire), loop);
  // Made on first use: a run that sends only chat requests never touches /completions.
  let text: ReturnType<typeof createRetryLoop> | undefined;

  return {
    id: `${endpoint}#${options.modelName}`,
    isReferenceReader: false,
    baseURL: endpoint,
    modelName: options.modelName,
    generate(request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse> {
      if (request.prompt === undefined) return chat(request, signal);
      text ??= createRetryLoop(textWire(wire), loop);
      return text(request, signal);
    },
    stats: () => structuredClone(stats),
    async close() {},
  };
}
