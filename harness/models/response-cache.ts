// A disk cache of successful model responses, so an identical call (same endpoint, model, messages, generation
// parameters and trial) is free on a rerun or resume.
//
// The key is sha256(canonical JSON of {
//   v:        CACHE_FORMAT_VERSION,
//   endpoint: the endpoint as given by the caller (no secrets),
//   model:    the model name sent to the server,
//   messages: sha256 of the canonical JSON of [{role, content}, ...] (the prompt itself never enters key material),
//   params:   { maxTokens, temperature, topP, stop (null when unset) },
//   trial:    the run's trial index (so repeated trials at temperature > 0 draw fresh samples)
// }), with object keys sorted. Entries live at DIR/<first two hex chars>/<key>.json and hold the key inputs above
// (hashes and parameters only) and the response text, usage and finish reason. Errors are never stored. A file that
// cannot be read back as a valid entry for its key is a miss and is overwritten by the next successful call.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../run-dir/atomic-write.js';
import type { ChatMessage, Model, ModelRequest, ModelResponse, Usage } from '../types.js';

export const CACHE_FORMAT_VERSION = 1;

export interface ResponseCacheOptions {
  dir: string;
  endpoint: string;
  modelName: string;
  trial: number;
  /** When set, one line per call with the key inputs (hashes and parameters, never the prompt) and hit/miss. */
  debug?: (line: string) => void;
}

export interface CacheKeyInputs {
  v: number;
  endpoint: string;
  model: string;
  messages: string;
  /** sha256 of a text completion's prompt; absent for chat calls (whose keys stay as they were). */
  prompt?: string;
  params: { maxTokens: number; temperature: number; topP: number; stop: string[] | null };
  trial: number;
}

export interface CacheStats {
  hits: number;
  misses: number;
  writes: number;
  /** Entries found unreadable and treated as misses. */
  corrupt: number;
}

export interface CachedModel extends Model {
  cacheStats(): CacheStats;
}

interface CacheEntry {
  v: number;
  key: string;
  inputs: CacheKeyInputs;
  response: { text: string; usage: Usage; finishReason: string; reasoning?: string; reasoningTokens?: number };
}

/** JSON with object keys sorted at every level, so equal values always give equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj)
      .filter((k) => obj[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export function messagesHash(messages: ChatMessage[]): string {
  return sha256(canonicalJson(messages.map((m) => ({ role: m.role, content: m.content }))));
}

export function cacheKeyInputs(
  request: ModelRequest,
  opts: Pick<ResponseCacheOptions, 'endpoint' | 'modelName' | 'trial'>,
): CacheKeyInputs {
  const p = request.params;
  return {
    v: CACHE_FORMAT_VERSION,
    endpoint: opts.endpoint,
    model: opts.modelName,
    messages: messagesHash(request.messages),
    ...(request.prompt !== undefined ? { prompt: sha256(request.prompt) } : {}),
    params: { maxTokens: p.maxTokens, temperature: p.temperature, topP: p.topP, stop: p.stop ?? null },
    trial: opts.trial,
  };
}

export function cacheKey(inputs: CacheKeyInputs): string {
  return sha256(canonicalJson(inputs));
}

export function cacheFile(dir: string, key: string): string {
  return join(dir, key.slice(0, 2), `${key}.json`);
}

function isUsage(u: unknown): u is Usage {
  const x = u as Usage | null;
  return typeof x === 'object' && x !== null && Number.isFinite(x.promptTokens) && Number.isFinite(x.completionTokens);
}

/** The stored response for `key`, or undefined when absent or not a valid entry for that key. */
function readEntry(file: string, key: string): { entry?: CacheEntry; corrupt: boolean } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return { corrupt: false };
  }
  try {
    const e = JSON.parse(text) as CacheEntry;
    const r = e?.response;
    if (
      e.v === CACHE_FORMAT_VERSION &&
      e.key === key &&
      typeof r?.text === 'string' &&
      typeof r.finishReason === 'string' &&
      isUsage(r.usage)
    ) {
      return { entry: e, corrupt: false };
    }
  } catch {
    // fall through
  }
  return { corrupt: true };
}

function describe(key: string, i: CacheKeyInputs, messages: number): string {
  const stop = i.params.stop === null ? 'none' : JSON.stringify(i.params.stop);
  return (
    `key=${key.slice(0, 16)} v=${i.v} endpoint=${i.endpoint} model=${i.model} messages=sha256:${i.messages.slice(0, 16)} (${messages}) ` +
    `max_tokens=${i.params.maxTokens} temperature=${i.params.temperature} top_p=${i.params.topP} stop=${stop} trial=${i.trial}`
  );
}

/** Wraps a model with the response cache described at the top of this file. */
export function withResponseCache(model: Model, opts: ResponseCacheOptions): CachedModel {
  const stats: CacheStats = { hits: 0, misses: 0, writes: 0, corrupt: 0 };
  return {
    id: model.id,
    isReferenceReader: model.isReferenceReader,
    cacheStats: () => ({ ...stats }),
    close: model.close ? () => model.close!() : undefined,
    async generate(request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse> {
      const inputs = cacheKeyInputs(request, opts);
      const key = cacheKey(inputs);
      const file = cacheFile(opts.dir, key);
      const found = readEntry(file, key);
      if (found.corrupt) stats.corrupt++;
      if (found.entry) {
        stats.hits++;
        opts.debug?.(`cache hit ${describe(key, inputs, request.messages.length)}`);
        const r = found.entry.response;
        return {
          text: r.text,
          usage: { ...r.usage },
          finishReason: r.finishReason,
          ...(typeof r.reasoning === 'string' ? { reasoning: r.reasoning } : {}),
          ...(typeof r.reasoningTokens === 'number' ? { reasoningTokens: r.reasoningTokens } : {}),
          latencyMs: 0,
          cached: true,
          retries: 0,
        };
      }
      stats.misses++;
      opts.debug?.(
        `cache miss${found.corrupt ? ' (unreadable entry, will overwrite)' : ''} ${describe(key, inputs, request.messages.length)}`,
      );
      const res = await model.generate(request, signal);
      const entry: CacheEntry = {
        v: CACHE_FORMAT_VERSION,
        key,
        inputs,
        response: {
          text: res.text,
          usage: res.usage,
          finishReason: res.finishReason,
          ...(res.reasoning !== undefined ? { reasoning: res.reasoning } : {}),
          ...(res.reasoningTokens !== undefined ? { reasoningTokens: res.reasoningTokens } : {}),
        },
      };
      try {
        mkdirSync(join(opts.dir, key.slice(0, 2)), { recursive: true });
        writeFileAtomic(file, JSON.stringify(entry) + '\n');
        stats.writes++;
      } catch (err) {
        // A cache that cannot be written costs a rerun its savings, not this call its result.
        opts.debug?.(`cache write failed for key=${key.slice(0, 16)}: ${(err as Error).message}`);
      }
      return res;
    },
  };
}
