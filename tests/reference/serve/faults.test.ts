import { test } from 'vitest';
import assert from 'node:assert/strict';
import { FaultPlanner, chooseFault, faultDraw, hashBody, parseFaultSpec } from '../../../reference/serve/faults.js';
import { UserError } from '../../../harness/errors.js';

test('parseFaultSpec accepts rates as fractions or percentages and validates them', () => {
  const c = parseFaultSpec({
    fail5xx: '10%',
    fail429: '0.05',
    failReset: 0.02,
    retryAfterS: '2',
    seed: '7',
    latencyMs: '3',
  });
  assert.equal(c.fail5xx, 0.1);
  assert.equal(c.fail429, 0.05);
  assert.equal(c.failReset, 0.02);
  assert.equal(c.retryAfterS, 2);
  assert.equal(c.seed, 7);
  assert.equal(c.latencyMs, 3);
  assert.equal(c.failHang, 0);
  assert.throws(
    () => parseFaultSpec({ fail5xx: '1.5' }),
    (e: unknown) => e instanceof UserError && /--fail-5xx/.test(e.message),
  );
  assert.throws(
    () => parseFaultSpec({ failHang: 'often' }),
    (e: unknown) => e instanceof UserError && /--fail-hang expects a number/.test(e.message),
  );
  assert.throws(() => parseFaultSpec({ fail5xx: '0.6', fail429: '0.6' }), /add up to 1\.200/);
  assert.throws(() => parseFaultSpec({ seed: '1.5' }), /--seed must be an integer/);
  assert.throws(() => parseFaultSpec({ latencyMs: '-1' }), /--latency-ms must not be negative/);
});

test('chooseFault maps draws onto bands in order', () => {
  const c = parseFaultSpec({ fail5xx: 0.1, fail429: 0.05, failReset: 0.02, failMalformed: 0.01, failHang: 0.01 });
  assert.equal(chooseFault(c, 0), '5xx');
  assert.equal(chooseFault(c, 0.0999), '5xx');
  assert.equal(chooseFault(c, 0.1), '429');
  assert.equal(chooseFault(c, 0.16), 'reset');
  assert.equal(chooseFault(c, 0.175), 'malformed');
  assert.equal(chooseFault(c, 0.185), 'hang');
  assert.equal(chooseFault(c, 0.1901), 'none');
  assert.equal(chooseFault(c, 0.999), 'none');
});

test('fault draws are deterministic, depend on seed, body and attempt, and are roughly uniform', () => {
  const h = hashBody('{"a":1}');
  assert.equal(faultDraw(1, h, 0), faultDraw(1, h, 0));
  assert.notEqual(faultDraw(1, h, 0), faultDraw(2, h, 0));
  assert.notEqual(faultDraw(1, h, 0), faultDraw(1, h, 1));
  assert.notEqual(faultDraw(1, h, 0), faultDraw(1, hashBody('{"a":2}'), 0));
  let below = 0;
  for (let i = 0; i < 4000; i++) if (faultDraw(3, hashBody(String(i)), 0) < 0.25) below++;
  assert.ok(below > 850 && below < 1150, `expected ~1000 draws below 0.25, got ${below}`);
});

test('FaultPlanner replays the same faults and advances per identical body', () => {
  const c = parseFaultSpec({ fail5xx: 0.3, fail429: 0.2, seed: 11 });
  const run = () => {
    const p = new FaultPlanner(c);
    const out: string[] = [];
    for (let i = 0; i < 50; i++) out.push(p.next(hashBody(String(i % 10))).kind);
    return out;
  };
  const a = run();
  assert.deepEqual(run(), a);
  const p = new FaultPlanner(c);
  assert.equal(p.next('x').attempt, 0);
  assert.equal(p.next('x').attempt, 1);
  assert.equal(p.next('y').attempt, 0);
  assert.ok(a.includes('5xx') && a.includes('none'));
});
