// A Model backed by an OpenAI-compatible endpoint, with our own bounded, classified retry loop.
import type OpenAI from 'openai';
import type { Model, ModelRequest, ModelResponse } from '../../types.js';
import { ModelCallError, type ModelErrorKind } from '../../errors.js';
import { APIError } from 'openai';
import {
  NotChatCompletion,
  apiMessage,
  classifyFailure,
  explainMissing,
  looksLikeHtml,
  serverWords,
  type Failure,
} from './classify.js';
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
  /** Called when a call gives up because its total retry time budget is spent (not for fatal errors). */
  onBudgetSpent?: (message: string) => void;
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

/**
 * A ModelCallError that also says how many attempts were made (retries = attempts - 1), for calls.jsonl. Attempts 0:
 * the call was never sent (the endpoint had already failed fatally).
 */
export class EndpointCallError extends ModelCallError {
  constructor(
    message: string,
    kind: ModelErrorKind,
    readonly attempts: number,
    status?: number,
    retryAfterMs?: number,
  ) {
    super(message, kind, status, retryAfterMs);
  }
}

function malformed(what: string): Error {
  const e = new Error(what);
  e.name = 'MalformedResponse';
  return e;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The body of a 200 answer as a chat completion. A JSON body cut short (a connection that broke mid-answer) throws
 * a SyntaxError (retried as a malformed body); anything else that is not a chat completion (an HTML page, plain
 * text, JSON without choices) throws NotChatCompletion naming what came back.
 */
export function parseCompletion(text: string): CompletionShape {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (err) {
    const t = text.trim();
    if (t.startsWith('{') || t.startsWith('[')) throw err;
    if (t === '') throw new NotChatCompletion('an empty body (HTTP 200)');
    if (looksLikeHtml(t)) throw new NotChatCompletion(`${serverWords(t)} (HTTP 200)`);
    throw new NotChatCompletion(`a body that is not JSON (HTTP 200: "${serverWords(t, 80)}")`);
  }
  if (!isRecord(body)) throw new NotChatCompletion('JSON that is not an object (HTTP 200)');
  const choices = body.choices;
  if (!Array.isArray(choices) || choices.length === 0) {
    const e = body.error;
    const said = isRecord(e) && typeof e.message === 'string' ? e.message : typeof e === 'string' ? e : undefined;
    if (said !== undefined) throw new NotChatCompletion(`an error inside a 200 body (${serverWords(said)})`);
    throw new NotChatCompletion(
      Array.isArray(choices) ? 'an empty "choices" list (HTTP 200)' : 'JSON without "choices" (HTTP 200)',
    );
  }
  const b = body as unknown as CompletionShape;
  const content = b.choices[0]?.message?.content;
  if (content !== undefined && content !== null && typeof content !== 'string')
    throw malformed('message.content is not text');
  return b;
}

/** Attempts a body that is not a chat completion gets while the endpoint has never answered a call properly. */
const UNPROVEN_BODY_ATTEMPTS = 2;

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
    calls: 0,
    succeeded: 0,
    failed: 0,
    attempts: 0,
    retries: 0,
    retriesByReason: {},
    failuresByKind: {},
    promptTokens: 0,
    completionTokens: 0,
  };
  let modelListing: Promise<string[] | undefined> | undefined;
  // What this endpoint has shown so far. Until one call has come back as a chat completion (proven), calls go one at
  // a time (the first call is a canary), so a dead route costs one call, not one per sample in flight.
  let proven = false;
  /** Some attempt got an HTTP answer of any kind (not only timeouts and connection failures). */
  let answered = false;
  /** Calls may go out concurrently: proven, or the canary failed for a reason that is not the endpoint's fault. */
  let open = false;
  let canary: Promise<void> | undefined;
  /** The first fatal error: every later call fails with it at once, without being sent. */
  let fatal: EndpointCallError | undefined;

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

  /** 404/405 (and 400s naming the model): say whether the model name or the URL is wrong, in the server's words. */
  async function explainMissingRoute(f: Failure, said: string): Promise<Failure> {
    const listed = await availableModels();
    const message = explainMissing(endpoint, options.modelName, f.error.status ?? 404, said, listed);
    return { ...f, error: new ModelCallError(message, 'fatal', f.error.status) };
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
      // The raw response, so that the body is read and judged by us (an HTML page or plain text is named, not lost).
      const res = await client.chat.completions
        .create(
          body as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming,
          // The SDK timeout is a backstop; ours also covers reading the body.
          { signal: attemptCtrl.signal, timeout: timeoutMs + 5_000, maxRetries: 0 },
        )
        .asResponse();
      answered = true;
      const c = parseCompletion(await res.text());
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

  /** One call with its retry loop. */
  async function call(request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse> {
    stats.calls++;
    const started = performance.now();
    const promptChars = request.messages.reduce((s, m) => s + m.content.length, 0);
    const timeoutMs = attemptTimeoutMs(timeouts, promptChars, request.params.maxTokens);
    for (let n = 1; ; n++) {
      signal?.throwIfAborted();
      if (fatal) throw notSent(fatal);
      stats.attempts++;
      let failure: Failure;
      try {
        const res = await attempt(request, timeoutMs, signal);
        proven = true;
        stats.succeeded++;
        stats.promptTokens += res.usage.promptTokens;
        stats.completionTokens += res.usage.completionTokens;
        return { ...res, latencyMs: performance.now() - started, retries: n - 1 };
      } catch (err) {
        if (signal?.aborted) throw signal.reason;
        const timedOut = err instanceof AttemptTimeout;
        failure = classifyFailure(err, {
          endpoint,
          timedOut,
          timeoutMs,
          hadApiKey,
          nowMs: Date.now(),
          modelName: options.modelName,
        });
        if (failure.reason !== 'timeout' && failure.reason !== 'connection') answered = true;
        // A context-length rejection shows that the route and the model are right.
        if (failure.error.kind === 'context-length') proven = true;
        if (
          failure.error.kind === 'fatal' &&
          failure.error.status !== undefined &&
          failure.error.status !== 401 &&
          failure.error.status !== 403
        ) {
          failure = await explainMissingRoute(failure, err instanceof APIError ? apiMessage(err) : '');
        }
      }
      const { error } = failure;
      const giveUp = (why: string): never => {
        let message = why ? `${error.message} (${why})` : error.message;
        let kind = error.kind;
        if (kind !== 'fatal' && !answered && (failure.reason === 'timeout' || failure.reason === 'connection')) {
          kind = 'fatal';
          message +=
            failure.reason === 'timeout'
              ? '; the endpoint has answered no call yet: check that the server is up and not stuck, or raise --request-timeout'
              : '; the endpoint has answered no call yet: check that the server is up';
        }
        stats.failed++;
        stats.failuresByKind[kind] = (stats.failuresByKind[kind] ?? 0) + 1;
        const e = new EndpointCallError(message, kind, n, error.status, error.retryAfterMs);
        if (kind === 'fatal') fatal ??= e;
        else if (why.includes('budget')) options.onBudgetSpent?.(message);
        throw e;
      };
      if (!failure.retryable) giveUp('');
      if (failure.reason === 'not-a-completion' && !proven && n >= UNPROVEN_BODY_ATTEMPTS) {
        const e = new EndpointCallError(
          `${error.message} (${n} attempts): check that --model is the base URL of an OpenAI-compatible API (it usually ends in /v1)`,
          'fatal',
          n,
        );
        stats.failed++;
        stats.failuresByKind.fatal = (stats.failuresByKind.fatal ?? 0) + 1;
        fatal ??= e;
        throw e;
      }
      if (error.kind === 'rate-limited' && !retryRateLimited) giveUp('429 retries are off');
      if (n > maxRetries) giveUp(`gave up after ${n} attempts`);
      const delayMs = retryDelayMs(backoff, n - 1, random, error.retryAfterMs);
      const elapsed = performance.now() - started;
      if (elapsed + delayMs > budgetMs)
        giveUp(`gave up after ${n} attempts: retry time budget of ${formatSeconds(budgetMs)} s spent`);
      stats.retries++;
      stats.retriesByReason[failure.reason] = (stats.retriesByReason[failure.reason] ?? 0) + 1;
      options.onRetry?.({
        attempt: n,
        kind: error.kind,
        reason: failure.reason,
        status: error.status,
        retryAfterMs: error.retryAfterMs,
        delayMs,
        message: error.message,
      });
      await sleep(delayMs, signal);
    }
  }

  async function generate(request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse> {
    signal?.throwIfAborted();
    // Until the endpoint has shown it serves chat completions, wait for the call in flight (the canary) to end.
    while (!open) {
      if (fatal) throw notSent(fatal);
      if (!canary) break;
      await waitFor(canary, signal);
    }
    if (fatal) throw notSent(fatal);
    if (open) return call(request, signal);
    let done!: () => void;
    canary = new Promise<void>((resolve) => (done = resolve));
    try {
      const res = await call(request, signal);
      open = true;
      return res;
    } catch (err) {
      // Interrupted: the next waiting call becomes the canary. Fatal: every waiting call fails with it. Otherwise the
      // failure was this call's own (e.g. 5xx for this prompt), so the others may go.
      if (!signal?.aborted && !fatal) open = true;
      throw err;
    } finally {
      canary = undefined;
      done();
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

/** The fatal error again, for a call that was never sent (attempts 0: not recorded as a model call). */
function notSent(fatal: EndpointCallError): EndpointCallError {
  return new EndpointCallError(fatal.message, 'fatal', 0, fatal.status);
}

/** Resolves when p settles; rejects with the signal's reason when it aborts first. */
function waitFor(p: Promise<void>, signal?: AbortSignal): Promise<void> {
  if (!signal) return p;
  signal.throwIfAborted();
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    void p.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}
