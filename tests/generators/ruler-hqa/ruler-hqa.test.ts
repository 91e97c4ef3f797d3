import { test } from 'vitest';
import assert from 'node:assert/strict';
import { parseLengths } from '../../../harness/config/lengths.js';
import { loadTokenizer } from '../../../harness/tokenizer/index.js';
import { rulerHqaTask, ctxDistTask } from '../../../generators/ruler-hqa/index.js';
import type { PreparedTask } from '../../../harness/types.js';
import { concatIds } from '../../helpers/context.js';

const tokenizer = loadTokenizer('qwen2.5');
const [L32k] = parseLengths('32k');
const prepared = new Map<string, Promise<PreparedTask>>();
function task(seed: number, placement?: string): Promise<PreparedTask> {
  const key = `${seed}|${placement}`;
  if (!prepared.has(key))
    prepared.set(key, rulerHqaTask.prepare({ tokenizer, seed, options: placement ? { placement } : {} }));
  return prepared.get(key)!;
}

test('cached paragraph ids concatenate to exactly the encoding of the joined context', async () => {
  const t = await task(42);
  for (const index of [0, 1, 2, 3, 57, 127]) {
    const s = t.build(L32k, index);
    const text = s.context.text();
    const direct = tokenizer.encode(text);
    assert.deepEqual(concatIds(s), direct, `sample ${index}`);
    assert.equal(s.context.tokenCount, direct.length);
    assert.ok(text.startsWith('Document 1:\n'));
    assert.equal(text, text.trim());
  }
});

test('a token target is met within one paragraph and never exceeded', async () => {
  const t = await task(42);
  for (const spec of ['8k', '32k', '100000']) {
    const [len] = parseLengths(spec);
    for (const index of [0, 5, 9]) {
      const s = t.build(len, index);
      const gap = len.value - s.context.tokenCount;
      assert.ok(gap >= 0, `${spec}/${index}: ${s.context.tokenCount} > ${len.value}`);
      assert.ok(gap < 600, `${spec}/${index}: ${gap} tokens short of the target`); // longest paragraph + header + separator
    }
  }
});

test("docs:N builds exactly N documents with the question's own paragraphs and its gold answer", async () => {
  const t = await task(42);
  const [d50] = parseLengths('docs:50');
  const s = t.build(d50, 0);
  assert.equal(s.metadata.num_docs, 50);
  assert.equal((s.context.text().match(/^Document \d+:$/gm) ?? []).length, 50);
  assert.equal((s.metadata.own_docs as number[]).length, 10);
  assert.equal((s.metadata.gold_docs as number[]).length, 2);
  assert.equal(s.question, 'Were Scott Derrickson and Ed Wood of the same nationality?');
  assert.deepEqual(s.answers, ['yes']);
});

test('same seed gives identical samples; another seed changes the distractors', async () => {
  const a = (await task(42)).build(L32k, 3);
  const fresh = await rulerHqaTask.prepare({ tokenizer, seed: 42, options: {} });
  const b = fresh.build(L32k, 3);
  assert.equal(a.context.text(), b.context.text());
  const c = (await task(7)).build(L32k, 3);
  assert.notEqual(a.context.text(), c.context.text());
  assert.equal(a.question, c.question);
});

test('3.5m reuses the pool and records the reuse factor, without building the text', async () => {
  const [big] = parseLengths('3.5m');
  const s = (await task(42)).build(big, 0);
  assert.ok(s.context.tokenCount <= big.value && big.value - s.context.tokenCount < 600);
  assert.ok((s.metadata.reuse_factor as number) > 1, `reuse ${s.metadata.reuse_factor}`);
  assert.ok((s.metadata.pool_passes as number) >= 2);
});

test('placements put the two supporting paragraphs at the requested relative positions', async () => {
  const [d100] = parseLengths('docs:100');
  for (const [p, expected] of [
    ['0-100', [1, 100]],
    ['20-80', [21, 80]],
    ['40-60', [41, 60]],
    ['0-20', [1, 21]],
    ['80-100', [80, 100]],
  ] as const) {
    const s = (await task(42, p)).build(d100, 4);
    assert.deepEqual(
      [...(s.metadata.gold_docs as number[])].sort((x, y) => x - y),
      expected,
      p,
    );
  }
  const probe = await ctxDistTask.prepare({ tokenizer, seed: 42, options: {} });
  const first = probe.build(d100, 0);
  const second = probe.build(d100, 1);
  assert.equal(first.metadata.placement, '0-100');
  assert.equal(second.metadata.placement, '20-80');
  assert.equal(first.question, second.question);
});
