// A line on stderr while calls are out and none comes back: without it a run against a stuck server is silent (in
// CI logs, where there is no progress bar, for minutes).
import type { Model, ModelRequest, ModelResponse } from '../types.js';
import { formatSeconds } from './openai/policy.js';

export interface WaitingNoticeOptions {
  /** Print when no call has finished (and nothing was printed) for this long. Default 30 s. */
  quietMs?: number;
  /** How often to look. Default 5 s. */
  tickMs?: number;
  /** Clock (tests). Default performance.now. */
  now?: () => number;
}

/**
 * Wraps a model: while calls are outstanding and none has finished for `quietMs`, prints
 * "waiting on N calls to <where>: longest 45 s, none finished in the last 30 s" every `quietMs`. The timer does not
 * keep the process alive and runs only while calls are out.
 */
export function withWaitingNotice(
  model: Model,
  where: string,
  warn: (line: string) => void,
  options: WaitingNoticeOptions = {},
): Model {
  const quietMs = options.quietMs ?? 30_000;
  const tickMs = options.tickMs ?? Math.min(5_000, quietMs);
  const now = options.now ?? (() => performance.now());
  const started = new Map<number, number>();
  let nextId = 0;
  let lastEvent = now();
  let lastFinish = lastEvent;
  let timer: ReturnType<typeof setInterval> | undefined;

  function tick(): void {
    if (started.size === 0) return;
    const t = now();
    if (t - lastEvent < quietMs) return;
    let oldest = t;
    for (const s of started.values()) oldest = Math.min(oldest, s);
    const n = started.size;
    warn(
      `waiting on ${n} call${n === 1 ? '' : 's'} to ${where}: longest ${formatSeconds(t - oldest)} s, none finished in the last ${formatSeconds(t - lastFinish)} s`,
    );
    lastEvent = t;
  }

  return {
    ...model,
    async generate(request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse> {
      const id = nextId++;
      if (started.size === 0) lastEvent = Math.max(lastEvent, now());
      started.set(id, now());
      if (!timer) {
        timer = setInterval(tick, tickMs);
        timer.unref?.();
      }
      try {
        return await model.generate(request, signal);
      } finally {
        started.delete(id);
        lastFinish = lastEvent = now();
        if (started.size === 0 && timer) {
          clearInterval(timer);
          timer = undefined;
        }
      }
    },
    async close() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await model.close?.();
    },
  };
}
