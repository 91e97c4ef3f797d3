// Turns whatever one HTTP attempt threw into a classified ModelCallError plus a short reason for retry statistics.
import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import { ModelCallError, errorMessage } from '../../errors.js';
import { formatSeconds } from './policy.js';

export interface Failure {
  error: ModelCallError;
  /** Short tag for statistics: "http-503", "connection", "timeout", "malformed-body", ... */
  reason: string;
  retryable: boolean;
}

/** Statuses worth another attempt (besides connection errors, timeouts and malformed bodies). */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** Texts servers use for a prompt over the context window (OpenAI, vLLM, SGLang, TGI, llama.cpp, Anthropic-style proxies). */
const CONTEXT_LENGTH_RE =
  /maximum context length|context[_ ]length[_ ]exceeded|context length|context window|prompt is too long|too many tokens|exceeds? the (?:model'?s? )?(?:maximum|max)|input.*tokens.*must be <=|reduce the length/i;

export function isContextLengthMessage(text: string): boolean {
  return CONTEXT_LENGTH_RE.test(text);
}

/** Retry-After in ms from headers: retry-after-ms, then Retry-After as seconds or an HTTP date. */
export function parseRetryAfter(headers: Headers | undefined, nowMs: number): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms)) && Number(ms) >= 0) return Number(ms);
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/** The errno-style code deepest in an error's cause chain (ECONNREFUSED, ENOTFOUND, UND_ERR_SOCKET, ...). */
export function causeCode(err: unknown): string | undefined {
  let code: string | undefined;
  let e: unknown = err;
  for (let depth = 0; e && typeof e === 'object' && depth < 8; depth++) {
    const c = (e as { code?: unknown }).code;
    if (typeof c === 'string') code = c;
    e = (e as { cause?: unknown }).cause;
  }
  return code;
}

const CODE_TEXT: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'DNS lookup failed',
  ETIMEDOUT: 'connect timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EPIPE: 'connection closed while sending',
  UND_ERR_SOCKET: 'connection closed by the server',
  UND_ERR_CONNECT_TIMEOUT: 'connect timed out',
  UND_ERR_HEADERS_TIMEOUT: 'no response headers in time',
  UND_ERR_BODY_TIMEOUT: 'response body stalled',
};

export function connectionText(err: unknown): string {
  const code = causeCode(err);
  return code ? (CODE_TEXT[code] ?? code) : 'connection failed';
}

export interface ClassifyContext {
  /** Endpoint as shown to users (base URL). */
  endpoint: string;
  /** Our own attempt timer fired. */
  timedOut: boolean;
  timeoutMs: number;
  hadApiKey: boolean;
  nowMs: number;
}

function apiMessage(err: APIError): string {
  // err.message is "<status> <server message>"; keep just the server's part, one line, bounded.
  const text = err.message.replace(/^\d{3}\s+/, '').replace(/\s+/g, ' ').trim();
  return text.length > 300 ? text.slice(0, 300) + '…' : text;
}

export function authMessage(endpoint: string, status: number, hadApiKey: boolean): string {
  return hadApiKey
    ? `endpoint ${endpoint} rejected the API key (HTTP ${status}): set the variable named by --api-key-env to a valid key`
    : `endpoint ${endpoint} requires an API key (HTTP ${status}): pass --api-key-env with the name of a variable holding it`;
}

/**
 * Classifies one failed attempt. 404s come back as permanent with a generic text; the client replaces it with
 * "model 'x' not found ... available: ..." after listing the endpoint's models.
 */
export function classifyFailure(err: unknown, ctx: ClassifyContext): Failure {
  const { endpoint } = ctx;
  if (ctx.timedOut || err instanceof APIConnectionTimeoutError) {
    return {
      error: new ModelCallError(`endpoint ${endpoint} gave no complete answer within ${formatSeconds(ctx.timeoutMs)} s`, 'timeout'),
      reason: 'timeout',
      retryable: true,
    };
  }
  if (err instanceof APIConnectionError) {
    const what = connectionText(err);
    return { error: new ModelCallError(`cannot reach ${endpoint} (${what})`, 'transient'), reason: 'connection', retryable: true };
  }
  if (err instanceof APIError && typeof err.status === 'number') {
    const status = err.status;
    const text = apiMessage(err);
    const retryAfterMs = parseRetryAfter(err.headers, ctx.nowMs);
    if ((status === 400 || status === 413 || status === 422) && isContextLengthMessage(text)) {
      return {
        error: new ModelCallError(`prompt too long for ${endpoint}: ${text}`, 'context-length', status),
        reason: 'context-length',
        retryable: false,
      };
    }
    if (status === 401 || status === 403) {
      return { error: new ModelCallError(authMessage(endpoint, status, ctx.hadApiKey), 'permanent', status), reason: `http-${status}`, retryable: false };
    }
    if (status === 429) {
      return {
        error: new ModelCallError(`endpoint ${endpoint} is rate limiting (HTTP 429): ${text}`, 'rate-limited', status, retryAfterMs),
        reason: 'http-429',
        retryable: true,
      };
    }
    if (isRetryableStatus(status)) {
      return {
        error: new ModelCallError(`endpoint ${endpoint} failed (HTTP ${status}): ${text}`, 'transient', status, retryAfterMs),
        reason: `http-${status}`,
        retryable: true,
      };
    }
    return {
      error: new ModelCallError(`endpoint ${endpoint} refused the request (HTTP ${status}): ${text}`, 'permanent', status),
      reason: `http-${status}`,
      retryable: false,
    };
  }
  if (err instanceof SyntaxError || (err instanceof Error && err.name === 'MalformedResponse')) {
    return {
      error: new ModelCallError(`endpoint ${endpoint} sent a malformed response (${errorMessage(err).slice(0, 120)})`, 'transient'),
      reason: 'malformed-body',
      retryable: true,
    };
  }
  // A body that broke off mid-read surfaces as a plain TypeError/Error from fetch with a socket cause.
  if (causeCode(err)) {
    return { error: new ModelCallError(`lost the connection to ${endpoint} (${connectionText(err)})`, 'transient'), reason: 'connection', retryable: true };
  }
  return { error: new ModelCallError(`call to ${endpoint} failed: ${errorMessage(err)}`, 'permanent'), reason: 'other', retryable: false };
}
