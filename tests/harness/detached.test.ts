// detached copies strings for long-lived cache keys: the copy must equal its source exactly, whatever the
// characters (one-byte, two-byte, lone surrogates) and whether the source is a slice, a rope or a short string.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { detached } from '../../harness/util/detached.js';

test('a detached copy equals its source for every kind of string', () => {
  const long = 'Document 12:\nÉcole Polytechnique — İstanbul 𐐀 \ud800 lone \udc00 end. '.repeat(40);
  const sources = [
    '',
    'a',
    'twelve chars',
    'thirteen char',
    'é'.repeat(13),
    'ÿ'.repeat(30),
    long,
    long.slice(5, 205),
    long.slice(3, 16),
    'plain ascii ' + 'rope of two parts',
    '\ud800'.repeat(20),
    '\udc00a\ud800'.repeat(9),
  ];
  for (const s of sources) {
    const copy = detached(s);
    assert.equal(copy, s, JSON.stringify(s.slice(0, 40)));
    assert.equal(copy.length, s.length);
  }
  // Not vacuous: a decoder that replaced lone surrogates would change these.
  const lone = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
  assert.ok(sources.some((s) => lone.test(s)));
});
