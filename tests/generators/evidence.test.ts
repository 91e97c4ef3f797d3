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

/** Occurrences of `word` as a whole word in `text`. */
const count = (text: string, word: string) => text.split(new RegExp(`(?<![a-z])${word}(?![a-z])`)).length - 1;

for (const flavour of ['memagent', 'ruler'])
  test(`cwe (${flavour}): one span per common word, from its first occurrence to its last`, async () => {
    const t = await prepare('cwe', { flavour });
    const s = t.build(tokens(8192), 2);
    const all = tokenizer.decode(concatIds(s));
    assert.deepEqual(
      s.evidence!.map((e) => /"([^"]+)"/.exec(e.label)![1]),
      s.answers,
    );
    s.answers.forEach((w, i) => {
      const text = spanText(s, i);
      const times = count(all, w);
      assert.ok(times > 1);
      assert.equal(count(text, w), times, `every "${w}" lies in its span`);
      assert.ok(text.trimEnd().endsWith(w) && new RegExp(`^ ?\\d+\\. ${w}\\b`).test(text), text.slice(0, 30));
      assert.match(s.evidence![i].label, new RegExp(`\\(${times} times`));
    });
  });

test('fwe: one span per answer word (ranks 2–4), from its first occurrence to its last', async () => {
  const t = await prepare('fwe', { flavour: 'memagent' });
  const s = t.build(tokens(8192), 0);
  const all = tokenizer.decode(concatIds(s));
  assert.equal(s.evidence!.length, s.answers.length);
  s.answers.forEach((w, i) => {
    const text = spanText(s, i).trim();
    assert.ok(text.startsWith(w) && text.endsWith(w), `${text.slice(0, 20)}…${text.slice(-20)}`);
    assert.equal(count(text, w), count(all, w));
    assert.match(s.evidence![i].label, new RegExp(`"${w}" \\(rank ${i + 2}, ${count(all, w)} times`));
  });
});

test('qa_1: the question’s paragraph; qa_2: its supporting paragraphs, each a whole document block', async () => {
  for (const [name, perSample] of [
    ['qa_1', 1],
    ['qa_2', 2],
  ] as const) {
    const t = await prepare(name, { flavour: 'memagent' });
    for (const index of [0, 3]) {
      const s = t.build(tokens(8192), index);
      assert.equal(s.evidence!.length, perSample, `${name} ${index}`);
      s.evidence!.forEach((e, i) => {
        const text = spanText(s, i);
        const doc = /\(Document (\d+)\)/.exec(e.label)![1];
        assert.ok(text.startsWith(`Document ${doc}:\n`), text.slice(0, 40));
        assert.ok(!text.slice(1).includes('\nDocument '), 'one document only');
      });
      if (name === 'qa_1')
        assert.ok(
          s.answers.some((a) => spanText(s, 0).includes(a)),
          'SQuAD: the answer is in its paragraph',
        );
    }
  }
});
