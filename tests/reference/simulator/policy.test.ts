// The runner-side scheduling policy: priority queue, call gate, gated model.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { CallGate, gatedModel } from '../../../harness/runner/schedule-policy.js';
import { PriorityQueue } from '../../../harness/util/priority-queue.js';
import { modelFromReply } from '../../../reference/serve/reply-model.js';
import type { Model } from '../../../harness/types.js';

test('PriorityQueue: highest first, ties in insertion order, remove', () => {
  const q = new PriorityQueue<string>();
  for (const [item, p] of [
    ['a', 1],
    ['b', 5],
    ['c', 5],
    ['d', 3],
    ['e', 9],
    ['f', 1],
  ] as const)
    q.push(item, p);
  assert.equal(q.remove('d'), true);
  assert.equal(q.remove('zz'), false);
  const out: string[] = [];
  while (q.size > 0) out.push(q.pop()!);
  assert.deepEqual(out, ['e', 'b', 'c', 'a', 'f']);
  assert.equal(q.pop(), undefined);
});

test('CallGate: at most `slots` out, the waiting call with the longest chain goes next', async () => {
  const gate = new CallGate(2);
  const r1 = await gate.acquire(1);
  const r2 = await gate.acquire(1);
  assert.equal(gate.active, 2);
  const order: number[] = [];
  const waits = [3, 700, 40, 700].map((p, i) =>
    gate.acquire(p).then((release) => {
      order.push(i);
      return release;
    }),
  );
  assert.equal(gate.waiting, 4);
  r1();
  r1(); // releasing twice frees one slot only
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(order, [1]);
  r2();
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(order, [1, 3]);
  (await waits[1])();
  (await waits[3])();
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(order, [1, 3, 2, 0]);
  assert.throws(() => new CallGate(0), /slots/);
});

test('CallGate: an aborted waiter leaves the queue', async () => {
  const gate = new CallGate(1);
  const release = await gate.acquire(1);
  const ac = new AbortController();
  const waiting = gate.acquire(5, ac.signal);
  ac.abort(new Error('stop'));
  await assert.rejects(waiting, /stop/);
  assert.equal(gate.waiting, 0);
  release();
  assert.equal(gate.active, 0);
});

test('gatedModel: same answers, never more calls out than the gate allows', async () => {
  let out = 0;
  let peak = 0;
  const inner = modelFromReply((m) => `Therefore, the answer is ${m[0].content}`, { id: 'local:echo' });
  const slow: Model = {
    ...inner,
    async generate(req, signal) {
      peak = Math.max(peak, ++out);
      await new Promise((r) => setImmediate(r));
      out--;
      return inner.generate(req, signal);
    },
  };
  const gate = new CallGate(3);
  let remaining = 10;
  const m = gatedModel(slow, gate, () => remaining--);
  const req = (i: number) => ({
    messages: [{ role: 'user' as const, content: `q${i}` }],
    params: { maxTokens: 20, temperature: 0, topP: 1 },
  });
  const got = await Promise.all(Array.from({ length: 10 }, (_, i) => m.generate(req(i))));
  got.forEach((r, i) => assert.equal(r.text, `Therefore, the answer is q${i}`));
  assert.equal(peak, 3);
  assert.equal(gate.active, 0);
  assert.equal(m.id, inner.id);
});
