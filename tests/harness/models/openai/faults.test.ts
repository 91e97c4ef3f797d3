import { test } from 'vitest';
import assert from 'node:assert/strict';
import { startServer } from '../../../../reference/serve/server.js';
import { parseFaultSpec } from '../../../../reference/serve/faults.js';
import { createOpenAIModel, type OpenAIModel } from '../../../../harness/models/openai/index.js';
import { abortableSleep } from '../../../../harness/models/openai/policy.js';
import { echoModel, promptFor, request } from '../../../reference/serve/helpers.js';

const N = 100;
const CONCURRENCY = 8;

async function runBatch(model: OpenAIModel): Promise<string[]> {
  const texts: string[] = new Array(N);
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < N) {
        const i = next++;
        texts[i] = (await model.generate(request(promptFor(i)))).text;
      }
    }),
  );
  return texts;
}

test('~100 calls through 10% 5xx, 5% 429, 2% resets, 1% malformed, 1% hangs: same texts as a clean server', async () => {
  const clean = await startServer({ model: echoModel() });
  const faults = parseFaultSpec({
    fail5xx: 0.1,
    fail429: 0.05,
    failReset: 0.02,
    failMalformed: 0.01,
    failHang: 0.01,
    retryAfterS: 1,
    seed: 5,
  });
  // Seed 5 draws every fault kind at least once for these prompts (asserted below).
  const faulty = await startServer({ model: echoModel(), faults });
  const scheduled: number[] = [];
  const options = {
    modelName: 'reference-reader',
    maxRetries: 10,
    // Long enough for any real answer on a loaded 2-core box; each injected hang costs this much.
    timeoutPolicy: { baseMs: 2000, perPromptCharMs: 0, perMaxTokenMs: 0 },
    // Waits are recorded at full size and slept at 1/100 so the test stays fast.
    sleep: (ms: number, signal?: AbortSignal) => {
      scheduled.push(ms);
      return abortableSleep(ms / 100, signal);
    },
  };
  try {
    const cleanModel = createOpenAIModel({ ...options, baseURL: clean.url });
    const faultyModel = createOpenAIModel({ ...options, baseURL: faulty.url });
    const expected = await runBatch(cleanModel);
    const got = await runBatch(faultyModel);
    assert.deepEqual(got, expected);
    // A clean server causes no retries, except a timeout if this box is so loaded that an answer takes > 2 s.
    const cleanRetries = cleanModel.stats().retriesByReason;
    assert.deepEqual(
      Object.keys(cleanRetries).filter((r) => r !== 'timeout'),
      [],
    );

    const client = faultyModel.stats();
    const server = faulty.stats().faults;
    console.log(
      `  client: ${client.calls} calls, ${client.attempts} attempts, ${client.retries} retries ${JSON.stringify(client.retriesByReason)}`,
    );
    console.log(`  server faults injected: ${JSON.stringify(server)}`);
    assert.equal(client.succeeded, N);
    assert.equal(client.failed, 0);
    // Every injected fault cost exactly one retry, classified by its cause.
    const http5xx = Object.entries(client.retriesByReason)
      .filter(([r]) => /^http-5\d\d$/.test(r))
      .reduce((s, [, n]) => s + n, 0);
    assert.equal(http5xx, server['5xx']);
    assert.equal(client.retriesByReason['http-429'] ?? 0, server['429']);
    assert.equal(client.retriesByReason.connection ?? 0, server.reset);
    assert.equal(client.retriesByReason['malformed-body'] ?? 0, server.malformed);
    const slow = (client.retriesByReason.timeout ?? 0) - server.hang; // > 0 only on a badly overloaded box
    assert.ok(slow >= 0);
    assert.equal(client.retries, server['5xx'] + server['429'] + server.reset + server.malformed + server.hang + slow);
    for (const kind of ['5xx', '429', 'reset', 'malformed', 'hang'] as const)
      assert.ok(server[kind] > 0, `no ${kind} drawn`);
    assert.ok(client.retries >= 10, `expected ~20% of ~120 attempts to fail, got ${client.retries}`);
    assert.equal(scheduled.length, client.retries);
  } finally {
    await Promise.all([clean.close(), faulty.close()]);
  }
});
