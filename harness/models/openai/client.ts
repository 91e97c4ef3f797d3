// The `openai` SDK client as we use it: no SDK retries, no env-derived org/project/key, no SDK logging.
import OpenAI from 'openai';

export interface ClientConfig {
  baseURL: string;
  apiKey?: string;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Some servers (older vLLM, FastChat) send errors as a flat `{"object":"error","message":...}`; the SDK only reads
 * `{"error": {...}}` and would lose the text we classify on (e.g. "maximum context length"). Rewrap those bodies.
 */
export async function normalizingFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const res = await fetch(input, init);
  if (res.ok) return res;
  const text = await res.text();
  let body = text;
  try {
    const json: unknown = JSON.parse(text);
    if (
      isRecord(json) &&
      !isRecord(json.error) &&
      (typeof json.message === 'string' || typeof json.error === 'string' || typeof json.detail === 'string')
    ) {
      const message = [json.message, json.error, json.detail].find((m) => typeof m === 'string') as string;
      body = JSON.stringify({ error: { message, type: json.type ?? null, code: json.code ?? null } });
    }
  } catch {
    if (text.trim() !== '') body = JSON.stringify({ error: { message: text.trim().slice(0, 500) } });
  }
  const headers = new Headers(res.headers);
  headers.delete('content-length');
  headers.delete('content-encoding');
  headers.set('content-type', 'application/json');
  return new Response(body, { status: res.status, statusText: res.statusText, headers });
}

export function makeClient(config: ClientConfig): OpenAI {
  return new OpenAI({
    baseURL: config.baseURL,
    // Never fall back to OPENAI_API_KEY: that would send a user's OpenAI key to an arbitrary endpoint.
    apiKey: config.apiKey ?? 'no-key',
    organization: null,
    project: null,
    webhookSecret: null,
    maxRetries: 0,
    logLevel: 'off',
    defaultHeaders: config.headers,
    fetch: normalizingFetch,
  });
}

/** Base URL as shown in messages and ids: no trailing slash. */
export function displayURL(baseURL: string): string {
  return baseURL.replace(/\/+$/, '');
}
