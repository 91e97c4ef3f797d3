// `bench serve --simulate`: same answers as the plain server, timed by the simulated GPU (checked on its own
// accounting, never on the wall clock).
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { startServer } from '../../../reference/serve/server.js';
import {
  createLiveSimulator,
  gpuParams,
  parseSimulateSpec,
  simulateFromFlags,
} from '../../../reference/simulator/index.js';
import { createLocalModel } from '../../../reference/local-model.js';
import { loadTokenizer } from '../../../harness/tokenizer/index.js';
import { UserError } from '../../../harness/errors.js';

const tokenizer = loadTokenizer('qwen2.5');

const prompts = [
  'Document 1:\nParis\nParis is the capital of France.\n\nQuestion: What is the capital of France?',
  'You are presented with a problem.\n\n<problem> \nWho wrote Hamlet?\n</problem>\n\n<memory>\nNo previous memory\n</memory>\n\n<section>\nHamlet is a tragedy by William Shakespeare.\n</section>\n\nUpdated memory:\n',
  'Document 7:\nRiver Thames\nThe Thames flows through London.\n\nWhich river flows through London?',
];

async function ask(url: string, content: string) {
  const res = await fetch(`${url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'reference-reader', messages: [{ role: 'user', content }], max_tokens: 256 }),
  });
  assert.equal(res.status, 200);
  return (await res.json()) as {
    choices: { message: { content: string } }[];
    usage: { prompt_tokens: number; completion_tokens: number };
  };
}

test('the simulated server answers with the same text and usage as the plain server', async () => {
  const plain = await startServer({ model: createLocalModel(tokenizer) });
  const sim = createLiveSimulator(gpuParams('qwen2.5-7b-h100'), { timeScale: 1e5 });
  const timed = await startServer({ model: createLocalModel(tokenizer), delay: sim.delay });
  try {
    const a = await Promise.all(prompts.map((p) => ask(plain.url, p)));
    const b = await Promise.all(prompts.map((p) => ask(timed.url, p)));
    for (let i = 0; i < prompts.length; i++) {
      assert.equal(b[i].choices[0].message.content, a[i].choices[0].message.content);
      assert.deepEqual(b[i].usage, a[i].usage);
    }
    // every answer went through the simulated GPU, with the response's own token counts
    const st = sim.engine.stats;
    assert.equal(st.completed, prompts.length);
    assert.equal(
      st.prefillTokens,
      b.reduce((n, r) => n + r.usage.prompt_tokens, 0),
    );
    assert.equal(
      st.decodeTokens,
      b.reduce((n, r) => n + r.usage.completion_tokens, 0),
    );
    assert.ok(sim.engine.now > 0);
  } finally {
    sim.close();
    await plain.close();
    await timed.close();
  }
});

test('an aborted request leaves the simulated GPU at once', async () => {
  const sim = createLiveSimulator(gpuParams('qwen2.5-14b-h100'), { timeScale: 1 });
  const ac = new AbortController();
  const pending = sim.delay(100_000, 1024, 1024, ac.signal); // minutes of simulated work at time scale 1
  assert.equal(sim.engine.running + sim.engine.waiting, 1);
  ac.abort();
  await pending;
  assert.equal(sim.engine.running + sim.engine.waiting, 0);
  assert.equal(sim.engine.stats.completed, 0);
  sim.close();
});

test('requests finish in the order the model says, on a manual clock', async () => {
  let ms = 0;
  const sim = createLiveSimulator({ ...gpuParams('qwen2.5-7b-h100'), maxBatch: 1 }, { timeScale: 1, clock: () => ms });
  const order: string[] = [];
  const a = sim.delay(1000, 64, 10).then(() => order.push('a'));
  const b = sim.delay(1000, 64, 10).then(() => order.push('b'));
  // a runs alone (max batch 1), b queues behind it; finish times come from the engine
  const probe = sim.engine.nextCompletionAt();
  assert.ok(probe > 0);
  ms = probe * 1000 * 2 + 1e6; // the clock jumps far ahead: both are due
  await Promise.all([a, b]);
  assert.deepEqual(order, ['a', 'b']);
  sim.close();
});

test('--simulate and --time-scale flags', () => {
  assert.equal(simulateFromFlags({}), undefined);
  const sim = simulateFromFlags({ simulate: 'qwen2.5-14b-h100,max-batch=16,replicas=2', 'time-scale': '3600' });
  assert.ok(sim);
  assert.equal(sim.timeScale, 3600);
  assert.equal(sim.engine.params.maxBatch, 16);
  assert.equal(sim.engine.params.replicas, 2);
  assert.equal(sim.engine.params.name, 'qwen2.5-14b-h100+custom');
  sim.close();
  assert.equal(parseSimulateSpec('qwen2.5-7b-h100').prefillTokensPerS, gpuParams('qwen2.5-7b-h100').prefillTokensPerS);
  const bad = (flags: Parameters<typeof simulateFromFlags>[0], re: RegExp) =>
    assert.throws(
      () => simulateFromFlags(flags),
      (e: unknown) => e instanceof UserError && re.test(e.message) && !e.message.includes('\n'),
    );
  bad({ simulate: 'h100' }, /unknown --simulate preset 'h100'/);
  bad({ simulate: 'qwen2.5-7b-h100,speed=2' }, /not KEY=VALUE/);
  bad({ simulate: 'qwen2.5-7b-h100,max-batch=x' }, /max-batch expects a number/);
  bad({ simulate: 'qwen2.5-7b-h100,max-batch=0' }, /max-batch must be an integer/);
  bad({ simulate: 'qwen2.5-7b-h100', 'time-scale': '0' }, /--time-scale expects a positive number/);
  bad({ 'time-scale': '10' }, /only applies with --simulate/);
  bad({ simulate: true }, /need a value/);
});
