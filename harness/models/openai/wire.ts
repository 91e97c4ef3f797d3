// What a request builder (wire format) gives the shared retry loop: one OpenAI route, its request body and its answer.
import type OpenAI from 'openai';
import type { GenerationParams, ModelRequest, ReportedUsage } from '../../types.js';
import { NotACompletion, looksLikeHtml, serverWords } from './classify.js';

/** The part of a 200 answer the harness keeps. */
export interface WireAnswer {
  text: string;
  /** Checked (usageOf): counts the server left out or sent as something other than a whole number ≥ 0 are 0 and named. */
  usage: ReportedUsage;
  finishReason: string;
  /** reasoning_content (or reasoning) of a chat answer, when the server split the thinking off. */
  reasoning?: string;
  /** usage.completion_tokens_details.reasoning_tokens, when a whole number. */
  reasoningTokens?: number;
}

/** Per-attempt settings of one HTTP call, passed to the SDK. */
export interface SendOptions {
  signal: AbortSignal;
  timeout: number;
  maxRetries: 0;
}

/**
 * One OpenAI-compatible route: how a ModelRequest becomes its request body and how its 200 body becomes a WireAnswer.
 * Retries, timeouts and error classification are not here (call-loop.ts): they are the same for every route.
 */
export interface WireFormat {
  /** The route as named in messages, e.g. "/chat/completions". */
  readonly route: string;
  /** What a good 200 body is, as named in messages, e.g. "a chat completion". */
  readonly answer: string;
  /** Characters the attempt timeout grows with. */
  promptChars(request: ModelRequest): number;
  body(request: ModelRequest): Record<string, unknown>;
  /** POSTs the body; resolves with the raw response, so that the body is read and judged by us. */
  send(client: OpenAI, body: Record<string, unknown>, options: SendOptions): Promise<Response>;
  /** Throws NotACompletion (retried, fatal on an unproven endpoint), SyntaxError or MalformedResponse (retried). */
  read(text: string): WireAnswer;
}

/** Settings the request builders share. */
export interface WireSettings {
  modelName: string;
  /** Extra fields merged into every request body (e.g. { chat_template_kwargs: {...} }). */
  extraBody?: Record<string, unknown>;
  /** Chat only: send max_tokens (vLLM, SGLang, most servers) or max_completion_tokens (newer OpenAI models). */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
}

/** Sampling fields shared by both routes. */
export function samplingFields(params: GenerationParams, maxTokensField: string): Record<string, unknown> {
  return {
    [maxTokensField]: params.maxTokens,
    temperature: params.temperature,
    top_p: params.topP,
    ...(params.stop && params.stop.length > 0 ? { stop: params.stop } : {}),
  };
}

export function malformed(what: string): Error {
  const e = new Error(what);
  e.name = 'MalformedResponse';
  return e;
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export interface ChoicesBody {
  choices: Record<string, unknown>[];
  /** As the server sent it: checked by usageOf, never trusted. */
  usage?: unknown;
}

/**
 * The body of a 200 answer as JSON with a non-empty `choices` list. A JSON body cut short (a connection that broke
 * mid-answer) throws a SyntaxError (retried as a malformed body); anything else (an HTML page, plain text, JSON
 * without choices) throws NotACompletion naming what came back.
 */
export function parseChoices(text: string): ChoicesBody {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (err) {
    const t = text.trim();
    if (t.startsWith('{') || t.startsWith('[')) throw err;
    if (t === '') throw new NotACompletion('an empty body (HTTP 200)');
    if (looksLikeHtml(t)) throw new NotACompletion(`${serverWords(t)} (HTTP 200)`);
    throw new NotACompletion(`a body that is not JSON (HTTP 200: "${serverWords(t, 80)}")`);
  }
  if (!isRecord(body)) throw new NotACompletion('JSON that is not an object (HTTP 200)');
  const choices = body.choices;
  if (!Array.isArray(choices) || choices.length === 0) {
    const e = body.error;
    const said = isRecord(e) && typeof e.message === 'string' ? e.message : typeof e === 'string' ? e : undefined;
    if (said !== undefined)
      throw new NotACompletion(`an error inside a 200 body (${serverWords(said)})`, serverWords(said));
    throw new NotACompletion(
      Array.isArray(choices) ? 'an empty "choices" list (HTTP 200)' : 'JSON without "choices" (HTTP 200)',
    );
  }
  return body as unknown as ChoicesBody;
}

function shown(v: unknown): string {
  const s = typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v) ?? String(v));
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}

/**
 * The server's usage, checked: each of prompt_tokens and completion_tokens must be a whole number ≥ 0. One that is
 * missing or anything else ("many", -3, 2.5, "12") is 0 here, listed in `uncounted` and described in `problems`, so
 * it is never stored or summed as sent; the caller counts it with the run's tokenizer (harness/methods/call.ts).
 */
export function usageOf(usage: unknown): ReportedUsage {
  if (usage === undefined || usage === null) {
    return {
      promptTokens: 0,
      completionTokens: 0,
      problems: ['the server sent no usage'],
      uncounted: ['promptTokens', 'completionTokens'],
    };
  }
  if (!isRecord(usage)) {
    return {
      promptTokens: 0,
      completionTokens: 0,
      problems: [`usage ${shown(usage)} is not an object`],
      uncounted: ['promptTokens', 'completionTokens'],
    };
  }
  const out: ReportedUsage = { promptTokens: 0, completionTokens: 0 };
  const problems: string[] = [];
  const uncounted: Array<'promptTokens' | 'completionTokens'> = [];
  for (const [field, key] of [
    ['prompt_tokens', 'promptTokens'],
    ['completion_tokens', 'completionTokens'],
  ] as const) {
    const v = usage[field];
    if (typeof v === 'number' && Number.isInteger(v) && v >= 0) out[key] = v;
    else {
      problems.push(
        v === undefined || v === null ? `usage has no ${field}` : `usage.${field} ${shown(v)} is not a count`,
      );
      uncounted.push(key);
    }
  }
  return problems.length ? { ...out, problems, uncounted } : out;
}

/** Checked usage and the finish reason of the first choice ('unknown' when the server leaves it out). */
export function answerOf(body: ChoicesBody, text: string, reasoning?: string): WireAnswer {
  const reason = body.choices[0]?.finish_reason;
  const details = isRecord(body.usage) ? body.usage.completion_tokens_details : undefined;
  const counted = isRecord(details) ? details.reasoning_tokens : undefined;
  return {
    text,
    usage: usageOf(body.usage),
    finishReason: typeof reason === 'string' && reason !== '' ? reason : 'unknown',
    ...(reasoning !== undefined && reasoning !== '' ? { reasoning } : {}),
    ...(typeof counted === 'number' && Number.isInteger(counted) && counted > 0 ? { reasoningTokens: counted } : {}),
  };
}
