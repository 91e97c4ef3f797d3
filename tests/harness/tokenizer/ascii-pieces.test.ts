import { test } from 'vitest';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { QWEN2_PATTERN, isAscii, qwenAsciiPieceEnd } from '../../../harness/tokenizer/ascii-pieces.js';
import { toJsRegExp } from '../../../harness/tokenizer/pattern.js';
import { loadQwenVocab } from '../../../harness/tokenizer/vocab.js';
import { rngFor } from '../../../harness/util/rng.js';

const regex = toJsRegExp(QWEN2_PATTERN);

function byRegex(s: string): string[] {
  return [...s.matchAll(regex)].map((m) => m[0]);
}

function byHand(s: string): string[] {
  const out: string[] = [];
  for (let at = 0; at < s.length; ) {
    const end = qwenAsciiPieceEnd(s, at);
    assert.ok(end > at, `no progress at ${at} in ${JSON.stringify(s)}`);
    out.push(s.slice(at, end));
    at = end;
  }
  return out;
}

test('the hand-run pattern is the vocabulary file’s own', () => {
  assert.equal(loadQwenVocab().patStr, QWEN2_PATTERN);
});

// Every character class the pattern tells apart, and the letters of its contractions.
const ALPHABET = ["'", 's', 'S', 't', 'l', 'L', 'r', 'e', 'v', 'm', 'd', 'x', '7', ' ', '\t', '\n', '\r', '\x0b', '.', '(', '\x01'];

test('hand-run pieces equal the regex on every string of up to 4 characters over a stressing alphabet, and on 20,000 longer ones', () => {
  const k = ALPHABET.length;
  let checked = 0;
  for (let len = 1; len <= 4; len++) {
    const idx = new Array<number>(len).fill(0);
    for (;;) {
      const s = idx.map((i) => ALPHABET[i]).join('');
      assert.deepEqual(byHand(s), byRegex(s), JSON.stringify(s));
      checked++;
      let p = len - 1;
      while (p >= 0 && ++idx[p] === k) idx[p--] = 0;
      if (p < 0) break;
    }
  }
  assert.equal(checked, [1, 2, 3, 4].reduce((n, l) => n + k ** l, 0));
  const rng = rngFor('ascii-pieces', 'short');
  for (let t = 0; t < 20_000; t++) {
    let s = '';
    for (let i = 5 + rng.below(6); i > 0; i--) s += ALPHABET[rng.below(k)];
    assert.deepEqual(byHand(s), byRegex(s), JSON.stringify(s));
  }
});

test('hand-run pieces equal the regex on long random ASCII and on real essays', () => {
  const rng = rngFor('ascii-pieces');
  for (let t = 0; t < 300; t++) {
    let s = '';
    const len = 1 + rng.below(400);
    for (let i = 0; i < len; i++) {
      s += rng.float() < 0.7 ? ALPHABET[rng.below(ALPHABET.length)] : String.fromCharCode(rng.below(128));
    }
    assert.deepEqual(byHand(s), byRegex(s), JSON.stringify(s));
  }
  const dir = join(process.cwd(), 'datasets', 'essays', 'paul_graham');
  const essays = readdirSync(dir)
    .slice(0, 8)
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .filter(isAscii);
  assert.ok(essays.length > 0, 'no ASCII essay to check');
  for (const e of essays) assert.deepEqual(byHand(e), byRegex(e));
});

test('isAscii', () => {
  assert.equal(isAscii('plain text\n\t~'), true);
  assert.equal(isAscii('café'), false);
  assert.equal(isAscii('\x7f'), true);
  assert.equal(isAscii('\x80'), false);
});
