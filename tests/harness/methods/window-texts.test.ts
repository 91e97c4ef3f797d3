import { test } from 'vitest';
import assert from 'node:assert/strict';
import { parseLengths } from '../../../harness/config/lengths.js';
import { skipWindows, windowTexts } from '../../../harness/methods/windows.js';
import { loadTokenizer } from '../../../harness/tokenizer/index.js';
import { roundTrips } from '../../../harness/tokenizer/round-trip.js';
import type { ContextSource } from '../../../harness/types.js';
import { rulerHqaTask } from '../../../generators/ruler-hqa/index.js';

const tokenizer = loadTokenizer('qwen2.5');

/** What memagent cut before windowTexts: every window's ids decoded at once. */
function decodedWindows(context: ContextSource, size: number, skip: number): string[] {
  return [...skipWindows(context.pieces(), size, skip)].map((w) => tokenizer.decode(w));
}

function contextOf(texts: string[], withTexts: boolean): ContextSource {
  const ids = texts.map((t) => tokenizer.encode(t));
  return {
    tokenCount: ids.reduce((n, x) => n + x.length, 0),
    pieces: () => ids,
    ...(withTexts ? { pieceTexts: () => texts } : {}),
    text: () => texts.join(''),
  };
}

test('windows cut inside multi-byte characters give the same text as decoding each window at once', () => {
  // Emoji and CJK take several byte-level tokens each, so small windows cut inside characters (U+FFFD at the cut).
  const texts = ['Document 1:\n', 'Café 😀 naïve ', '東京タワー 🎉🎉\n\n', 'plain ascii text.', ' \u00e9\u{1f600}'];
  const context = contextOf(texts, true);
  for (let size = 1; size <= 9; size++)
    for (let skip = 0; skip <= 3; skip++) {
      const got = [...windowTexts(context, size, skip, tokenizer)];
      const want = decodedWindows(context, size, skip);
      assert.deepEqual(
        got.map((w) => w.text),
        want,
        `size ${size}, skip ${skip}`,
      );
      assert.deepEqual(
        got.map((w) => w.tokens),
        [...skipWindows(context.pieces(), size, skip)].map((w) => w.length),
      );
    }
  assert.ok(
    decodedWindows(context, 1, 0).some((t) => t.includes('\ufffd')),
    'no window cut a character',
  );
});

test('a context without piece texts is decoded window by window', () => {
  const context = contextOf(['one two three ', 'four five'], false);
  assert.deepEqual(
    [...windowTexts(context, 2, 1, tokenizer)].map((w) => w.text),
    decodedWindows(context, 2, 1),
  );
});

test('texts that would not survive encoding are not trusted as piece texts', () => {
  assert.equal(roundTrips('plain'), true);
  assert.equal(roundTrips('caf\u00e9 \u{1f600}'), true);
  assert.equal(roundTrips('cafe\u0301'), false); // NFD: Qwen's encoder composes it
  assert.equal(roundTrips('a\ud800b'), false); // a lone surrogate becomes U+FFFD
  assert.equal(roundTrips('\udc00'), false);
});

test('RULER-HQA contexts give memagent the same window texts as decoding their ids', async () => {
  const task = await rulerHqaTask.prepare({ tokenizer, seed: 7, options: {} });
  const [len] = parseLengths('32k');
  for (const index of [0, 3]) {
    const { context } = task.build(len, index);
    assert.ok(context.pieceTexts !== undefined);
    for (const [size, skip] of [
      [5000, 0],
      [5000, 2],
      [777, 5],
    ])
      assert.deepEqual(
        [...windowTexts(context, size, skip, tokenizer)].map((w) => w.text),
        decodedWindows(context, size, skip),
        `sample ${index}, size ${size}, skip ${skip}`,
      );
  }
});
