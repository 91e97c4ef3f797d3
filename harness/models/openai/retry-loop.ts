// The bounded, classified retry loop every OpenAI route shares: attempt timeouts, backoff, classification, the
// turns of an unproven endpoint, the run-level rule for endpoints failing every call and the run-wide fatal error.
// What goes over the wire is the WireFormat's.
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
  /** The endpoint's run of failed calls, shared by its routes (see endpointHealth). Default: one per route. */
  health?: EndpointHealth;
}

/**
 * How an endpoint has been doing across every sample of the run, shared by its routes: calls that succeeded, and the
 * calls that have failed in a row since the last answer (a context-length rejection counts as an answer).
 */
export interface EndpointHealth {
  succeeded: number;
  failedInARow: number;
}

export function endpointHealth(): EndpointHealth {
  return { succeeded: 0, failedInARow: 0 };
}

class AttemptTimeout extends Error {}

/**
 * The run-level rule for an endpoint that fails every call in a way no single answer marks as fatal (5xx forever, a
 * body cut off or malformed, a 4xx other than 401/403/404, resets before the headers, an error inside a 200 body):
 *
 * - while no call to a route has succeeded, its attempts go one at a time, taking turns between the calls waiting,
 *   and UNPROVEN_SAME_FAILURES calls failing the same way (same status, or same kind of broken answer) stop the run,
 *   exit 2, with the server's own words; so do that many attempts of a call that is alone (nothing else waits), and
 *   UNPROVEN_BODY_ATTEMPTS answers that are not a completion at all (an HTML page, plain text). A call failing for
 *   its own prompt thus lets the others go. Timeouts keep their retry time budget (a cold server may be slow) and
 *   429s their retries (the server says when to come back);
 * - once calls have succeeded, FAILED_CALLS_IN_A_ROW calls failing one after another (each after all its retries),
 *   across samples, with no answer between them, stop the run the same way: finished samples stay saved, those cut
 *   off are not recorded, and the same command (with --retry-errors, for the failed ones) resumes.
 */
export const UNPROVEN_SAME_FAILURES = 3;
const UNPROVEN_BODY_ATTEMPTS = 2;
export const FAILED_CALLS_IN_A_ROW = 8;

/** What to do about a route that failed its first attempts the same way, by the failure's reason. */
function unprovenAdvice(reason: string): string {
  if (reason === 'connection') return 'check that the server is up and see its log';
  if (reason === 'malformed-body') return 'the server (or a proxy in front of it) sends broken answers: see its log';
  if (reason === 'error-body') return 'the server reports an error, not a wrong address: see its log, then run again';
  if (/^http-5\d\d$/.test(reason)) return 'the server is failing: see its log, and run again once it answers';
  return 'the server refuses these requests: fix what it names, then run again';
}

/** "2099-10-21T07:28:00Z". */
function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** One route of one endpoint: generate() with retries. Each route keeps its own turns, streak and fatal state. */
export function createRetryLoop(
  wire: WireFormat,
  s: RetryLoopSettings,
): (request: ModelRequest, signal?: AbortSignal) => Promise<ModelResponse> {
  const { endpoint, stats } = s;
  const health = s.health ?? endpointHealth();
  /** Failed attempts in a row of this unproven route, all failing the same way (`way`: the failure's reason), and
   *  the calls they came from. */
  let streak = { way: '', attempts: 0, calls: new Set<number>() };
  let callIds = 0;
  // What this route has shown so far. Until one call has come back as a completion (proven), attempts go one at a
  // time (turns), so a dead route costs a few attempts, not one per sample in flight.
  let proven = false;
  /** Some attempt got an HTTP answer of any kind (not only timeouts and connection failures). */
  let answered = false;
  /** Attempts may go out concurrently: proven, or a call gave up for a reason the rule does not count (timeouts).
   *  Set through openRoute(), which also releases the calls already waiting for a turn. */
  let open = false;
  let releaseWaiting!: () => void;
  const opened = new Promise<void>((resolve) => (releaseWaiting = resolve));
  function openRoute(): void {
    open = true;
    releaseWaiting();
  }
  /** The end of the last turn taken, and how many calls wait for one. */
  let lastTurn: Promise<void> = Promise.resolve();
  let waitingTurns = 0;

  /** Waits for the attempts before this one to end; resolves with the function that ends this turn. */
  async function takeTurn(signal?: AbortSignal): Promise<() => void> {
    const before = lastTurn;
    let end!: () => void;
    lastTurn = new Promise<void>((resolve) => (end = resolve));
    waitingTurns++;
    try {
      // Once the route opens, the calls queued for turns go out together instead of one after another.
      await waitFor(Promise.race([before, opened]), signal);
    } catch (err) {
      void before.then(end); // interrupted: the turn passes on once the one before it ends
      throw err;
    } finally {
      waitingTurns--;
    }
    return end;
  }
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
      const { text, usage, finishReason, reasoning, reasoningTokens } = wire.read(await res.text());
      return {
        text,
        usage,
        latencyMs: performance.now() - started,
        finishReason,
        cached: false,
        retries: 0,
        ...(reasoning !== undefined ? { reasoning } : {}),
        ...(reasoningTokens !== undefined ? { reasoningTokens } : {}),
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
    const id = callIds++;
    const started = performance.now();
    const timeoutMs = attemptTimeoutMs(s.timeouts, wire.promptChars(request), request.params.maxTokens);
    for (let n = 1; ; n++) {
      signal?.throwIfAborted();
      if (fatal) throw notSent(fatal);
      const endTurn = open ? undefined : await takeTurn(signal);
      let delayMs = 0;
      try {
        if (fatal) throw notSent(fatal);
        stats.attempts++;
        let failure: Failure;
        let nowMs = Date.now();
        try {
          const res = await attempt(request, timeoutMs, signal);
          proven = true;
          openRoute();
          streak = { way: '', attempts: 0, calls: new Set() };
          health.succeeded++;
          health.failedInARow = 0;
          stats.succeeded++;
          stats.promptTokens += res.usage.promptTokens;
          stats.completionTokens += res.usage.completionTokens;
          return { ...res, latencyMs: performance.now() - started, retries: n - 1 };
        } catch (err) {
          if (signal?.aborted) throw signal.reason;
          const timedOut = err instanceof AttemptTimeout;
          nowMs = Date.now();
          failure = classifyFailure(err, {
            endpoint,
            timedOut,
            timeoutMs,
            hadApiKey: s.hadApiKey,
            nowMs,
            modelName: s.modelName,
            route: wire.route,
            answer: wire.answer,
          });
          if (failure.reason !== 'timeout' && failure.reason !== 'connection') answered = true;
          // A context-length rejection shows that the route and the model are right.
          if (failure.error.kind === 'context-length') {
            proven = true;
            openRoute();
            health.failedInARow = 0;
          }
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
        const fail = (e: EndpointCallError): never => {
          stats.failed++;
          stats.failuresByKind[e.kind] = (stats.failuresByKind[e.kind] ?? 0) + 1;
          if (e.kind === 'fatal') fatal ??= e;
          throw e;
        };
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
          if (kind !== 'fatal' && kind !== 'context-length' && ++health.failedInARow >= FAILED_CALLS_IN_A_ROW) {
            // The run-level rule, after successes: a long run of failed calls across samples stops the run.
            kind = 'fatal';
            const before = health.succeeded > 0 ? `after ${health.succeeded} had succeeded` : 'and none has succeeded';
            message += `; ${health.failedInARow} calls in a row have failed, ${before}: the server seems to be down or failing every call (see its log)`;
          }
          if (kind !== 'fatal' && why.includes('budget')) s.onBudgetSpent?.(message);
          // A call given up for a reason the rule does not count (timeouts, 429s) lets the other calls go at once.
          if (kind !== 'fatal' && !counted) openRoute();
          return fail(new EndpointCallError(message, kind, n, error.status, error.retryAfterMs));
        };
        // The run-level rule, before any success: a route's first calls failing the same way stop the run.
        const counted =
          !proven &&
          error.kind !== 'fatal' &&
          error.kind !== 'context-length' &&
          error.kind !== 'rate-limited' &&
          failure.reason !== 'timeout' &&
          failure.reason !== 'other';
        if (counted) {
          if (streak.way !== failure.reason) streak = { way: failure.reason, attempts: 0, calls: new Set() };
          streak.attempts++;
          streak.calls.add(id);
          const alone = waitingTurns === 0 && failure.retryable;
          if (failure.reason === 'not-a-completion' && streak.attempts >= UNPROVEN_BODY_ATTEMPTS) {
            fail(
              new EndpointCallError(
                `${error.message} (${streak.attempts} attempts): check that --model is the base URL of an OpenAI-compatible API (it usually ends in /v1)`,
                'fatal',
                n,
              ),
            );
          }
          if (streak.calls.size >= UNPROVEN_SAME_FAILURES || (alone && streak.attempts >= UNPROVEN_SAME_FAILURES)) {
            const tried =
              streak.calls.size > 1
                ? `${streak.calls.size} calls, ${streak.attempts} attempts`
                : `${streak.attempts} attempts`;
            fail(
              new EndpointCallError(
                `${error.message} (${tried}, no call has succeeded yet): ${unprovenAdvice(failure.reason)}`,
                'fatal',
                n,
                error.status,
              ),
            );
          }
        }
        if (!failure.retryable) giveUp('');
        if (error.kind === 'rate-limited' && !s.retryRateLimited) giveUp('429 retries are off');
        if (error.retryAfterMs !== undefined && error.retryAfterMs > s.totalRetryBudgetMs) {
          // A wait longer than the whole retry budget: no call can succeed before then, so the run stops.
          fail(
            new EndpointCallError(
              `${error.message}; the server asks to wait until ${isoSeconds(nowMs + error.retryAfterMs)} (Retry-After), longer than a call's retry time budget of ${formatSeconds(s.totalRetryBudgetMs)} s: run the same command again after that time`,
              'fatal',
              n,
              error.status,
              error.retryAfterMs,
            ),
          );
        }
        if (n > s.maxRetries) giveUp(`gave up after ${n} attempts`);
        delayMs = retryDelayMs(s.backoff, n - 1, s.random, error.retryAfterMs);
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
      } finally {
        endTurn?.();
      }
      await s.sleep(delayMs, signal);
    }
  }

  return async function generate(request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse> {
    signal?.throwIfAborted();
    if (fatal) throw notSent(fatal);
    return call(request, signal);
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
