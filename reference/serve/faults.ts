// Fault injection for `bench serve`: which fault (if any) a request gets, decided by a hash so a run replays exactly.
import { createHash } from 'node:crypto';
import { UserError } from '../../harness/errors.js';

export type FaultKind = 'none' | '5xx' | '429' | 'reset' | 'malformed' | 'hang';

export interface FaultConfig {
  /** Fixed delay before every answer (ms). */
  latencyMs: number;
  /** Extra delay per prompt token (ms), so long prompts answer slower like a real prefill. */
  latencyPerTokenMs: number;
  /** Probabilities per attempt, each in [0, 1]; their sum must be <= 1. */
  fail5xx: number;
  fail429: number;
  failReset: number;
  failMalformed: number;
  failHang: number;
  /** Seconds sent in Retry-After with a 429 (may be fractional; the header carries the ceiling, retry-after-ms the exact value). */
  retryAfterS: number;
  seed: number;
}

export const NO_FAULTS: FaultConfig = {
  latencyMs: 0,
  latencyPerTokenMs: 0,
  fail5xx: 0,
  fail429: 0,
  failReset: 0,
  failMalformed: 0,
  failHang: 0,
  retryAfterS: 1,
  seed: 0,
};

/** Raw flag values (strings as typed by the user, or numbers), keyed like the FaultConfig fields. */
export type FaultSpec = Partial<Record<keyof FaultConfig, string | number | undefined>>;

const FLAG_OF: Record<keyof FaultConfig, string> = {
  latencyMs: '--latency-ms',
  latencyPerTokenMs: '--latency-per-token-ms',
  fail5xx: '--fail-5xx',
  fail429: '--fail-429',
  failReset: '--fail-reset',
  failMalformed: '--fail-malformed',
  failHang: '--fail-hang',
  retryAfterS: '--retry-after',
  seed: '--seed',
};

const RATE_KEYS = ['fail5xx', 'fail429', 'failReset', 'failMalformed', 'failHang'] as const;

/** Validates fault flags into a FaultConfig. Rates accept "0.1" or "10%". Throws UserError naming the bad flag. */
export function parseFaultSpec(spec: FaultSpec): FaultConfig {
  const out: FaultConfig = { ...NO_FAULTS };
  for (const key of Object.keys(FLAG_OF) as (keyof FaultConfig)[]) {
    const raw = spec[key];
    if (raw === undefined || raw === '') continue;
    const flag = FLAG_OF[key];
    const text = String(raw).trim();
    const isRate = (RATE_KEYS as readonly string[]).includes(key);
    const pct = isRate && text.endsWith('%');
    const value = Number(pct ? text.slice(0, -1) : text) / (pct ? 100 : 1);
    if (!Number.isFinite(value) || text === '') throw new UserError(`${flag} expects a number, got '${text}'`);
    if (isRate && (value < 0 || value > 1))
      throw new UserError(`${flag} must be a rate between 0 and 1 (or 0%..100%), got '${text}'`);
    if (!isRate && value < 0) throw new UserError(`${flag} must not be negative, got '${text}'`);
    if (key === 'seed' && !Number.isInteger(value)) throw new UserError(`--seed must be an integer, got '${text}'`);
    out[key] = value;
  }
  const total = RATE_KEYS.reduce((s, k) => s + out[k], 0);
  if (total > 1 + 1e-9) {
    throw new UserError(
      `fault rates add up to ${total.toFixed(3)}, more than 1: lower --fail-5xx/--fail-429/--fail-reset/--fail-malformed/--fail-hang`,
    );
  }
  return out;
}

export function hashBody(body: Uint8Array | string): string {
  return createHash('sha256').update(body).digest('hex');
}

/** Uniform number in [0, 1) from (seed, body hash, attempt), via the first 48 bits of a sha256. */
export function faultDraw(seed: number, bodyHash: string, attempt: number): number {
  const h = createHash('sha256').update(`${seed}:${bodyHash}:${attempt}`).digest();
  return h.readUIntBE(0, 6) / 2 ** 48;
}

/** Maps one draw onto the fault bands, in a fixed order: 5xx, 429, reset, malformed, hang, none. */
export function chooseFault(config: FaultConfig, draw: number): FaultKind {
  let edge = 0;
  const bands: [FaultKind, number][] = [
    ['5xx', config.fail5xx],
    ['429', config.fail429],
    ['reset', config.failReset],
    ['malformed', config.failMalformed],
    ['hang', config.failHang],
  ];
  for (const [kind, rate] of bands) {
    edge += rate;
    if (draw < edge) return kind;
  }
  return 'none';
}

/**
 * Decides faults for a stream of requests. The n-th attempt of an identical body gets draw (seed, body, n), so a
 * retried request can succeed and the same run replays the same faults. (Two identical bodies in flight at once
 * share the counter, so their order then decides which gets which draw.)
 */
export class FaultPlanner {
  private readonly attempts = new Map<string, number>();
  readonly counts: Record<FaultKind, number> = { none: 0, '5xx': 0, '429': 0, reset: 0, malformed: 0, hang: 0 };

  constructor(readonly config: FaultConfig) {}

  next(bodyHash: string): { kind: FaultKind; attempt: number } {
    const attempt = this.attempts.get(bodyHash) ?? 0;
    this.attempts.set(bodyHash, attempt + 1);
    const kind = chooseFault(this.config, faultDraw(this.config.seed, bodyHash, attempt));
    this.counts[kind]++;
    return { kind, attempt };
  }
}
