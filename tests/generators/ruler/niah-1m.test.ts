// Every NIAH variant at 1m (2 samples each by default; NIAH_1M_SAMPLES=128 for the full check behind the note).
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { loadTokenizer } from '../../../harness/tokenizer/index.js';
import { niahTasks } from '../../../generators/ruler/index.js';
import type { LengthTarget } from '../../../harness/types.js';
import { checkNeedles, concatIds, fullPrompt, needlesOf, sameIds } from './helpers.js';

const tokenizer = loadTokenizer('qwen2.5');
const L1m: LengthTarget = { kind: 'tokens', value: 1048576, label: '1m' };
const SAMPLES = Number(process.env.NIAH_1M_SAMPLES ?? 2);

for (const task of niahTasks) {
  test(`${task.name} at 1m: needles, distractors and budget`, async () => {
    const prepared = await task.prepare({ tokenizer, seed: 42, options: {} });
    let minFill = Infinity;
    let maxFill = 0;
    const depths = new Set<number>();
    for (let i = 0; i < SAMPLES; i++) {
      const s = prepared.build(L1m, i);
      const ids = concatIds(s);
      assert.equal(ids.length, s.context.tokenCount);
      checkNeedles(s, s.context.text(), tokenizer, ids, `${task.name}/1m/${i}`);
      const used = (s.metadata.prompt_tokens as number) + 128;
      assert.ok(used <= L1m.value, `${task.name}/1m/${i}: over the budget`);
      minFill = Math.min(minFill, used / L1m.value);
      maxFill = Math.max(maxFill, used / L1m.value);
      for (const n of needlesOf(s)) depths.add(n.depth);
    }
    assert.ok(minFill >= 0.99, `${task.name}: a prompt uses only ${(minFill * 100).toFixed(3)}% of the budget`);
    if (process.env.NIAH_1M_SAMPLES) {
      console.log(
        `${task.name} 1m: ${SAMPLES} samples, budget use ${(minFill * 100).toFixed(3)}%..${(maxFill * 100).toFixed(3)}%, ${depths.size} depths`,
      );
    }
  });
}

test('at 1m the streamed ids equal the full encoding (one sample per haystack kind)', async () => {
  for (const name of ['niah_single_1', 'niah_single_2', 'niah_multikey_2']) {
    const prepared = await niahTasks.find((t) => t.name === name)!.prepare({ tokenizer, seed: 7, options: {} });
    const s = prepared.build(L1m, 3);
    const text = s.context.text();
    assert.ok(sameIds(tokenizer.encode(text), concatIds(s)), `${name}/1m/3: ids`);
    assert.equal(tokenizer.count(fullPrompt(s, text)), s.metadata.prompt_tokens, `${name}/1m/3: prompt tokens`);
  }
});
