import { test } from 'vitest';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadTokenizer } from '../../../harness/tokenizer/index.js';
import { LineCountCache } from '../../../harness/tokenizer/line-count.js';
import { rngFor } from '../../../harness/util/rng.js';

const tokenizer = loadTokenizer('qwen2.5');

test('line-cached counts equal direct counts on real and adversarial multi-line text', () => {
  const dir = join(process.cwd(), 'datasets', 'essays', 'paul_graham');
  let source = '';
  try {
    source = readdirSync(dir)
      .slice(0, 6)
      .map((f) => readFileSync(join(dir, f), 'utf8'))
      .join('\n');
  } catch {
    source = 'The quick brown fox. Jumps over the lazy dog!\nAnd then: it ran.';
  }
  const lines = source.split('\n');
  const odd = [
    '',
    ' ',
    '  x',
    '\t\ty',
    '.',
    '...',
    '123',
    'é',
    'e\u0301',
    '\u00a0z',
    '\u3000',
    '<|im_end|>',
    '[Doc #3] A.',
    '😀 ok',
    '\r',
    'a\r',
    "'s",
    '"quoted"',
  ];
  const rng = rngFor('line-count-test');
  const counter = new LineCountCache(tokenizer);
  // A small cache is emptied again and again: counts must not depend on what it still holds.
  const small = new LineCountCache(tokenizer, 8);
  for (let trial = 0; trial < 2000; trial++) {
    const n = 1 + rng.below(12);
    const parts: string[] = [];
    for (let i = 0; i < n; i++) parts.push(rng.below(3) === 0 ? rng.pick(odd) : rng.pick(lines));
    const text = parts.join(rng.below(4) === 0 ? '\n\n' : '\n');
    const expected = tokenizer.count(text);
    assert.equal(counter.count(text), expected, JSON.stringify(text.slice(0, 200)));
    assert.equal(small.count(text), expected, JSON.stringify(text.slice(0, 200)));
  }
});
