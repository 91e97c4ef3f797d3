// Same (task, seed, length, index) → the same sample; another seed or index → a different one.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { loadTokenizer } from '../../../harness/tokenizer/index.js';
import { niahTasks } from '../../../generators/ruler/index.js';
import type { LengthTarget, GeneratedSample } from '../../../harness/types.js';
import { UserError } from '../../../harness/errors.js';

const tokenizer = loadTokenizer('qwen2.5');
const L8k: LengthTarget = { kind: 'tokens', value: 8192, label: '8k' };

function snapshot(s: GeneratedSample): string {
  return JSON.stringify({ ...s, context: s.context.text(), tokens: s.context.tokenCount });
}

for (const task of niahTasks) {
  test(`${task.name}: deterministic per seed, different across seeds`, async () => {
    const a = await task.prepare({ tokenizer, seed: 42, options: {} });
    const b = await task.prepare({ tokenizer, seed: 42, options: {} });
    const c = await task.prepare({ tokenizer, seed: 43, options: {} });
    for (const i of [0, 5]) {
      const first = snapshot(a.build(L8k, i));
      assert.equal(snapshot(b.build(L8k, i)), first, 'same seed, fresh prepare');
      assert.equal(snapshot(a.build(L8k, i)), first, 'same seed, built twice');
      assert.notEqual(snapshot(c.build(L8k, i)), first, 'another seed');
    }
    assert.notEqual(snapshot(a.build(L8k, 1)), snapshot(a.build(L8k, 2)), 'another index');
  });
}

test('a length too small for the prompt is a UserError, promptly', async () => {
  const prepared = await niahTasks
    .find((t) => t.name === 'niah_multikey_3')!
    .prepare({ tokenizer, seed: 1, options: {} });
  assert.throws(
    () => prepared.build({ kind: 'tokens', value: 200, label: '200' }, 0),
    (e: unknown) => e instanceof UserError && /does not fit in 200/.test(e.message),
  );
  const essay = await niahTasks.find((t) => t.name === 'niah_multiquery')!.prepare({ tokenizer, seed: 1, options: {} });
  assert.throws(() => essay.build({ kind: 'tokens', value: 200, label: '200' }, 0), UserError);
  assert.throws(
    () => essay.build({ kind: 'docs', value: 50, label: 'docs:50' }, 0),
    (e: unknown) => e instanceof UserError && /not docs:50; docs: lengths are for document-count tasks/.test(e.message),
  );
});

test('small targets still fit: 1k builds and stays within the budget', async () => {
  for (const task of niahTasks) {
    const prepared = await task.prepare({ tokenizer, seed: 3, options: {} });
    const s = prepared.build({ kind: 'tokens', value: 1024, label: '1k' }, 0);
    assert.ok((s.metadata.prompt_tokens as number) + 128 <= 1024, task.name);
    assert.equal(
      tokenizer.count(s.prompt!.nativeTemplate!.replace('{context}', () => s.context.text()) + s.prompt!.answerPrefix),
      s.metadata.prompt_tokens,
      task.name,
    );
  }
});

test('task definitions', () => {
  assert.deepEqual(
    niahTasks.map((t) => t.name),
    [
      'niah_single_1',
      'niah_single_2',
      'niah_single_3',
      'niah_multikey_1',
      'niah_multikey_2',
      'niah_multikey_3',
      'niah_multivalue',
      'niah_multiquery',
    ],
  );
  for (const t of niahTasks) {
    assert.equal(t.metric, 'memagent_niah');
    assert.equal(t.defaultSamples, 128);
    assert.equal(t.defaultLengths, '8k..512k');
    assert.equal(t.acceptsDocCounts, false);
  }
});
