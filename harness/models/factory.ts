import type { RunConfig } from '../config/run-config.js';
import { UserError } from '../errors.js';
import type { Model, Tokenizer } from '../types.js';
import { createOpenAIModel, probeEndpoint, type TimeoutPolicy } from './openai/index.js';
import { createPool, type PoolModel } from './pool.js';
import { withDriftCheck } from './drift.js';
import { withResponseCache } from './response-cache.js';
import { responseCacheDir } from '../cache/cache-root.js';
import { withWaitingNotice } from './waiting.js';

/** Makes the embedded model (`--model local`); the CLI passes the reference reader's. */
export type EmbeddedModelFactory = (tokenizer: Tokenizer) => Model | Promise<Model>;

/** The run's model: the embedded model the caller passes in, or the endpoints behind a pool. */
export async function createModel(
  config: RunConfig,
  tokenizer: Tokenizer,
  embedded: EmbeddedModelFactory,
): Promise<Model> {
  if (config.model === 'local') return embedded(tokenizer);
  return createEndpointModel(config, tokenizer);
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

/** Endpoint models for a run: each URL probed once (down, bad key, wrong model → one clear line), then pooled. */
export async function createEndpointModel(
  config: RunConfig,
  _tokenizer: Tokenizer,
  warn: (line: string) => void = (l) => process.stderr.write(l + '\n'),
): Promise<Model> {
  if (config.model === 'local') throw new Error('createEndpointModel called for the local model');
  const modelName = config.modelName!;
  let apiKey: string | undefined;
  if (config.apiKeyEnv) {
    apiKey = process.env[config.apiKeyEnv];
    if (!apiKey) throw new UserError(`--api-key-env ${config.apiKeyEnv}: that environment variable is not set`);
  }
  const endpoints: Model[] = [];
  // Each endpoint reports its 429s to the pool, which halves that endpoint's concurrency (AIMD).
  let pool: PoolModel | undefined;
  for (const [index, baseURL] of config.model.entries()) {
    // --request-timeout bounds the probe too (default 10 s): a server that never answers is named within S seconds.
    await probeEndpoint({
      baseURL,
      modelName,
      apiKey,
      ...(config.requestTimeoutMs !== undefined ? { timeoutMs: config.requestTimeoutMs } : {}),
    });
    let budgetWarned = false;
    endpoints.push(
      createOpenAIModel({
        baseURL,
        modelName,
        apiKey,
        retryRateLimited: config.retry429,
        onRetry: (event) => {
          if (event.kind === 'rate-limited') pool?.rateLimited(index);
        },
        onBudgetSpent: (message) => {
          if (budgetWarned) return;
          budgetWarned = true;
          warn(`warning: ${message}; its sample ends as an error (later such calls are not reported here)`);
        },
        ...timeoutSettings(config.requestTimeoutMs),
        ...(config.retryBaseMs !== undefined ? { backoff: { baseMs: config.retryBaseMs } } : {}),
      }),
    );
  }
  pool = createPool(endpoints, {
    maxInFlightPerEndpoint: config.requestsPerEndpoint,
    id: endpoints.map((m) => m.id).join(','),
  });
  const checked = withWaitingNotice(withDriftCheck(pool, warn), config.model.join(', '), warn);
  if (!config.cache) return checked;
  // Wrapped around the pool, so a hit does not depend on which endpoint served the call.
  return withResponseCache(checked, {
    dir: responseCacheDir(),
    endpoint: config.model.join(','),
    modelName,
    trial: config.trial,
    debug: config.cacheDebug ? warn : undefined,
  });
}
