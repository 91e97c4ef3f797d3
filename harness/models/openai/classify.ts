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
  /** The model name sent (--model-name), for 404 messages. */
  modelName?: string;
  /** The route called and what a good answer from it is (default: /chat/completions, a chat completion). */
  route?: string;
  answer?: string;
}

/** True when a body is an HTML (or XML) page rather than an API answer. */
export function looksLikeHtml(text: string): boolean {
  return /^\s*<(?:!doctype|html|head|body|\?xml|!--|[a-z][a-z0-9]*[\s>])/i.test(text);
}

/**
 * A server's text as quoted in a one-line message: whitespace collapsed, bounded; an HTML page is summarised as
 * "an HTML page" with its title, never echoed.
 */
export function serverWords(text: string, max = 200): string {
  if (looksLikeHtml(text)) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1]?.replace(/\s+/g, ' ').trim();
    return title ? `an HTML page titled "${title.slice(0, 80)}"` : 'an HTML page';
  }
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > max ? one.slice(0, max) + '…' : one;
}

/** The server's own words in an SDK APIError ("<status> <message>"), or '' when it sent none. */
export function apiMessage(err: APIError): string {
  const text = err.message.replace(/^\d{3}\s+/, '');
  if (/^status code \(no body\)$/i.test(text.trim())) return '';
  return serverWords(text, 300);
}

/** "(HTTP 401)" or "(HTTP 401: <server's words>)". */
function httpTag(status: number, said: string): string {
  return said ? `(HTTP ${status}: ${said})` : `(HTTP ${status})`;
}

export function authMessage(endpoint: string, status: number, hadApiKey: boolean, said = ''): string {
  const tag = httpTag(status, said);
  if (status === 403) {
    return hadApiKey
      ? `endpoint ${endpoint} refused access ${tag}: check that the key in the variable named by --api-key-env may use this model`
      : `endpoint ${endpoint} refused access ${tag}: if it needs an API key, pass --api-key-env with the name of a variable holding it`;
  }
  return hadApiKey
    ? `endpoint ${endpoint} rejected the API key ${tag}: set the variable named by --api-key-env to a valid key`
    : `endpoint ${endpoint} requires an API key ${tag}: pass --api-key-env with the name of a variable holding it`;
}

/** Texts servers use when the requested model is not served (vLLM, OpenAI, Ollama, LiteLLM, TGI, ...). */
const MODEL_MISSING_RE =
  /\bmodel\b.{0,120}?\b(?:does not exist|doesn'?t exist|not (?:be )?found|not exist|not available|not served|is not loaded|no access)|\b(?:unknown|invalid|no such|unsupported) model\b/i;

export function isModelMissingMessage(text: string): boolean {
  return MODEL_MISSING_RE.test(text);
}

/**
 * A 404/405 from POST <route> (default /chat/completions): the model name is wrong (the server says so, or GET
 * /models does not list it), or the route itself is missing (wrong base URL). Both are fatal for the run.
 */
export function explainMissing(
  endpoint: string,
  modelName: string,
  status: number,
  said: string,
  listed?: string[],
  route = '/chat/completions',
): string {
  const modelMissing = isModelMissingMessage(said) || (listed !== undefined && !listed.includes(modelName));
  if (modelMissing) {
    const names =
      listed && listed.length > 0
        ? ` (GET /models lists: ${listed.slice(0, 20).join(', ')}${listed.length > 20 ? ', …' : ''})`
        : '';
    return `endpoint ${endpoint} does not serve model '${modelName}' ${httpTag(status, said)}: check --model-name${names}`;
  }
  return `endpoint ${endpoint} has no POST ${route} route ${httpTag(status, said)}: check the base URL given to --model (it usually ends in /v1)`;
}

/** A 200 answer whose body is not a completion (HTML page, plain text, JSON without choices). */
export class NotACompletion extends Error {
  /** `serverError`: the server's own words when the body is an error object (an out-of-memory message, ...). */
  constructor(
    readonly what: string,
    readonly serverError?: string,
  ) {
    super(what);
    this.name = 'NotACompletion';
  }
}

/**
 * Classifies one failed attempt. 401/403/404/405 are fatal for the run; 404s and 405s come back with a provisional
 * text that the client replaces (explainMissing) after listing the endpoint's models. A body that is not a
 * completion (or an error inside a 200 body) is retryable here; the client makes it fatal when the endpoint has never
 * answered a call properly (the run-level rule in retry-loop.ts).
 */
export function classifyFailure(err: unknown, ctx: ClassifyContext): Failure {
  const { endpoint } = ctx;
  const route = ctx.route ?? '/chat/completions';
  if (ctx.timedOut || err instanceof APIConnectionTimeoutError) {
    return {
      error: new ModelCallError(
        `endpoint ${endpoint} gave no complete answer within ${formatSeconds(ctx.timeoutMs)} s`,
        'timeout',
      ),
      reason: 'timeout',
      retryable: true,
    };
  }
  if (err instanceof APIConnectionError) {
    const what = connectionText(err);
    return {
      error: new ModelCallError(`cannot reach ${endpoint} (${what})`, 'transient'),
      reason: 'connection',
      retryable: true,
    };
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
      return {
        error: new ModelCallError(authMessage(endpoint, status, ctx.hadApiKey, text), 'fatal', status),
        reason: `http-${status}`,
        retryable: false,
      };
    }
    if (status === 404 || status === 405 || ((status === 400 || status === 422) && isModelMissingMessage(text))) {
      return {
        error: new ModelCallError(
          explainMissing(endpoint, ctx.modelName ?? '(unknown)', status, text, undefined, route),
          'fatal',
          status,
        ),
        reason: `http-${status}`,
        retryable: false,
      };
    }
    if (status === 429) {
      return {
        error: new ModelCallError(
          `endpoint ${endpoint} is rate limiting (HTTP 429): ${text}`,
          'rate-limited',
          status,
          retryAfterMs,
        ),
        reason: 'http-429',
        retryable: true,
      };
    }
    if (isRetryableStatus(status)) {
      return {
        error: new ModelCallError(
          `endpoint ${endpoint} failed (HTTP ${status}): ${text}`,
          'transient',
          status,
          retryAfterMs,
        ),
        reason: `http-${status}`,
        retryable: true,
      };
    }
    return {
      error: new ModelCallError(
        `endpoint ${endpoint} refused the request (HTTP ${status}): ${text}`,
        'permanent',
        status,
      ),
      reason: `http-${status}`,
      retryable: false,
    };
  }
  if (err instanceof NotACompletion && err.serverError !== undefined) {
    // The server is there and answering, but reports a failure: quote it (no "check the base URL").
    return {
      error: new ModelCallError(
        `endpoint ${endpoint} answered POST ${route} with an error inside a 200 body: "${err.serverError}"`,
        'transient',
      ),
      reason: 'error-body',
      retryable: true,
    };
  }
  if (err instanceof NotACompletion) {
    return {
      error: new ModelCallError(
        `endpoint ${endpoint} answered POST ${route} with ${err.what}, not ${ctx.answer ?? 'a chat completion'}`,
        'transient',
      ),
      reason: 'not-a-completion',
      retryable: true,
    };
  }
  if (err instanceof SyntaxError || (err instanceof Error && err.name === 'MalformedResponse')) {
    return {
      error: new ModelCallError(
        `endpoint ${endpoint} sent a malformed response (${errorMessage(err).slice(0, 120)})`,
        'transient',
      ),
      reason: 'malformed-body',
      retryable: true,
    };
  }
  // A body that broke off mid-read surfaces as a plain TypeError/Error from fetch with a socket cause.
  if (causeCode(err)) {
    return {
      error: new ModelCallError(`lost the connection to ${endpoint} (${connectionText(err)})`, 'transient'),
      reason: 'connection',
      retryable: true,
    };
  }
  return {
    error: new ModelCallError(`call to ${endpoint} failed: ${errorMessage(err)}`, 'permanent'),
    reason: 'other',
    retryable: false,
  };
}
