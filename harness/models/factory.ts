import type { RunConfig } from '../config/run-config.js';
import { UserError } from '../errors.js';
import { addSecret, redact } from '../redact.js';
import type { Model, Tokenizer } from '../types.js';
import { createOpenAIModel, probeEndpoint, type TimeoutPolicy } from './openai/index.js';
import { createPool, type PoolModel } from './pool.js';
import { withDriftCheck } from './drift.js';
import { withResponseCache } from './response-cache.js';
import { responseCacheDir } from '../cache/cache-root.js';
import { withWaitingNotice } from './waiting.js';
import { withApi } from './api.js';
import { withThinkingBudget } from './thinking-budget.js';

/** Makes the embedded model (`--model local`); the CLI passes the reference reader's. */
export type EmbeddedModelFactory = (tokenizer: Tokenizer) => Model | Promise<Model>;

/** The run's model: the embedded model the caller passes in, or the endpoints behind a pool. */
export async function createModel(
  config: RunConfig,
  tokenizer: Tokenizer,
  embedded: EmbeddedModelFactory,
): Promise<Model> {
  if (config.model === 'local') return embedded(tokenizer);
  // Outermost: the route and the thinking budget shape the requests the response cache keys on.
  const endpoint = await createEndpointModel(endpointSettings(config));
  return withApi(withThinkingBudget(endpoint, config.thinkingBudget), config.api ?? 'chat');
}

/**
 * Per-attempt timeout and total retry time of one call. `--request-timeout S` is the wall limit of every attempt,
 * exactly S (no growth with prompt size), and a call then gives up after 8 × S of attempts and waits; without the
 * flag the limit grows with prompt and output size (DEFAULT_TIMEOUT_POLICY) and the budget is 15 minutes.
 */
export function timeoutSettings(requestTimeoutMs: number | undefined): {
  timeoutPolicy?: TimeoutPolicy;
  totalRetryBudgetMs?: number;
} {
  if (requestTimeoutMs === undefined) return {};
  return {
    timeoutPolicy: { baseMs: requestTimeoutMs, perPromptCharMs: 0, perMaxTokenMs: 0, maxMs: requestTimeoutMs },
    totalRetryBudgetMs: 8 * requestTimeoutMs,
  };
}

/** What createEndpointModel uses: the endpoint flags of `bench run`, nothing else of the run. */
export interface EndpointSettings {
  /** Base URLs (--model), one pooled client each. */
  urls: string[];
  /** --model-name. */
  modelName: string;
  /** Name of the environment variable holding the API key (--api-key-env); read here, never stored. */
  apiKeyEnv?: string;
  /** Retry 429s (default) or fail the call at once (--no-retry-429). */
  retry429: boolean;
  /** --request-timeout in ms (see timeoutSettings). */
  requestTimeoutMs?: number;
  /** First retry backoff ceiling in ms. */
  retryBaseMs?: number;
  /** Calls in flight per endpoint at most (the pool's starting limit). */
  requestsPerEndpoint: number;
  /** The on-disk response cache: off, or on for this trial (--trial) with optional per-call debug lines. */
  cache: false | { trial: number; debug: boolean };
}

/** The endpoint settings of a run that calls endpoints (not the embedded model). */
export function endpointSettings(config: RunConfig): EndpointSettings {
  if (config.model === 'local') throw new Error('endpointSettings called for the local model');
  return {
    urls: config.model,
    modelName: config.modelName!,
    apiKeyEnv: config.apiKeyEnv,
    retry429: config.retry429,
    requestTimeoutMs: config.requestTimeoutMs,
    retryBaseMs: config.retryBaseMs,
    requestsPerEndpoint: config.requestsPerEndpoint,
    cache: config.cache ? { trial: config.trial, debug: config.cacheDebug } : false,
  };
}

/** Endpoint models for a run: each URL probed once (down, bad key, wrong model → one clear line), then pooled. */
export async function createEndpointModel(
  settings: EndpointSettings,
  warn: (line: string) => void = (l) => process.stderr.write(redact(l) + '\n'),
): Promise<Model> {
  const { modelName, urls } = settings;
  let apiKey: string | undefined;
  if (settings.apiKeyEnv) {
    apiKey = process.env[settings.apiKeyEnv];
    if (!apiKey) throw new UserError(`--api-key-env ${settings.apiKeyEnv}: that environment variable is not set`);
    // From here on the key is taken out of every stored or printed string (a server may quote it back).
    addSecret(apiKey);
  }
  const endpoints: Model[] = [];
  const windows: number[] = [];
  // Each endpoint reports its 429s to the pool, which halves that endpoint's concurrency (AIMD).
  let pool: PoolModel | undefined;
  for (const [index, baseURL] of urls.entries()) {
    // --request-timeout bounds the probe too (default 10 s): a server that never answers is named within S seconds.
    const probed = await probeEndpoint({
      baseURL,
      modelName,
      apiKey,
      ...(settings.requestTimeoutMs !== undefined ? { timeoutMs: settings.requestTimeoutMs } : {}),
    });
    if (probed.maxModelLen !== undefined) windows.push(probed.maxModelLen);
    let budgetWarned = false;
    endpoints.push(
      createOpenAIModel({
        baseURL,
        modelName,
        apiKey,
        retryRateLimited: settings.retry429,
        onRetry: (event) => {
          if (event.kind === 'rate-limited') pool?.rateLimited(index);
        },
        onBudgetSpent: (message) => {
          if (budgetWarned) return;
          budgetWarned = true;
          warn(`warning: ${message}; its sample ends as an error (later such calls are not reported here)`);
        },
        ...timeoutSettings(settings.requestTimeoutMs),
        ...(settings.retryBaseMs !== undefined ? { backoff: { baseMs: settings.retryBaseMs } } : {}),
      }),
    );
  }
  pool = createPool(endpoints, {
    maxInFlightPerEndpoint: settings.requestsPerEndpoint,
    id: endpoints.map((m) => m.id).join(','),
  });
  const checked = withWaitingNotice(withDriftCheck(pool, warn), urls.join(', '), warn);
  // The window the run must fit: the smallest any endpoint reports (a call may go to any of them).
  const window = windows.length > 0 ? { contextWindow: Math.min(...windows) } : {};
  if (!settings.cache) return { ...checked, ...window };
  // Wrapped around the pool, so a hit does not depend on which endpoint served the call.
  const cached = withResponseCache(checked, {
    dir: responseCacheDir(),
    endpoint: urls.join(','),
    modelName,
    trial: settings.cache.trial,
    debug: settings.cache.debug ? warn : undefined,
  });
  return { ...cached, ...window };
}
