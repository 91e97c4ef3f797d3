// One GET /models at startup: turns "down / unreachable / bad key / wrong model / wrong URL" into one UserError line.
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { UserError, errorMessage } from '../../errors.js';
import { apiMessage, authMessage, connectionText, causeCode, looksLikeHtml, serverWords } from './classify.js';
import { displayURL, makeClient } from './client.js';
import { formatSeconds } from './policy.js';

export interface ProbeOptions {
  baseURL: string;
  modelName: string;
  apiKey?: string;
  /** Default 10 s. */
  timeoutMs?: number;
  headers?: Record<string, string>;
}

export interface ProbeResult {
  /** Model names the endpoint serves. */
  models: string[];
  /** The served model's context window when the server says (vLLM's max_model_len). */
  maxModelLen?: number;
}

/** Validates a base URL given by the user; returns it without a trailing slash. */
export function checkBaseURL(url: string, flag = '--model'): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UserError(`${flag} '${url}' is not a URL: give one like http://127.0.0.1:8000/v1`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new UserError(`${flag} '${url}' must start with http:// or https://`);
  }
  if (parsed.username || parsed.password) {
    throw new UserError(
      `${flag} must not carry credentials in the URL: put the key in a variable and pass --api-key-env`,
    );
  }
  return displayURL(url);
}

export async function probeEndpoint(options: ProbeOptions): Promise<ProbeResult> {
  const url = checkBaseURL(options.baseURL);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const client = makeClient({ baseURL: url, apiKey: options.apiKey, headers: options.headers });
  const hadApiKey = options.apiKey !== undefined && options.apiKey !== '';
  let text: string;
  try {
    // The raw body, so that an HTML page or other non-API answer is named instead of read as an empty model list.
    const res = await client.models
      .list({ timeout: timeoutMs, maxRetries: 0, signal: AbortSignal.timeout(timeoutMs + 1_000) })
      .asResponse();
    text = await res.text();
  } catch (err) {
    throw new UserError(probeMessage(err, url, timeoutMs, hadApiKey));
  }
  const data = modelList(text, url);
  const models = data.map((m) => m.id);
  const mine = data.find((m) => m.id === options.modelName);
  if (!mine) {
    throw new UserError(
      `model '${options.modelName}' not found at ${url}; available: ${models.join(', ') || '(none)'} (set --model-name)`,
    );
  }
  const len = mine.max_model_len;
  return { models, ...(typeof len === 'number' && len > 0 ? { maxModelLen: len } : {}) };
}

/** The `data` of a GET /models body; a UserError saying what came back instead (HTML page, plain text, other JSON). */
function modelList(text: string, url: string): { id: string; max_model_len?: unknown }[] {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    if (looksLikeHtml(text)) {
      throw new UserError(
        `${url} answered GET /models with ${serverWords(text)}, not an OpenAI-compatible API: point --model at the API's base URL (for vLLM, SGLang, llama.cpp and OpenAI it ends in /v1)`,
      );
    }
    const what = text.trim() === '' ? 'an empty body' : `a body that is not JSON ("${serverWords(text, 80)}")`;
    throw new UserError(
      `${url} answered GET /models with ${what}, not a model list: is it an OpenAI-compatible server? (the base URL usually ends in /v1)`,
    );
  }
  const data = typeof body === 'object' && body !== null ? (body as { data?: unknown }).data : undefined;
  if (!Array.isArray(data) || !data.every((m) => typeof (m as { id?: unknown } | null)?.id === 'string')) {
    throw new UserError(
      `${url} did not return a model list from GET /models (JSON without a "data" list of models): is it an OpenAI-compatible server?`,
    );
  }
  return data as { id: string; max_model_len?: unknown }[];
}

function probeMessage(err: unknown, url: string, timeoutMs: number, hadApiKey: boolean): string {
  if (
    err instanceof APIConnectionTimeoutError ||
    err instanceof APIUserAbortError ||
    (err instanceof Error && err.name === 'TimeoutError')
  ) {
    return `${url} did not answer GET /models within ${formatSeconds(timeoutMs)} s: is the server up and the address right?`;
  }
  if (err instanceof APIConnectionError) {
    const code = causeCode(err);
    const what = connectionText(err);
    if (code === 'ECONNREFUSED') return `cannot reach ${url} (${what}): is the server running?`;
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `cannot reach ${url} (${what}): check the host name`;
    return `cannot reach ${url} (${what}): check the URL and that the server is up`;
  }
  if (err instanceof APIError && typeof err.status === 'number') {
    if (err.status === 401 || err.status === 403) return authMessage(url, err.status, hadApiKey, apiMessage(err));
    if (err.status === 404)
      return `${url} has no /models route (HTTP 404): check the base URL (it usually ends in /v1)`;
    return `${url} answered GET /models with HTTP ${err.status}: ${apiMessage(err)}`;
  }
  if (err instanceof SyntaxError) return `${url} did not return a model list: is it an OpenAI-compatible server?`;
  return `cannot query ${url}/models: ${errorMessage(err)}`;
}
