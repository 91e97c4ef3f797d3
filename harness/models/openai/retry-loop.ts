// The bounded, classified retry loop every OpenAI route shares: attempt timeouts, backoff, classification, the
// canary call of an unproven endpoint and the run-wide fatal error. What goes over the wire is the WireFormat's.
import type OpenAI from 'openai';
import { APIError } from 'openai';
import type { ModelRequest, ModelResponse } from '../../types.js';
import { ModelCallError, type ModelErrorKind } from '../../errors.js';
import { apiMessage, classifyFailure, explainMissing, type Failure } from './classify.js';
import { attemptTimeoutMs, formatSeconds, retryDelayMs, type BackoffPolicy, type TimeoutPolicy } from './policy.js';
import type { WireFormat } from './wire.js';

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

export function emptyStats(): ClientStats {
  return {
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
}

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

/** Everything the loop needs besides the wire format; `stats` is updated in place (shared between routes). */
export interface RetryLoopSettings {
  /** Endpoint as shown to users (base URL without trailing slash). */
  endpoint: string;
  modelName: string;
  client: OpenAI;
  hadApiKey: boolean;
  maxRetries: number;
  totalRetryBudgetMs: number;
  backoff: BackoffPolicy;
  timeouts: TimeoutPolicy;
  retryRateLimited: boolean;
  random: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  stats: ClientStats;
  /** GET /models, at most once per model (undefined when it fails). */
  availableModels: () => Promise<string[] | undefined>;
  onRetry?: (event: RetryEvent) => void;
  onBudgetSpent?: (message: string) => void;
}

class AttemptTimeout extends Error {}

/** Attempts a body that is not a completion gets while the endpoint has never answered a call properly. */
const UNPROVEN_BODY_ATTEMPTS = 2;

/** One route of one endpoint: generate() with retries. Each route keeps its own canary and fatal state. */
export function createRetryLoop(
  wire: WireFormat,
  s: RetryLoopSettings,
): (request: ModelRequest, signal?: AbortSignal) => Promise<ModelResponse> {
  const { endpoint, stats } = s;
  // What this route has shown so far. Until one call has come back as a completion (proven), calls go one at a time
  // (the first call is a canary), so a dead route costs one call, not one per sample in flight.
  let proven = false;
  /** Some attempt got an HTTP answer of any kind (not only timeouts and connection failures). */
  let answered = false;
  /** Calls may go out concurrently: proven, or the canary failed for a reason that is not the endpoint's fault. */
  let open = false;
  let canary: Promise<void> | undefined;
  /** The first fatal error: every later call fails with it at once, without being sent. */
  let fatal: EndpointCallError | undefined;

  /** 404/405 (and 400s naming the model): say whether the model name or the URL is wrong, in the server's words. */
  async function explainMissingRoute(f: Failure, said: string): Promise<Failure> {
    const listed = await s.availableModels();
    const message = explainMissing(endpoint, s.modelName, f.error.status ?? 404, said, listed, wire.route);
    return { ...f, error: new ModelCallError(message, 'fatal', f.error.status) };
  }

  async function attempt(request: ModelRequest, timeoutMs: number, signal?: AbortSignal): Promise<ModelResponse> {
    const body = wire.body(request);
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
      // The SDK timeout is a backstop; ours also covers reading the body.
      const res = await wire.send(s.client, body, {
        signal: attemptCtrl.signal,
        timeout: timeoutMs + 5_000,
        maxRetries: 0,
      });
      answered = true;
      const { text, usage, finishReason } = wire.read(await res.text());
      return { text, usage, latencyMs: performance.now() - started, finishReason, cached: false, retries: 0 };
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
    const timeoutMs = attemptTimeoutMs(s.timeouts, wire.promptChars(request), request.params.maxTokens);
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
          hadApiKey: s.hadApiKey,
          nowMs: Date.now(),
          modelName: s.modelName,
          route: wire.route,
          answer: wire.answer,
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
        else if (why.includes('budget')) s.onBudgetSpent?.(message);
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
      if (error.kind === 'rate-limited' && !s.retryRateLimited) giveUp('429 retries are off');
      if (n > s.maxRetries) giveUp(`gave up after ${n} attempts`);
      const delayMs = retryDelayMs(s.backoff, n - 1, s.random, error.retryAfterMs);
      const elapsed = performance.now() - started;
      if (elapsed + delayMs > s.totalRetryBudgetMs)
        giveUp(`gave up after ${n} attempts: retry time budget of ${formatSeconds(s.totalRetryBudgetMs)} s spent`);
      stats.retries++;
      stats.retriesByReason[failure.reason] = (stats.retriesByReason[failure.reason] ?? 0) + 1;
      s.onRetry?.({
        attempt: n,
        kind: error.kind,
        reason: failure.reason,
        status: error.status,
        retryAfterMs: error.retryAfterMs,
        delayMs,
        message: error.message,
      });
      await s.sleep(delayMs, signal);
    }
  }

  return async function generate(request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse> {
    signal?.throwIfAborted();
    // Until the route has shown it serves completions, wait for the call in flight (the canary) to end.
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
