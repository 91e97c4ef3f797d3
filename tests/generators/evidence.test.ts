// Sample.evidence: each span's token ids decode to the evidence it names: a supporting paragraph's document, a
// queried needle, a vt chain statement.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { loadTokenizer } from '../../harness/tokenizer/index.js';
import { rulerHqaTask } from '../../generators/ruler-hqa/index.js';
import { niahTasks } from '../../generators/ruler/index.js';
import { prepare, tokens } from './ruler/synthetic-helpers.js';
import type { GeneratedSample } from '../../harness/types.js';
import { concatIds } from '../helpers/context.js';

const tokenizer = loadTokenizer('qwen2.5');
const spanText = (s: GeneratedSample, i: number) => {
  const ids = concatIds(s);
  const e = s.evidence![i];
  return tokenizer.decode(ids.subarray(e.start, e.end));
};

test('ruler-hqa: one span per supporting paragraph, each its whole document block', async () => {
  const t = await rulerHqaTask.prepare({ tokenizer, seed: 42, options: {} });
  for (const index of [0, 1, 5]) {
    const s = t.build(tokens(16384), index);
    const gold = s.metadata.gold_docs as number[];
    assert.equal(s.evidence!.length, gold.length);
    s.evidence!.forEach((e, i) => {
      const text = spanText(s, i);
      assert.ok(text.startsWith(`Document ${gold[i]}:\n`), text.slice(0, 40));
      assert.ok(!text.slice(1).includes('\nDocument '), 'one document only');
      assert.equal(e.start, (s.metadata.gold_token_offsets as number[])[i]);
    });
  }
});

test('niah: one span per queried needle, holding its value', async () => {
  const spec = niahTasks.find((t) => t.name === 'niah_multikey_1')!;
  const t = await spec.prepare({ tokenizer, seed: 42, options: {} });
  const s = t.build(tokens(8192), 0);
  assert.equal(s.evidence!.length, s.answers.length);
  s.answers.forEach((a, i) => assert.ok(spanText(s, i).includes(a), `${a} in ${spanText(s, i)}`));
});

test('vt: one span per chain statement, in chain order', async () => {
  const t = await prepare('vt', { flavour: 'memagent' });
  const s = t.build(tokens(8192), 1);
  const chain = s.metadata.chain as string[];
  assert.equal(s.evidence!.length, chain.length);
  chain.forEach((name, i) => assert.match(spanText(s, i), new RegExp(`VAR ${name} = `)));
});
