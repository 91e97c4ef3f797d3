import { test } from 'vitest';
import assert from 'node:assert/strict';
import { asciiDigitRun, asciiPieceEnd } from '../../../harness/tokenizer/ascii-split.js';
import { toJsRegExp } from '../../../harness/tokenizer/pattern.js';
import { loadQwenVocab, loadTiktokenVocab } from '../../../harness/tokenizer/vocab.js';
import { rngFor } from '../../../harness/util/rng.js';

function regexPieces(re: RegExp, s: string): string[] {
  return [...s.matchAll(re)].map((m) => m[0]);
}

function handPieces(s: string, digits: number): string[] {
  const out: string[] = [];
  for (let at = 0; at < s.length;) {
    const end = asciiPieceEnd(s, at, digits);
    assert.ok(end > at, `no progress at ${at} of ${JSON.stringify(s)}`);
    out.push(s.slice(at, end));
    at = end;
  }
  return out;
}

// Runs of every class boundary the pattern has: contractions (any case), letters, digits, spaces before
// punctuation, CR/LF inside white space, white space at the end and before text, control characters.
const PARTS = [
  "'",
  's',
  'S',
  't',
  're',
  'RE',
  'Ve',
  'm',
  'll',
  'LL',
  'd',
  'x',
  'Word',
  '7',
  '42',
  '1234',
  ' ',
  '  ',
  '\t',
  '\n',
  '\r\n',
  '\v',
  '\f',
  '.',
  ',',
  '(',
  ')',
  '...',
  '-',
  '"',
  '\x00',
  '\x1f',
  '\x7f',
  '#',
  '>>',
  '{',
];

for (const vocab of [loadQwenVocab(), loadTiktokenVocab('cl100k_base')]) {
  test(`the ASCII splitter gives the ${vocab.name} pattern's pieces on ASCII text`, () => {
    const digits = asciiDigitRun(vocab.patStr);
    assert.ok(digits !== undefined, `${vocab.name}'s pattern is one the splitter runs`);
    const re = toJsRegExp(vocab.patStr);
    const rng = rngFor('ascii-split-test', vocab.name);
    const cases = [
      "Scott Derrickson's film, 1966.\n\n#0 It's 'RE' they'll\t \n  x",
      '',
      ' ',
      '\n',
      '  \n  ',
      'a  ',
      "'",
    ];
    for (let i = 0; i < 4000; i++) {
      let s = '';
      const n = rng.int(1, 24);
      for (let k = 0; k < n; k++)
        s += i % 2 ? PARTS[rng.int(0, PARTS.length - 1)] : String.fromCharCode(rng.int(0, 127));
      cases.push(s);
    }
    for (const s of cases) assert.deepEqual(handPieces(s, digits), regexPieces(re, s), JSON.stringify(s));
  });
}

test('o200k_base has another pattern: the splitter does not claim it', () => {
  assert.equal(asciiDigitRun(loadTiktokenVocab('o200k_base').patStr), undefined);
});
