// A Model backed by an OpenAI-compatible endpoint, with our own bounded, classified retry loop.
import type OpenAI from 'openai';
import type { Model, ModelRequest, ModelResponse } from '../../types.js';
import { ModelCallError, type ModelErrorKind } from '../../errors.js';
import { classifyFailure, type Failure } from './classify.js';
import { displayURL, makeClient } from './client.js';
import {
  DEFAULT_BACKOFF,
  DEFAULT_TIMEOUT_POLICY,
  abortableSleep,
  formatSeconds,
  attemptTimeoutMs,
  retryDelayMs,
  seededRandom,
  type BackoffPolicy,
  type TimeoutPolicy,
} from './policy.js';

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
  /** Send max_tokens (vLLM, SGLang, most servers) or max_completion_tokens (newer OpenAI models). Default max_tokens. */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
  headers?: Record<string, string>;
  /** Jitter source; default seeded from jitterSeed. */
  random?: () => number;
  jitterSeed?: number;
  /** Wait function (tests record the scheduled delays or scale them down). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Called before each retry wait. */
  onRetry?: (event: RetryEvent) => void;
}

export interface RetryEvent {
  /** 1-based number of the attempt that failed. */
  attempt: number;
  kind: ModelErrorKind;
  reason: string;
  status?: number;
  retryAfterMs?: number;
  /** The wait scheduled before the next attempt. */
  delayMs: number;
  message: string;
}

export interface ClientStats {
  calls: number;
  succeeded: number;
  failed: number;
  attempts: number;
  retries: number;
  /** Retries by reason of the failed attempt: "http-503", "http-429", "connection", "timeout", "malformed-body", ... */
  retriesByReason: Record<string, number>;
  /** Final failures by error kind. */
  failuresByKind: Record<string, number>;
  promptTokens: number;
  completionTokens: number;
}

export interface OpenAIModel extends Model {
  readonly baseURL: string;
  readonly modelName: string;
  stats(): ClientStats;
}

interface CompletionShape {
  choices: { message?: { content?: string | null }; finish_reason?: string | null }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
}

class AttemptTimeout extends Error {}

/** A ModelCallError that also says how many attempts were made (retries = attempts - 1), for calls.jsonl. */
export class EndpointCallError extends ModelCallError {
  constructor(message: string, kind: ModelErrorKind, readonly attempts: number, status?: number, retryAfterMs?: number) {
    super(message, kind, status, retryAfterMs);
  }
}

function malformed(what: string): Error {
  const e = new Error(what);
  e.name = 'MalformedResponse';
  return e;
}

function checkCompletion(body: unknown): CompletionShape {
  const b = body as CompletionShape | null;
  if (typeof b !== 'object' || b === null || !Array.isArray(b.choices) || b.choices.length === 0) {
    throw malformed(typeof body === 'string' ? 'a non-JSON body' : 'no choices in the body');
  }
  const content = b.choices[0].message?.content;
  if (content !== undefined && content !== null && typeof content !== 'string') throw malformed('message.content is not text');
  return b;
}

export function createOpenAIModel(options: OpenAIModelOptions): OpenAIModel {
  const endpoint = displayURL(options.baseURL);
  const client: OpenAI = makeClient({ baseURL: endpoint, apiKey: options.apiKey, headers: options.headers });
  const maxRetries = options.maxRetries ?? 8;
  const budgetMs = options.totalRetryBudgetMs ?? 15 * 60_000;
  const backoff: BackoffPolicy = { ...DEFAULT_BACKOFF, ...options.backoff };
  const timeouts: TimeoutPolicy = { ...DEFAULT_TIMEOUT_POLICY, ...options.timeoutPolicy };
  const random = options.random ?? seededRandom(options.jitterSeed ?? 1);
  const sleep = options.sleep ?? abortableSleep;
  const retryRateLimited = options.retryRateLimited ?? true;
  const maxTokensField = options.maxTokensField ?? 'max_tokens';
  const hadApiKey = options.apiKey !== undefined && options.apiKey !== '';
  const stats: ClientStats = {
    calls: 0, succeeded: 0, failed: 0, attempts: 0, retries: 0,
    retriesByReason: {}, failuresByKind: {}, promptTokens: 0, completionTokens: 0,
  };
  let modelListing: Promise<string[] | undefined> | undefined;

  async function availableModels(): Promise<string[] | undefined> {
    modelListing ??= (async () => {
      try {
        const page = await client.models.list({ timeout: 10_000, maxRetries: 0 });
        return page.data.map((m) => m.id);
      } catch {
        return undefined;
      }
    })();
    return modelListing;
  }

  /** 404s: say whether the model name or the URL is wrong. */
  async function explain404(f: Failure): Promise<Failure> {
    const models = await availableModels();
    const message =
      models && !models.includes(options.modelName)
        ? `model '${options.modelName}' not found at ${endpoint}; available: ${models.join(', ') || '(none)'} (set --model-name)`
        : `endpoint ${endpoint} has no /chat/completions route (HTTP 404): check the base URL (it usually ends in /v1)`;
    return { ...f, error: new ModelCallError(message, 'permanent', 404) };
  }

  async function attempt(request: ModelRequest, timeoutMs: number, signal?: AbortSignal): Promise<ModelResponse> {
    const { params } = request;
    const body: Record<string, unknown> = {
      ...options.extraBody,
      model: options.modelName,
      messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
      [maxTokensField]: params.maxTokens,
      temperature: params.temperature,
      top_p: params.topP,
      ...(params.stop && params.stop.length > 0 ? { stop: params.stop } : {}),
    };
    // One controller per attempt, fed by our timer and the caller's signal (wired by hand: AbortSignal.any on a
    // run-long signal keeps every dependent signal alive on Node 20).
    const attemptCtrl = new AbortController();
    let timedOut = false;
    const t = setTimeout(() => {
      timedOut = true;
      attemptCtrl.abort(new Error('attempt timed out'));
    }, timeoutMs);
    const onAbort = () => attemptCtrl.abort(signal!.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    const started = performance.now();
    try {
      const raw: unknown = await client.chat.completions.create(
        body as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming,
        // The SDK timeout is a backstop; ours also covers reading the body.
        { signal: attemptCtrl.signal, timeout: timeoutMs + 5_000, maxRetries: 0 },
      );
      const c = checkCompletion(raw);
      const choice = c.choices[0];
      return {
        text: choice.message?.content ?? '',
        usage: { promptTokens: c.usage?.prompt_tokens ?? 0, completionTokens: c.usage?.completion_tokens ?? 0 },
        latencyMs: performance.now() - started,
        finishReason: choice.finish_reason ?? 'unknown',
        cached: false,
        retries: 0,
      };
    } catch (err) {
      if (timedOut && !signal?.aborted) throw new AttemptTimeout();
      throw err;
    } finally {
      clearTimeout(t);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  async function generate(request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse> {
    signal?.throwIfAborted();
    stats.calls++;
    const started = performance.now();
    const promptChars = request.messages.reduce((s, m) => s + m.content.length, 0);
    const timeoutMs = attemptTimeoutMs(timeouts, promptChars, request.params.maxTokens);
    for (let n = 1; ; n++) {
      signal?.throwIfAborted();
      stats.attempts++;
      let failure: Failure;
      try {
        const res = await attempt(request, timeoutMs, signal);
        stats.succeeded++;
        stats.promptTokens += res.usage.promptTokens;
        stats.completionTokens += res.usage.completionTokens;
        return { ...res, latencyMs: performance.now() - started, retries: n - 1 };
      } catch (err) {
        if (signal?.aborted) throw signal.reason;
        const timedOut = err instanceof AttemptTimeout;
        failure = classifyFailure(err, { endpoint, timedOut, timeoutMs, hadApiKey, nowMs: Date.now() });
        if (!failure.retryable && failure.error.status === 404) failure = await explain404(failure);
      }
      const { error } = failure;
      const giveUp = (why: string): never => {
        stats.failed++;
        stats.failuresByKind[error.kind] = (stats.failuresByKind[error.kind] ?? 0) + 1;
        const message = why ? `${error.message} (${why})` : error.message;
        throw new EndpointCallError(message, error.kind, n, error.status, error.retryAfterMs);
      };
      if (!failure.retryable) giveUp('');
      if (error.kind === 'rate-limited' && !retryRateLimited) giveUp('429 retries are off');
      if (n > maxRetries) giveUp(`gave up after ${n} attempts`);
      const delayMs = retryDelayMs(backoff, n - 1, random, error.retryAfterMs);
      const elapsed = performance.now() - started;
      if (elapsed + delayMs > budgetMs) giveUp(`gave up after ${n} attempts: retry time budget of ${formatSeconds(budgetMs)} s spent`);
      stats.retries++;
      stats.retriesByReason[failure.reason] = (stats.retriesByReason[failure.reason] ?? 0) + 1;
      options.onRetry?.({
        attempt: n, kind: error.kind, reason: failure.reason, status: error.status,
        retryAfterMs: error.retryAfterMs, delayMs, message: error.message,
      });
      await sleep(delayMs, signal);
    }
  }

  return {
    id: `${endpoint}#${options.modelName}`,
    isReferenceReader: false,
    baseURL: endpoint,
    modelName: options.modelName,
    generate,
    stats: () => structuredClone(stats),
    async close() {},
  };
}
