import { test } from 'vitest';
import assert from 'node:assert/strict';
import { MAX_DOCS, MAX_TOKENS, overTarget, parseLengths, tokenLabel } from '../../../harness/config/lengths.js';
import { UserError } from '../../../harness/errors.js';

test('32k..3.5m doubles from 32k and ends with 3.5m (k = 1024, m = 1024²)', () => {
  const grid = parseLengths('32k..3.5m');
  assert.deepEqual(
    grid.map((l) => l.label),
    ['32k', '64k', '128k', '256k', '512k', '1m', '2m', '3.5m'],
  );
  assert.equal(grid[0].value, 32768);
  assert.equal(grid[2].value, 131072);
  assert.equal(grid[7].value, Math.round(3.5 * 1024 * 1024));
  assert.ok(grid.every((l) => l.kind === 'tokens'));
});

test('a range whose end is a power-of-two multiple ends exactly once', () => {
  assert.deepEqual(
    parseLengths('8k..512k').map((l) => l.value),
    [8192, 16384, 32768, 65536, 131072, 262144, 524288],
  );
  assert.deepEqual(
    parseLengths('4k..4k').map((l) => l.label),
    ['4k'],
  );
});

test('comma lists mix ranges and plain numbers, sorted and deduplicated', () => {
  assert.deepEqual(
    parseLengths('1m,8k..16k,8192,5000').map((l) => l.value),
    [5000, 8192, 16384, 1048576],
  );
  assert.equal(tokenLabel(5000), '5000');
  assert.equal(tokenLabel(50 * 1024 * 1024), '50m');
});

test('docs: selects document counts', () => {
  const grid = parseLengths('docs:50..25600');
  assert.deepEqual(
    grid.map((l) => l.value),
    [50, 100, 200, 400, 800, 1600, 3200, 6400, 12800, 25600],
  );
  assert.ok(grid.every((l) => l.kind === 'docs' && l.label === `docs:${l.value}`));
  assert.deepEqual(
    parseLengths('docs:50,100').map((l) => l.value),
    [50, 100],
  );
});

test('bad specs throw a UserError with a hint', () => {
  for (const bad of ['', 'abc', '32x', '3.5m..32k', '1k..2k..4k', '32k,', '0', '-5k', '1.3', 'docs:1.5', 'docs:0']) {
    assert.throws(
      () => parseLengths(bad),
      (e: unknown) => e instanceof UserError && /--lengths/.test(e.message),
      bad,
    );
  }
});

test('docs: may be repeated on every item of a docs list (docs:50,docs:200 = docs:50,200), not mixed with tokens', () => {
  assert.deepEqual(parseLengths('docs:50,docs:200'), parseLengths('docs:50,200'));
  assert.deepEqual(
    parseLengths('docs:50..docs:200').map((l) => l.value),
    [50, 100, 200],
  );
  assert.deepEqual(
    parseLengths('docs: 50, DOCS:100').map((l) => l.label),
    ['docs:50', 'docs:100'],
  );
  for (const bad of ['32k,docs:50', 'docs:50,docs:', 'docs:50,32k']) {
    assert.throws(() => parseLengths(bad), UserError, bad);
  }
  assert.throws(() => parseLengths('8k,docs:50'), /mixes token lengths and docs: counts/);
});

test('negative lengths say so; lengths above 64m tokens or 500,000 documents are refused at once, saying why', () => {
  assert.throws(() => parseLengths('-5k'), /'-5k' is negative; a length must be positive/);
  assert.throws(() => parseLengths('docs:-5'), /'docs:-5' is negative/);
  assert.equal(parseLengths('64m')[0].value, MAX_TOKENS);
  assert.throws(() => parseLengths('64m..65m'), /'65m' is 68,157,440 tokens, above the maximum of 64m/);
  assert.throws(() => parseLengths('99999m'), /above the maximum of 64m \(18× the longest published length, 3\.5m/);
  assert.throws(() => parseLengths('1e9'), UserError);
  assert.equal(parseLengths(`docs:${MAX_DOCS}`)[0].value, MAX_DOCS);
  assert.throws(() => parseLengths(`docs:${MAX_DOCS + 1}`), /above the maximum of 500,000 documents/);
});

test('the over-target rule: only a token target can be exceeded, and only a built context above it is marked', () => {
  const [k1] = parseLengths('1k');
  assert.equal(overTarget(k1, 1024), undefined, 'exactly at the target is within it');
  assert.equal(overTarget(k1, 900), undefined);
  assert.deepEqual(overTarget(k1, 1360), { over_target: true, target_tokens: 1024, built_tokens: 1360 });
  const [docs] = parseLengths('docs:10');
  assert.equal(overTarget(docs, 1_000_000), undefined, 'a document count has no token target');
  assert.equal(
    overTarget({ kind: 'native', value: 0, label: 'all' }, 50_000),
    undefined,
    'native lengths have none either',
  );
});
