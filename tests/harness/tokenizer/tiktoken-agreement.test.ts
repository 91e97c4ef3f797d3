// Our encoder (V8 regex + heap merge) against tiktoken's WASM encoder (Rust fancy-regex + its own merge), an
// independent implementation of the same rules, for Qwen2.5 ranks and for OpenAI's encodings.
import assert from 'node:assert/strict';
import { test } from 'vitest';
import { get_encoding } from 'tiktoken';
import { Tiktoken } from 'tiktoken/lite';
import { loadTokenizer } from '../../../harness/tokenizer/index.js';
import { loadQwenVocab } from '../../../harness/tokenizer/vocab.js';
import { essays, everyKth, hotpotParagraphs } from './corpus.js';
import { EDGE_CASES, fuzzSnippets } from './snippets.js';

const qwenVocab = loadQwenVocab();
const qwenCore = new Tiktoken(qwenVocab.bpeRanks, qwenVocab.specialTokens, qwenVocab.patStr);
const o200kCore = get_encoding('o200k_base');
const cl100kCore = get_encoding('cl100k_base');

const cores = [
  { name: 'qwen2.5', nfc: true, core: qwenCore },
  { name: 'o200k_base', nfc: false, core: o200kCore },
  { name: 'cl100k_base', nfc: false, core: cl100kCore },
];

function assertSame(name: string, actual: Uint32Array, expected: Uint32Array, text: string): void {
  if (actual.length === expected.length && actual.every((id, i) => id === expected[i])) return;
  assert.deepEqual(Array.from(actual), Array.from(expected), `${name}: ${JSON.stringify(text.slice(0, 200))}`);
}

const LONE_SURROGATES = ['a\ud800b', '\udc00 x', 'end\ud83d', '\ud83d\ud83d\ude00'];

test('equal to tiktoken on edge cases, seeded snippets and lone surrogates', () => {
  const texts = [...EDGE_CASES, ...fuzzSnippets(1000, 3), ...LONE_SURROGATES];
  for (const { name, nfc, core } of cores) {
    const tok = loadTokenizer(name);
    for (const text of texts)
      assertSame(name, tok.encode(text), core.encode_ordinary(nfc ? text.normalize('NFC') : text), text);
  }
});

test('equal to tiktoken on real English as one long string', () => {
  const text = [...essays().slice(0, 12), ...everyKth(hotpotParagraphs(), 8)].join('\n\n');
  assert.ok(text.length > 1_000_000, `${text.length} chars`);
  for (const { name, nfc, core } of cores) {
    assertSame(name, loadTokenizer(name).encode(text), core.encode_ordinary(nfc ? text.normalize('NFC') : text), name);
  }
});

test('equal to tiktoken on long runs of one character class', () => {
  const runs = [
    'a'.repeat(6000),
    ' '.repeat(4000) + 'x',
    '\n'.repeat(3000) + ' \n'.repeat(500) + 'y',
    '\u00a0'.repeat(3000) + 'b',
    '中'.repeat(3000),
    '-'.repeat(6000) + '\n'.repeat(100),
    '/\n'.repeat(2000),
    '1234567890'.repeat(500),
    'ab'.repeat(3000) + ' ' + 'x'.repeat(2000),
    '\u0301'.repeat(2000),
  ];
  for (const { name, nfc, core } of cores) {
    const tok = loadTokenizer(name);
    for (const text of runs)
      assertSame(name, tok.encode(text), core.encode_ordinary(nfc ? text.normalize('NFC') : text), text);
  }
});

test('runs of a million characters (where tiktoken panics) encode and round-trip', () => {
  const qwen = loadTokenizer('qwen2.5');
  for (const text of [
    ' '.repeat(1_000_000) + 'end',
    'a'.repeat(1_000_000),
    '!'.repeat(500_000) + '\n'.repeat(500_000),
  ]) {
    const ids = qwen.encode(text);
    assert.ok(ids.length > 0 && ids.length < text.length / 2);
    assert.equal(qwen.decode(ids), text);
  }
});

test('a 20 MB string encodes in one call, equal to encoding its parts cut before a space after a non-space', () => {
  const qwen = loadTokenizer('qwen2.5');
  const base = [...essays(), ...hotpotParagraphs()].join('\n\n');
  const text = (base + '\n\n' + base + '\n\n' + base).slice(0, 20_000_000);
  assert.ok(Buffer.byteLength(text) >= 20_000_000);
  const whole = qwen.encode(text);
  let total = 0;
  let at = 0;
  let compared = 0;
  for (const step of [1_000_003, 2_500_007, 4_000_037, 7_000_001]) {
    let cut = text.indexOf(' ', at + step);
    while (cut > 0 && /\p{White_Space}/u.test(text[cut - 1])) cut = text.indexOf(' ', cut + 1);
    if (cut < 0) break;
    const part = qwen.encode(text.slice(at, cut));
    assertSame('qwen2.5', part, whole.subarray(total, total + part.length), `part at ${at}`);
    total += part.length;
    at = cut;
    compared++;
  }
  const rest = qwen.encode(text.slice(at));
  assertSame('qwen2.5', rest, whole.subarray(total), 'last part');
  assert.equal(total + rest.length, whole.length);
  assert.equal(compared, 4);
});
