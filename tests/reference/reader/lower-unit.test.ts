// lowerUnitByUnit lowercases the runs between a few special units as whole strings: it must equal lowercasing
// every UTF-16 unit alone (and keeping one whose lowercase is longer), which is what keeps indices aligned.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { lowerUnitByUnit } from '../../../reference/reader/text.js';
import { rngFor } from '../../../harness/util/rng.js';

function unitByUnit(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const l = s[i].toLowerCase();
    out += l.length === 1 ? l : s[i];
  }
  return out;
}

test('every BMP unit, between letters, spaces and the special units, lowercases as it does alone', () => {
  const contexts = ['A', 'a', ' ', 'Σ', 'İ', '\ud801\udc00', '\ud801', 'Ω.'];
  for (let c = 0; c < 0x10000; c++) {
    const unit = String.fromCharCode(c);
    for (const before of contexts)
      for (const after of ['', 'A', ' ']) {
        const s = before + unit + after;
        if (lowerUnitByUnit(s) !== unitByUnit(s))
          assert.fail(`U+${c.toString(16)} in ${JSON.stringify(s)}: ${lowerUnitByUnit(s)} != ${unitByUnit(s)}`);
      }
  }
});

test('random texts of cased letters, final sigmas, İ and astral letters lowercase as unit by unit', () => {
  const rng = rngFor('lower-unit-test', 1);
  const alphabet = ['A', 'b', 'Σ', 'σ', 'ς', 'İ', 'I', 'ı', ' ', '.', '\n', 'Ö', 'ẞ', 'ǅ', '\ud801\udc00', '\ud801', '\udc00', 'Ω'];
  let irregular = 0;
  for (let n = 0; n < 2000; n++) {
    let s = '';
    const len = 1 + rng.below(40);
    for (let i = 0; i < len; i++) s += alphabet[rng.below(alphabet.length)];
    const got = lowerUnitByUnit(s);
    assert.equal(got, unitByUnit(s), JSON.stringify(s));
    assert.equal(got.length, s.length);
    if (s.toLowerCase() !== got) irregular++;
  }
  // Not vacuous: most texts lowercase differently as a whole (final sigma, İ, astral letters).
  assert.ok(irregular > 1000, `${irregular}`);
});
