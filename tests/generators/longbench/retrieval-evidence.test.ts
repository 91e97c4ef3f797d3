// passage_retrieval's answer names its paragraph: the sample marks that paragraph as evidence, a token span that
// decodes to the block from its header to the next one.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { longbenchTasks } from '../../../generators/longbench/index.js';
import { retrievalEvidence, retrievalParagraph } from '../../../generators/longbench/retrieval-evidence.js';
import { loadTokenizer } from '../../../harness/tokenizer/index.js';
import type { LengthTarget } from '../../../harness/types.js';

const tokenizer = loadTokenizer('qwen2.5');
const ALL: LengthTarget = { kind: 'native', value: 0, label: 'all' };

test('the named paragraph runs from its header to the next header, in English and Chinese', () => {
  const en = 'Paragraph 1: Alpha text.\nParagraph 2: Beta text here.\nParagraph 3: Gamma.';
  const p = retrievalParagraph(en, 'Paragraph 2')!;
  assert.equal(en.slice(p.start, p.end), 'Paragraph 2: Beta text here.\n');
  assert.equal(en.slice(retrievalParagraph(en, 'Paragraph 3')!.start), 'Paragraph 3: Gamma.');
  assert.equal(retrievalParagraph(en, 'Paragraph 4'), undefined);
  assert.equal(retrievalParagraph(en, 'the second one'), undefined);
  const zh = '段落1：甲。\n段落2：乙丙。\n段落3：丁。';
  const q = retrievalParagraph(zh, '段落2')!;
  assert.equal(zh.slice(q.start, q.end), '段落2：乙丙。\n');
  const [span] = retrievalEvidence(en, ['Paragraph 2'], tokenizer);
  const ids = tokenizer.encode(en);
  assert.match(tokenizer.decode(ids.subarray(span.start, span.end)), /^Paragraph 2: Beta text here\.\n?$/);
});

test('passage_retrieval_zh samples carry their paragraph as evidence; other datasets keep the note', async () => {
  const task = longbenchTasks.find((t) => t.name === 'longbench/passage_retrieval_zh')!;
  const prepared = await task.prepare({ tokenizer, seed: 1, options: {} });
  for (let i = 0; i < prepared.maxSamples(ALL); i++) {
    const s = prepared.build(ALL, i);
    assert.equal(s.evidenceNote, undefined);
    assert.equal(s.evidence?.length, 1);
    const [e] = s.evidence!;
    const ids = tokenizer.encode(s.context.text());
    const text = tokenizer.decode(ids.subarray(e.start, e.end)).trim();
    assert.ok(text.startsWith(`${s.answers[0]}：`), `sample ${i}: ${text.slice(0, 20)}`);
    assert.ok(!/\n段落\d+：/.test(text), `sample ${i} holds one paragraph`);
  }
  const hotpot = longbenchTasks.find((t) => t.name === 'longbench/hotpotqa')!;
  const h = (await hotpot.prepare({ tokenizer, seed: 1, options: {} })).build(ALL, 0);
  assert.equal(h.evidence, undefined);
  assert.ok(h.evidenceNote);
});
