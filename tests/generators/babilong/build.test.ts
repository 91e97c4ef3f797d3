// BABILong's contexts: the facts in order between background sentences, the budget met exactly (the last sentence
// cut), pieces that stream the same text, evidence spans on the supporting facts, and the same seed giving the same
// bytes.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { BABILONG_TASK_DEFINITIONS } from '../../../generators/babilong/index.js';
import { splitSentences } from '../../../generators/babilong/books.js';
import { messageTokens, babilongLengthName, maxRows } from '../../../generators/babilong/lengths.js';
import { parseLengths } from '../../../harness/config/lengths.js';
import { loadTokenizer } from '../../../harness/tokenizer/index.js';
import type { PreparedTask } from '../../../harness/types.js';

const tokenizer = loadTokenizer();
const qa2 = BABILONG_TASK_DEFINITIONS.find((t) => t.name === 'qa2')!;
const len = (s: string) => parseLengths(s)[0];
const prepare = (seed = 7, options: Record<string, string> = {}): Promise<PreparedTask> => qa2.prepare({ tokenizer, seed, options });

test("BABILong's lengths: k is 1,000, M 1,000,000, 300 tokens left to the prompt, 0k the facts alone", () => {
  assert.equal(messageTokens(len('4k')), 3700);
  assert.equal(messageTokens(len('1m')), 999_700);
  assert.equal(messageTokens(len('10m')), 9_999_700);
  assert.equal(messageTokens(len('0k')), 0);
  assert.equal(babilongLengthName(len('10m')), '10M');
  assert.equal(maxRows(len('1k')), 87);
  assert.equal(maxRows(len('0k')), undefined);
  assert.deepEqual(parseLengths('0k..8k').map((l) => l.label), ['0k', '1k', '2k', '4k', '8k']);
});

test('a context holds the facts in order, meets its budget, and its pieces stream its text', async () => {
  const p = await prepare();
  const s = p.build(len('8k'), 3);
  // The budget exactly, but for the first piece encoded again without its leading space (a token may merge).
  assert.ok(Math.abs(s.context.tokenCount - messageTokens(len('8k'))) <= 1, `${s.context.tokenCount} tokens`);
  const text = s.context.text();
  const facts = (s.metadata.fact_positions as number[]).length;
  assert.equal(facts, s.metadata.facts);
  let at = 0;
  // every fact of the story, in order
  const story = p.build(len('0k'), 3).context.text();
  for (const f of splitSentences(story)) {
    const i = text.indexOf(f, at);
    assert.ok(i >= at, `fact '${f}' missing or out of order`);
    at = i + f.length;
  }
  const pieces = [...s.context.pieces()];
  assert.equal(pieces.reduce((n, x) => n + x.length, 0), s.context.tokenCount);
  assert.deepEqual([...s.context.pieceTexts!()], pieces.map((x) => tokenizer.decode(x)));
  assert.equal(text, text.trimStart());
  assert.ok(s.evidence!.length >= 1);
  const ids = Uint32Array.from(pieces.flatMap((x) => [...x]));
  for (const e of s.evidence!)
    assert.equal(tokenizer.decode(ids.subarray(e.start, e.end)).trim(), e.label.replace('supporting fact: ', ''));
});

test('0k is the facts alone, joined by spaces', async () => {
  const s = (await prepare()).build(len('0k'), 0);
  assert.equal(s.metadata.background_sentences, 0);
  assert.match(s.context.text(), /^[A-Z][^.]*\.( [A-Z][^.]*\.)*$/);
  assert.equal(s.answers.length, 1);
});

test('the same seed gives the same bytes; another seed another sample', async () => {
  const a = (await prepare(7)).build(len('4k'), 2);
  const b = (await prepare(7)).build(len('4k'), 2);
  const c = (await prepare(8)).build(len('4k'), 2);
  assert.equal(a.context.text(), b.context.text());
  assert.deepEqual(a.metadata, b.metadata);
  assert.notEqual(a.context.text(), c.context.text());
});

test('the same question at every length where it fits', async () => {
  const p = await prepare();
  const q = [len('16k'), len('128k'), len('1m')].map((l) => p.build(l, 5).question + p.build(l, 5).answers[0]);
  assert.equal(new Set(q).size, 1);
});
