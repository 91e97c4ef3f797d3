// normalizeAnswer is written as one pass (harness/scorers/qa.ts); here it is checked against SQuAD's definition
// spelled as regular expressions: lower, delete string.punctuation, articles as whole words to a space, split on
// Python whitespace and join.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { normalizeAnswer } from '../../../harness/scorers/qa.js';
import { pySplit } from '../../../harness/protocol/pytext.js';

const PUNCTUATION = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;
const ARTICLES = /(?<![\p{L}\p{N}_])(?:a|an|the)(?![\p{L}\p{N}_])/gu;
const byDefinition = (s: string) =>
  pySplit(s.toLowerCase().replace(PUNCTUATION, '').replace(ARTICLES, ' ')).join(' ');

// Letters that make articles, their neighbours of every kind: punctuation (deleted, so it joins), Python and
// non-Python whitespace, non-ASCII letters and digits, non-letters, control characters, surrogate pairs, İ.
const ALPHABET = [
  'a', 'n', 't', 'h', 'e', 'A', 'THE', 'An', ' the ', ' a ', 'x', '1', '_', '.', "'", '-', '(', ')', ',', '"',
  ' ', '  ', '\t', '\n', '\x1c', '\x0b', '\x85', '\xa0', '\u2003', '\u200b', '\u3000', '\ufeff', 'é', 'É', 'ß', 'İ',
  'Σ', '٣', '²', '—', '’', '…', '\x00', '\x7f', '\ud835\udc00', '😀', '\ud800', 'ǅ', '中',
];

function random(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x = (Math.imul(x ^ (x >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0;
    return x / 2 ** 32;
  };
}

test('normalizeAnswer equals the regular-expression definition on random mixed text', () => {
  const next = random(7);
  let withArticle = 0;
  for (let n = 0; n < 20_000; n++) {
    let s = '';
    const len = 1 + Math.floor(next() * 14);
    for (let k = 0; k < len; k++) s += ALPHABET[Math.floor(next() * ALPHABET.length)];
    const expected = byDefinition(s);
    if (/(^| )(a|an|the)( |$)/i.test(s)) withArticle++;
    assert.equal(normalizeAnswer(s), expected, JSON.stringify(s));
  }
  assert.ok(withArticle > 1000, `only ${withArticle} cases held a bare article`);
});

test('normalizeAnswer equals the definition for every BMP character around an article', () => {
  for (let c = 0; c < 0x10000; c++) {
    const ch = String.fromCharCode(c);
    for (const s of [`${ch}a`, `the${ch}`, `x ${ch}an${ch} y`, `U.S.${ch}A.`]) {
      const expected = byDefinition(s);
      if (normalizeAnswer(s) !== expected) assert.fail(`U+${c.toString(16)} in ${JSON.stringify(s)}`);
    }
  }
  assert.equal(normalizeAnswer('The U.S. — an “Answer”!'), 'us — “answer”');
});
