// The simulated server at long simulated times: a cluster's predicted completion must happen when the engine is
// advanced to it, although at 2.6·10⁵ s one ulp is 6·10⁻¹¹ s and a step count computed as (until − now) ÷ step
// loses more than the old absolute 10⁻⁹ tolerance (bench plan sweeps concurrency 1 over week-long runs).
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { createGpuServer, gpuParams } from '../../../reference/simulator/index.js';
import { rngFor } from '../../../harness/util/rng.js';

test('one call after another on 8 replicas, days into simulated time', () => {
  const rng = rngFor('x');
  const server = createGpuServer(gpuParams('qwen2.5-14b-8xh100'));
  let at = 262_000;
  for (let i = 0; i < 500; i++) {
    server.submit(
      { promptTokens: 1000 + Math.floor(rng.float() * 9000), outputTokens: 1 + Math.floor(rng.float() * 1000) },
      at,
    );
    const done = server.advance(Infinity, true);
    assert.equal(done.length, 1, `call ${i}`);
    assert.ok(done[0].doneAt > at);
    at = done[0].doneAt;
  }
});
