// Retry and timeout policy for HTTP model calls: pure functions, documented defaults.
import { mulberry32 } from '../../util/prng.js';

/**
 * Per-attempt timeout = baseMs + perPromptCharMs × prompt characters + perMaxTokenMs × max_tokens, capped at maxMs.
 * Defaults assume a slow server: prefill ≥ 20,000 chars/s (~5,000 tokens/s) and decode ≥ 20 tokens/s, so a
 * 5K-token MemAgent step with 1,024 new tokens gets 60 + 1 + 51 ≈ 112 s and a 1M-token prompt ≈ 60 + 200 + 51 s.
 */
export interface TimeoutPolicy {
  baseMs: number;
  perPromptCharMs: number;
  perMaxTokenMs: number;
  maxMs: number;
}

export const DEFAULT_TIMEOUT_POLICY: TimeoutPolicy = {
  baseMs: 60_000,
  perPromptCharMs: 0.05,
  perMaxTokenMs: 50,
  maxMs: 60 * 60_000,
};

export function attemptTimeoutMs(policy: TimeoutPolicy, promptChars: number, maxTokens: number): number {
  return Math.min(
    policy.maxMs,
    Math.round(policy.baseMs + policy.perPromptCharMs * promptChars + policy.perMaxTokenMs * maxTokens),
  );
}

/** Exponential backoff with full jitter: uniform in [0, min(maxMs, baseMs × 2^retryIndex)). */
export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 500, maxMs: 30_000 };

export function backoffDelayMs(policy: BackoffPolicy, retryIndex: number, random: () => number): number {
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.min(retryIndex, 30));
  return Math.floor(random() * ceiling);
}

/** Delay before the next attempt: never shorter than the server's Retry-After. */
export function retryDelayMs(
  policy: BackoffPolicy,
  retryIndex: number,
  random: () => number,
  retryAfterMs?: number,
): number {
  const jittered = backoffDelayMs(policy, retryIndex, random);
  return retryAfterMs === undefined ? jittered : Math.max(Math.ceil(retryAfterMs), jittered);
}

/** Small seeded PRNG for jitter; timing only, never results. */
export const seededRandom = mulberry32;

/** setTimeout as a promise that rejects with the signal's reason when aborted. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal!.reason);
    };
    const t = setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Seconds for messages: "0.2", "1.5", "90". */
export function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return s < 10 ? String(Math.round(s * 10) / 10) : String(Math.round(s));
}
