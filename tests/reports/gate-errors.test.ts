// bench gate and errored samples (issue 11): without --max-errors a run may have no more errored samples than the
// baseline had, so a run whose samples failed never passes silently against a clean baseline.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SampleRecord } from '../../harness/types.js';
import { gateCommand } from '../../cli/commands/gate.js';
import { writeBaseline } from '../../reports/regression.js';
import { summarize } from '../../reports/summary.js';
import { record, runDir, FACETS } from './fixtures.js';

function samples(n: number, errors: number): SampleRecord[] {
  return Array.from({ length: n }, (_, i) =>
    record({
      index: i,
      score: i < errors ? 0 : 1,
      ...(i < errors ? { status: 'error' as const, error: 'endpoint failed (HTTP 500)', prediction: null } : {}),
    }),
  );
}

function baselineOf(records: SampleRecord[]): string {
  const file = join(mkdtempSync(join(tmpdir(), 'bench-gate-errors-')), 'baseline.json');
  writeBaseline(summarize(records, FACETS), file);
  return file;
}

async function gate(runDirPath: string, baseline: string, extra: { maxErrors?: number; junit?: string } = {}) {
  const out: string[] = [];
  const code = await gateCommand({
    runDir: runDirPath,
    baseline,
    maxDrop: 100,
    ...extra,
    print: (t) => out.push(t),
    printError: (t) => out.push(t),
  });
  return { code, out: out.join('\n') };
}

test('errored samples fail the gate against a baseline that had none, with a line saying how to allow them', async () => {
  const clean = baselineOf(samples(10, 0));
  const r = await gate(runDir(samples(10, 2)), clean);
  assert.equal(r.code, 1, r.out);
  assert.match(r.out, /^errors: 2 — TOO MANY: the baseline had 0; pass --max-errors 2 to allow them$/m);
  assert.match(r.out, /^gate: FAIL \(0 of 1 key regressed, too many errors\)$/m);
  assert.equal((await gate(runDir(samples(10, 2)), clean, { maxErrors: 2 })).code, 0, '--max-errors allows them');
  assert.equal((await gate(runDir(samples(10, 0)), clean)).code, 0);
});

test('a baseline with errors allows as many by default, not more; JUnit records the failure', async () => {
  const withErrors = baselineOf(samples(10, 1));
  assert.equal((await gate(runDir(samples(10, 1)), withErrors)).code, 0);
  const junit = join(mkdtempSync(join(tmpdir(), 'bench-gate-errors-')), 'gate.xml');
  const r = await gate(runDir(samples(10, 3)), withErrors, { junit });
  assert.equal(r.code, 1, r.out);
  assert.match(r.out, /errors: 3 — TOO MANY: the baseline had 1/);
  const xml = readFileSync(junit, 'utf8');
  assert.match(
    xml,
    /<testcase classname="bench.gate" name="errors" time="0"><failure message="3 errored samples \(max 1, as in the baseline\)" type="errors">/,
  );
});
