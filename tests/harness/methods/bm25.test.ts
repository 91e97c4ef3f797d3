import { test } from 'vitest';
import assert from 'node:assert/strict';
import { BM25_B, BM25_K1, Bm25Index, TopK, terms } from '../../../harness/methods/bm25.js';

test('terms: lower-cased letter/digit runs without stopwords', () => {
  assert.deepEqual(terms('In which City was Marie-Vell born, in 1911?'), ['city', 'marie', 'vell', 'born', '1911']);
  assert.deepEqual(terms('Zürich’s café'), ['zürich', 's', 'café']);
});

test('scores follow Okapi BM25 (k1 1.2, b 0.75, Lucene idf)', () => {
  const docs = ['apple banana', 'apple apple cherry', 'durian', 'banana cherry durian fig'];
  const index = new Bm25Index('apple cherry');
  for (const d of docs) index.add(d);
  const lens = docs.map((d) => d.split(' ').length);
  const avg = lens.reduce((a, b) => a + b, 0) / lens.length;
  const n = docs.length;
  const idf = (df: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));
  const part = (tf: number, dl: number, df: number) =>
    (idf(df) * tf * (BM25_K1 + 1)) / (tf + BM25_K1 * (1 - BM25_B + (BM25_B * dl) / avg));
  const expected = [part(1, lens[0], 2), part(2, lens[1], 2) + part(1, lens[1], 2), 0, part(1, lens[3], 2)];
  for (let i = 0; i < docs.length; i++)
    assert.ok(Math.abs(index.score(i) - expected[i]) < 1e-12, `doc ${i}: ${index.score(i)} vs ${expected[i]}`);
  assert.ok(index.score(1) > index.score(0) && index.score(0) > index.score(3));
});

test('TopK keeps the best k by score, ties broken by earlier position, whatever the offer order', () => {
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (const k of [0, 1, 5, 40, 200]) {
    const scores = Array.from({ length: 150 }, () => Math.floor(rand() * 20) / 4);
    const top = new TopK(k);
    scores.forEach((s, i) => top.offer(i, s));
    const expected = scores
      .map((score, pos) => ({ pos, score }))
      .sort((a, b) => b.score - a.score || a.pos - b.pos)
      .slice(0, k);
    assert.deepEqual(top.best(), expected, `k=${k}`);
  }
});
