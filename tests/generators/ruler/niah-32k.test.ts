// Every NIAH variant at 32k over 128 samples: needles where the metadata says, distractors never carry the queried
// key, the prompt within 1% of (and never over) the budget, depths covering the grid, and streamed ids exact.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { loadTokenizer } from '../../../harness/tokenizer/index.js';
import { niahTasks } from '../../../generators/ruler/index.js';
import { DEPTHS } from '../../../generators/ruler/spec.js';
import type { LengthTarget, GeneratedSample } from '../../../harness/types.js';
import { checkNeedles, concatIds, fullPrompt, needlesOf, sameIds } from './helpers.js';

const tokenizer = loadTokenizer('qwen2.5');
const L32k: LengthTarget = { kind: 'tokens', value: 32768, label: '32k' };
const SAMPLES = 128;
const EXACT_SAMPLES = 5;

for (const task of niahTasks) {
  test(`${task.name} at 32k: 128 samples agree with their metadata and the budget`, async () => {
    const prepared = await task.prepare({ tokenizer, seed: 42, options: {} });
    const depths = new Set<number>();
    const samples: GeneratedSample[] = [];
    let minFill = Infinity;
    for (let i = 0; i < SAMPLES; i++) {
      const s = prepared.build(L32k, i);
      samples.push(s);
      assert.ok(!('id' in s), 'the runner, not the generator, names a sample');
      assert.equal(s.metric, 'memagent_niah');
      const ids = concatIds(s);
      assert.equal(ids.length, s.context.tokenCount, `${task.name}/32k/${i}: tokenCount is the sum of the pieces`);
      checkNeedles(s, s.context.text(), tokenizer, ids, `${task.name}/32k/${i}`);
      const used = (s.metadata.prompt_tokens as number) + 128;
      assert.ok(used <= 32768, `${task.name}/32k/${i}: ${used} tokens is over the budget`);
      minFill = Math.min(minFill, used / 32768);
      for (const n of needlesOf(s)) depths.add(n.depth);
    }
    assert.ok(minFill >= 0.99, `${task.name}: a prompt uses only ${(minFill * 100).toFixed(2)}% of the budget`);
    assert.deepEqual(
      [...depths].sort((a, b) => a - b),
      [...DEPTHS],
      `${task.name}: depths cover the 40-point grid`,
    );

    // Exactness against the real encoder: samples with a needle at the very start or end of the context first.
    const atStart = samples.find((s) => needlesOf(s).some((n) => n.token_offset === 0));
    const atEnd = samples.find((s) =>
      needlesOf(s).some((n) => n.token_offset + n.token_count === s.context.tokenCount),
    );
    assert.ok(atStart && atEnd, `${task.name}: some sample has a needle at each end of the context`);
    const picks = [atStart, atEnd, ...samples.filter((s) => s !== atStart && s !== atEnd).slice(0, EXACT_SAMPLES - 2)];
    for (const s of picks) {
      assert.ok(
        sameIds(concatIds(s), concatIds(s)),
        `${task.name}/32k/${samples.indexOf(s)}: pieces() can be read twice`,
      );
      const text = s.context.text();
      assert.ok(
        sameIds(tokenizer.encode(text), concatIds(s)),
        `${task.name}/32k/${samples.indexOf(s)}: streamed ids equal the encoding of the text`,
      );
      assert.equal(
        tokenizer.count(fullPrompt(s, text)),
        s.metadata.prompt_tokens,
        `${task.name}/32k/${samples.indexOf(s)}: prompt_tokens is the exact prompt count`,
      );
    }
  });
}
