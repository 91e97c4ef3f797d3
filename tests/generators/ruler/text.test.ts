// Prompt strings, sentence splitting, RNG and task shapes.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { joinQueries, needleSentence, promptText } from '../../../generators/ruler/text.js';
import { endsSentence, sentenceEnds, splitSentences } from '../../../generators/ruler/sentences.js';
import { DEPTHS, NIAH_SPECS } from '../../../generators/ruler/spec.js';
import { drawDepths, drawNiah } from '../../../generators/ruler/build.js';
import { loadWordLists } from '../../../generators/ruler/keys.js';
import { Rng, rngFor, uuid4 } from '../../../harness/util/rng.js';

test('depth grid is round(linspace(0, 100, 40))', () => {
  assert.equal(DEPTHS.length, 40);
  assert.deepEqual(DEPTHS.slice(0, 6), [0, 3, 5, 8, 10, 13]);
  assert.deepEqual(DEPTHS.slice(-3), [95, 97, 100]);
});

test('needle, singular and plural prompts, query join', () => {
  assert.equal(
    needleSentence('numbers', 'calm-river', '1234567'),
    'One of the special magic numbers for calm-river is: 1234567.',
  );
  const one = promptText('numbers', ['calm-river'], 1);
  assert.equal(
    one.preamble,
    'A special magic number is hidden within the following text. Make sure to memorize it. I will quiz you about the number afterwards.',
  );
  assert.equal(one.question, 'What is the special magic number for calm-river mentioned in the provided text?');
  assert.equal(one.answerPrefix, ' The special magic number for calm-river mentioned in the provided text is');
  const many = promptText('numbers', ['a-b', 'c-d', 'e-f', 'g-h'], 1);
  assert.equal(
    many.question,
    'What are all the special magic numbers for a-b, c-d, e-f, and g-h mentioned in the provided text?',
  );
  assert.equal(
    many.answerPrefix,
    ' The special magic numbers for a-b, c-d, e-f, and g-h mentioned in the provided text are',
  );
  assert.ok(promptText('uuids', ['k'], 4).preamble.startsWith('Some special magic uuids are hidden'));
  assert.equal(joinQueries(['x', 'y']), 'x, and y');
  // Keys with "are" inside must survive singularisation (it is applied before the key is filled in).
  assert.ok(promptText('numbers', ['rare-area'], 1).question.includes('rare-area'));
});

test('sentence splitter', () => {
  const words =
    'He met Dr. Smith at 5 p.m. today. Then J. R. left! "Why?" she asked. 2010 was odd. e.g. this. End.'.split(' ');
  const sents = splitSentences(words).map((s) => s.join(' '));
  assert.deepEqual(sents, [
    'He met Dr. Smith at 5 p.m. today.',
    'Then J. R. left!',
    '"Why?" she asked.',
    '2010 was odd. e.g. this.',
    'End.',
  ]);
  assert.equal(endsSentence('end.', 'The'), true);
  assert.equal(endsSentence('end.', 'the'), false);
  // The seam between two copies is judged like any other pair.
  assert.deepEqual([...sentenceEnds(['Alpha', 'beta.', 'Gamma', 'delta.'])], [1, 3]);
  assert.deepEqual([...sentenceEnds(['alpha', 'beta.', 'gamma', 'delta.'])], []);
});

test('rng: deterministic streams, ranges, sampling without replacement, uuid4', () => {
  const a = rngFor('x', 1, 2);
  const b = rngFor('x', 1, 2);
  const seqA = Array.from({ length: 20 }, () => a.nextUint32());
  assert.deepEqual(
    Array.from({ length: 20 }, () => b.nextUint32()),
    seqA,
  );
  assert.notDeepEqual(
    Array.from({ length: 20 }, () => rngFor('x', 12).nextUint32()),
    seqA,
    '("x",1,2) differs from ("x",12)',
  );
  const r = new Rng(1, 2, 3, 4);
  const counts = new Array(7).fill(0);
  for (let i = 0; i < 7000; i++) {
    const v = r.int(3, 9);
    assert.ok(v >= 3 && v <= 9);
    counts[v - 3]++;
  }
  for (const c of counts) assert.ok(c > 800 && c < 1200, `uniform-ish: ${counts}`);
  for (const [n, k] of [
    [10, 10],
    [100, 3],
    [40, 4],
  ]) {
    const s = r.sampleIndices(n, k);
    assert.equal(new Set(s).size, k);
    assert.ok(s.every((x) => x >= 0 && x < n));
  }
  assert.throws(() => r.sampleIndices(3, 4), RangeError);
  const f = r.float();
  assert.ok(f >= 0 && f < 1);
  const u = uuid4(r);
  assert.match(u, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  const big = r.below(2 ** 40);
  assert.ok(Number.isInteger(big) && big >= 0 && big < 2 ** 40);
});

test('depth decks: every 40 needles cover the grid; each sample draws without replacement', () => {
  for (const k of [1, 4]) {
    const seen: number[] = [];
    for (let i = 0; i < 40 / k; i++) {
      const d = drawDepths('t', 42, 32768, i, k, rngFor('unused'));
      assert.equal(new Set(d).size, k);
      seen.push(...d);
    }
    assert.deepEqual(
      seen.sort((a, b) => a - b),
      [...DEPTHS],
    );
  }
});

test('draws: keys distinct, values distinct, answers follow the queries', () => {
  const words = loadWordLists();
  assert.ok(words.adjectives.length > 900 && words.nouns.length > 6000);
  assert.ok(words.adjectives.every((w) => /^[a-z]+$/.test(w)));
  for (const spec of NIAH_SPECS) {
    const d = drawNiah(spec, words, 42, 32768, 9);
    assert.equal(d.keys.length, spec.keys);
    assert.equal(new Set(d.keys).size, spec.keys);
    assert.equal(d.needles.length, spec.keys * spec.valuesPerKey);
    assert.equal(new Set(d.needles.map((n) => n.value)).size, d.needles.length);
    assert.equal(d.queries.length, spec.queries);
    assert.equal(d.answers.length, spec.queries * spec.valuesPerKey);
    const keyPattern = spec.keyKind === 'words' ? /^[a-z]+-[a-z]+$/ : /^[0-9a-f-]{36}$/;
    const valuePattern = spec.valueKind === 'numbers' ? /^[1-9]\d{6}$/ : /^[0-9a-f-]{36}$/;
    for (const n of d.needles) {
      assert.match(n.key, keyPattern);
      assert.match(n.value, valuePattern);
    }
  }
});
