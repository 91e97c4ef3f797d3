import { test } from 'vitest';
import assert from 'node:assert/strict';
import { loadTokenizer } from '../../../harness/tokenizer/index.js';
import { skipWindows, windowTexts } from '../../../harness/methods/windows.js';
import type { ContextSource, DecodedPiece } from '../../../harness/types.js';

const tokenizer = loadTokenizer('qwen2.5');

// Paragraphs with multi-byte characters, so that window cuts fall inside characters (decoded as U+FFFD).
const paragraphs = [
  'Document 1:\n',
  'Zoë Saldaña starred in Avatar (2009), filmed in Wellington — 新西兰.\n\n',
  'Document 2:\n',
  'Ångström units; naïve café résumé 東京都 😀 emoji and plain ASCII text follow here.\n\n',
  'Document 3:\n',
  'Short.',
];

function source(withTexts: boolean): ContextSource {
  const pieces: DecodedPiece[] = paragraphs.map((p) => {
    const ids = tokenizer.encode(p);
    return { ids, text: tokenizer.decode(ids) };
  });
  return {
    tokenCount: pieces.reduce((n, p) => n + p.ids.length, 0),
    pieces: () => pieces.map((p) => p.ids),
    ...(withTexts ? { decodedPieces: () => pieces } : {}),
    text: () => pieces.map((p) => p.text).join(''),
  };
}

test('windowTexts from decoded pieces equals decoding each window of ids, at every size and skip', () => {
  const src = source(true);
  let cutInsideChar = false;
  for (let size = 1; size <= src.tokenCount + 1; size++) {
    for (let skip = 0; skip <= 3; skip++) {
      const expected = [...skipWindows(src.pieces(), size, skip)].map((w) => ({
        tokens: w.length,
        text: tokenizer.decode(w),
      }));
      if (expected.some((w) => w.text.includes('\uFFFD'))) cutInsideChar = true;
      assert.deepEqual([...windowTexts(src, size, skip, tokenizer)], expected, `size ${size}, skip ${skip}`);
      assert.deepEqual([...windowTexts(source(false), size, skip, tokenizer)], expected);
    }
  }
  assert.ok(cutInsideChar, 'some window should cut a character, or the test proves nothing about cuts');
});
