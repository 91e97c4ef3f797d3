// createEndpointModel takes only its EndpointSettings: probed, pooled endpoints against `bench serve`'s real server.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { startServer } from '../../../reference/serve/server.js';
import { createEndpointModel, endpointSettings, type EndpointSettings } from '../../../harness/models/factory.js';
import type { RunConfig } from '../../../harness/config/run-config.js';
import { UserError } from '../../../harness/errors.js';
import { echoModel, echoReply, request } from '../../reference/serve/helpers.js';

const base = (urls: string[]): EndpointSettings => ({
  urls,
  modelName: 'reference-reader',
  retry429: true,
  requestsPerEndpoint: 2,
  cache: false,
});

test('endpoint settings: pooled endpoints answer; a missing key variable is one clear line', async () => {
  const a = await startServer({ model: echoModel() });
  const b = await startServer({ model: echoModel() });
  try {
    const model = await createEndpointModel(base([a.url, b.url]), () => {});
    assert.equal(model.id, `${a.url}#reference-reader,${b.url}#reference-reader`);
    const texts = await Promise.all([1, 2, 3, 4, 5].map((i) => model.generate(request(`word${i} more`))));
    assert.deepEqual(
      texts.map((t) => t.text),
      [1, 2, 3, 4, 5].map((i) => echoReply([{ role: 'user', content: `word${i} more` }])),
    );
    assert.ok(a.stats().completions > 0 && b.stats().completions > 0, 'both endpoints served calls');
    const unset = 'MEMAGENT_BENCH_TEST_UNSET_KEY';
    delete process.env[unset];
    await assert.rejects(
      createEndpointModel({ ...base([a.url]), apiKeyEnv: unset }, () => {}),
      (e: unknown) =>
        e instanceof UserError && e.message === `--api-key-env ${unset}: that environment variable is not set`,
    );
  } finally {
    await a.close();
    await b.close();
  }
});

test('endpointSettings takes the endpoint flags of a run and nothing else', () => {
  const config = {
    model: ['http://h:1/v1'],
    modelName: 'm',
    apiKeyEnv: 'K',
    retry429: false,
    requestTimeoutMs: 2000,
    retryBaseMs: 50,
    requestsPerEndpoint: 3,
    cache: true,
    trial: 2,
    cacheDebug: true,
    tasks: ['x'],
  } as unknown as RunConfig;
  assert.deepEqual(endpointSettings(config), {
    urls: ['http://h:1/v1'],
    modelName: 'm',
    apiKeyEnv: 'K',
    retry429: false,
    requestTimeoutMs: 2000,
    retryBaseMs: 50,
    requestsPerEndpoint: 3,
    cache: { trial: 2, debug: true },
  });
  assert.equal(endpointSettings({ ...config, cache: false }).cache, false);
  assert.throws(() => endpointSettings({ ...config, model: 'local' }));
});
