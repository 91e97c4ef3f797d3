// The Tokenizer contract: names, caching, errors, round trips, windows, counts, manifest info.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'vitest';
import { UserError } from '../../../harness/errors.js';
import { DEFAULT_TOKENIZER, TOKENIZER_NAMES, loadTokenizer, tokenizerInfo } from '../../../harness/tokenizer/index.js';
import { packageRoot } from '../../../harness/paths.js';
import { essays, everyKth, hotpotParagraphs } from './corpus.js';
import { EDGE_CASES, fuzzSnippets } from './snippets.js';

test('names, default and aliases', () => {
  assert.deepEqual([...TOKENIZER_NAMES], ['qwen2.5', 'o200k_base', 'cl100k_base', 'gpt-4o']);
  assert.equal(DEFAULT_TOKENIZER, 'qwen2.5');
  assert.equal(loadTokenizer().id, 'qwen2.5');
  assert.equal(loadTokenizer('qwen2.5'), loadTokenizer(), 'one instance per name');
  assert.equal(loadTokenizer('gpt-4o'), loadTokenizer('o200k_base'), 'gpt-4o is o200k_base');
  assert.equal(loadTokenizer('gpt-4o').id, 'o200k_base');
  assert.equal(loadTokenizer('cl100k_base').id, 'cl100k_base');
});

test('an unknown name throws UserError with the names to use', () => {
  assert.throws(
    () => loadTokenizer('llama3'),
    (err: unknown) =>
      err instanceof UserError &&
      err.message === "unknown tokenizer 'llama3': use one of qwen2.5, o200k_base, cl100k_base, gpt-4o",
  );
  assert.throws(() => tokenizerInfo('Qwen2.5'), UserError);
});

test('tokenizerInfo gives the id, source and the sha256 recorded in datasets/tokenizers/README.md', () => {
  const info = tokenizerInfo('qwen2.5');
  const dir = join(packageRoot(), 'datasets', 'tokenizers');
  const actual = createHash('sha256')
    .update(readFileSync(join(dir, 'qwen2.5.tiktoken.json.gz')))
    .digest('hex');
  assert.equal(info.id, 'qwen2.5');
  assert.equal(info.sha256, actual);
  assert.ok(readFileSync(join(dir, 'README.md'), 'utf8').includes(actual), 'README states the current sha256');
  assert.match(info.source, /@lenml\/tokenizer-qwen2_5@[\d.]+ models\/tokenizer\.json/);
  const o200k = tokenizerInfo('gpt-4o');
  assert.equal(o200k.id, 'o200k_base');
  assert.match(o200k.source, /^tiktoken@[\d.]+ encoders\/o200k_base\.json$/);
  assert.match(o200k.sha256, /^[0-9a-f]{64}$/);
});

test('decode(encode(x)) is x in NFC, for every tokenizer', () => {
  const texts = [...EDGE_CASES, ...fuzzSnippets(500, 11), ...everyKth(hotpotParagraphs(), 50), essays()[1]];
  for (const name of ['qwen2.5', 'o200k_base', 'cl100k_base']) {
    const tok = loadTokenizer(name);
    for (const text of texts) {
      const expected = name === 'qwen2.5' ? text.normalize('NFC') : text;
      assert.equal(tok.decode(tok.encode(text)), expected, `${name}: ${JSON.stringify(text.slice(0, 200))}`);
    }
  }
  // NFC changes these; only Qwen normalises.
  assert.equal(loadTokenizer().decode(loadTokenizer().encode('cafe\u0301 \u212b')), 'caf\u00e9 \u00c5');
  assert.equal(loadTokenizer('o200k_base').decode(loadTokenizer('o200k_base').encode('cafe\u0301')), 'cafe\u0301');
});

test('a window cut inside a multi-byte character decodes to U+FFFD; the whole decodes to the character', () => {
  const qwen = loadTokenizer();
  const text = 'x 𝔘𝔫𝔦 y';
  const ids = Array.from(qwen.encode(text));
  let cutInside = 0;
  for (let k = 1; k < ids.length; k++) {
    const head = qwen.decode(ids.slice(0, k));
    const tail = qwen.decode(ids.slice(k));
    if (head.includes('\uFFFD')) {
      cutInside++;
      assert.ok(tail.startsWith('\uFFFD'), `the other side of cut ${k} starts with U+FFFD too`);
    } else {
      assert.equal(head + tail, text);
    }
  }
  assert.ok(cutInside >= 2, 'this text has cuts inside characters');
  assert.equal(qwen.decode(ids), text);
  // A leading BOM is text, not a byte-order mark to drop.
  assert.equal(qwen.decode(qwen.encode('\ufeffBOM')), '\ufeffBOM');
});

test('count() equals encode().length', () => {
  for (const name of ['qwen2.5', 'gpt-4o']) {
    const tok = loadTokenizer(name);
    for (const text of [...EDGE_CASES, ...everyKth(hotpotParagraphs(), 200)]) {
      assert.equal(tok.count(text), tok.encode(text).length);
    }
  }
});

test('decode accepts number[] and Uint32Array, decodes special ids, and rejects ids outside the vocabulary', () => {
  const qwen = loadTokenizer();
  assert.equal(qwen.decode([151644, 872, 198, 6023, 151645]), '<|im_start|>user\nhi<|im_end|>');
  assert.equal(qwen.decode(Uint32Array.from([9707, 1879])), 'Hello world');
  assert.equal(qwen.decode([]), '');
  assert.equal(qwen.encode('').length, 0);
  assert.throws(() => qwen.decode([151665]), RangeError);
  assert.throws(() => qwen.decode([-1]), RangeError);
  assert.throws(() => loadTokenizer('o200k_base').decode([199998]), RangeError);
  assert.equal(loadTokenizer('o200k_base').decode([199999]), '<|endoftext|>');
});
