import { test } from 'vitest';
import assert from 'node:assert/strict';
import { startServer } from '../../../reference/serve/server.js';
import { parseFaultSpec } from '../../../reference/serve/faults.js';
import { createOpenAIModel } from '../../../harness/models/openai/index.js';
import { createPool } from '../../../harness/models/pool.js';
import type { Model, ModelRequest, ModelResponse } from '../../../harness/types.js';
import { echoModel, echoReply, promptFor, request } from '../../reference/serve/helpers.js';

/** Wraps a model to observe how many of its calls run at once. */
function watched(inner: Model) {
  let now = 0;
  let peak = 0;
  let calls = 0;
  const model: Model = {
    id: inner.id,
    isReferenceReader: false,
    async generate(req: ModelRequest, signal?: AbortSignal) {
      now++;
      calls++;
      peak = Math.max(peak, now);
      try {
        return await inner.generate(req, signal);
      } finally {
        now--;
      }
    },
  };
  return { model, peak: () => peak, calls: () => calls };
}

test('pool spreads calls over two real servers and keeps each under its in-flight limit', async () => {
  const faults = parseFaultSpec({ latencyMs: 15 });
  const servers = await Promise.all([
    startServer({ model: echoModel(), faults }),
    startServer({ model: echoModel(), faults }),
  ]);
  try {
    const ends = servers.map((s) => watched(createOpenAIModel({ baseURL: s.url, modelName: 'reference-reader' })));
    const pool = createPool(
      ends.map((e) => e.model),
      { maxInFlightPerEndpoint: 3 },
    );
    let peakQueue = 0;
    const texts = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const call = pool.generate(request(promptFor(i)));
        peakQueue = Math.max(peakQueue, pool.queued());
        return (await call).text;
      }),
    );
    texts.forEach((t, i) => assert.equal(t, echoReply([{ role: 'user', content: promptFor(i) }])));
    assert.deepEqual(
      ends.map((e) => e.peak()),
      [3, 3],
    );
    assert.equal(peakQueue, 24);
    assert.ok(ends.every((e) => e.calls() > 0));
    assert.equal(ends[0].calls() + ends[1].calls(), 30);
    assert.deepEqual(
      servers.map((s) => s.stats().completions),
      ends.map((e) => e.calls()),
    );
    assert.deepEqual(pool.inFlight(), [0, 0]);
    assert.equal(pool.queued(), 0);
    assert.equal(pool.id, `${servers[0].url}#reference-reader,${servers[1].url}#reference-reader`);
  } finally {
    await Promise.all(servers.map((s) => s.close()));
  }
});

/** A model whose calls finish only when the test says so. */
function gated(id: string) {
  const pending: { req: ModelRequest; done: () => void }[] = [];
  const model: Model = {
    id,
    isReferenceReader: false,
    generate(req) {
      return new Promise<ModelResponse>((resolve) => {
        pending.push({
          req,
          done: () =>
            resolve({
              text: id,
              usage: { promptTokens: 0, completionTokens: 0 },
              latencyMs: 0,
              finishReason: 'stop',
              cached: false,
              retries: 0,
            }),
        });
      });
    },
  };
  return { model, pending };
}

const tick = () => new Promise((r) => setImmediate(r));

test('least-in-flight first with ties to the lowest index; FIFO queue; abort leaves the queue', async () => {
  const a = gated('a');
  const b = gated('b');
  const pool = createPool([a.model, b.model], { maxInFlightPerEndpoint: 2 });
  const calls = [0, 1, 2].map((i) => pool.generate(request(`c${i}`)));
  await tick();
  // 0 → a (tie), 1 → b (a busier), 2 → a (tie again)
  assert.deepEqual(
    a.pending.map((p) => p.req.messages[0].content),
    ['c0', 'c2'],
  );
  assert.deepEqual(
    b.pending.map((p) => p.req.messages[0].content),
    ['c1'],
  );
  const c3 = pool.generate(request('c3')); // b has room
  const ctrl = new AbortController();
  const c4 = pool.generate(request('c4'), ctrl.signal); // full: queued
  const c5 = pool.generate(request('c5')); // queued behind c4
  await tick();
  assert.deepEqual(pool.inFlight(), [2, 2]);
  assert.equal(pool.queued(), 2);
  ctrl.abort(new Error('stop c4'));
  await assert.rejects(c4, /stop c4/);
  assert.equal(pool.queued(), 1);
  b.pending[0].done();
  assert.equal((await calls[1]).text, 'b');
  await tick();
  assert.equal(b.pending[2].req.messages[0].content, 'c5'); // the freed slot went to c5, not the aborted c4
  assert.equal(pool.queued(), 0);
  for (const p of [...a.pending, ...b.pending.slice(1)]) p.done();
  assert.deepEqual(
    (await Promise.all([calls[0], calls[2], c3, c5])).map((r) => r.text),
    ['a', 'a', 'b', 'b'],
  );
  assert.deepEqual(pool.inFlight(), [0, 0]);
  await assert.rejects(pool.generate(request('late'), AbortSignal.abort(new Error('already'))), /already/);
});
