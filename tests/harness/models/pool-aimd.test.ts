import { test } from 'vitest';
import assert from 'node:assert/strict';
import { startServer } from '../../../reference/serve/server.js';
import { parseFaultSpec } from '../../../reference/serve/faults.js';
import { createOpenAIModel } from '../../../harness/models/openai/index.js';
import { createPool, type PoolModel } from '../../../harness/models/pool.js';
import { echoModel, request } from '../../reference/serve/helpers.js';

test('an endpoint that rate-limits gets its concurrency halved; successes grow it back (AIMD)', async () => {
  const limited = await startServer({
    model: echoModel(),
    faults: parseFaultSpec({ fail429: 0.5, retryAfterS: 0, seed: 4 }),
  });
  const clean = await startServer({ model: echoModel(), faults: parseFaultSpec({}) });
  try {
    let pool: PoolModel | undefined;
    const endpoint = (url: string, index: number) =>
      createOpenAIModel({
        baseURL: url,
        modelName: 'reference-reader',
        backoff: { baseMs: 1 },
        onRetry: (e) => e.kind === 'rate-limited' && pool?.rateLimited(index),
      });
    pool = createPool([endpoint(limited.url, 0), endpoint(clean.url, 1)], { maxInFlightPerEndpoint: 8 });
    await Promise.all(Array.from({ length: 24 }, (_, i) => pool!.generate(request(`q${i}`))));
    const [afterLimits, cleanLimit] = pool.limits();
    assert.ok(afterLimits < 8, `the rate-limited endpoint kept limit ${afterLimits}`);
    assert.equal(cleanLimit, 8);
    // Additive increase: a run of successes on a healthy endpoint raises a cut limit again, never above the maximum.
    const healthy = createPool([createOpenAIModel({ baseURL: clean.url, modelName: 'reference-reader' })], {
      maxInFlightPerEndpoint: 8,
    });
    healthy.rateLimited(0);
    assert.equal(healthy.limits()[0], 4);
    for (let i = 0; i < 40; i++) await healthy.generate(request(`r${i}`));
    assert.equal(healthy.limits()[0], 8);
  } finally {
    await limited.close();
    await clean.close();
  }
});
