import { test } from 'vitest';
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UserError } from '../../../harness/errors.js';
import { readManifest } from '../../../harness/run-dir/manifest.js';
import { recordKey } from '../../../harness/run-dir/record-key.js';
import { RunDir } from '../../../harness/run-dir/run-dir.js';
import type { SampleRecord } from '../../../harness/types.js';
import { manifestFixture } from '../../helpers/manifest.js';
import { record } from '../../reports/fixtures.js';

function scratch(): string {
  return join(mkdtempSync(join(tmpdir(), 'bench-rundir-')), 'run');
}

test('resume: finished samples keyed by recordKey, a later copy wins, a torn last line is skipped and cut off', () => {
  const dir = scratch();
  const m = manifestFixture();
  const first = RunDir.open(dir, { ...m.identity });
  first.writeManifest(m);
  const a = record({ index: 0, score: 0 });
  const b = record({ index: 1 });
  first.appendSample(recordKey(a), a);
  first.appendSample(recordKey(b), b);
  first.appendSample(recordKey(a), { ...a, score: 1 });
  first.close();
  assert.equal(existsSync(join(dir, 'run.lock')), false);
  appendFileSync(join(dir, 'samples.jsonl'), '{"id":"ruler-hqa/7k/2","met');

  const again = RunDir.open(dir, { ...m.identity });
  try {
    assert.deepEqual([...again.finished.keys()], ['ruler-hqa/7k/0#memagent', 'ruler-hqa/7k/1#memagent']);
    assert.equal(again.finished.get('ruler-hqa/7k/0#memagent')?.score, 1);
    const c: SampleRecord = record({ index: 2 });
    again.appendSample(recordKey(c), c);
  } finally {
    again.close();
  }
  const lines = readFileSync(join(dir, 'samples.jsonl'), 'utf8').split('\n');
  assert.equal(lines.length, 5);
  assert.equal(lines[4], '');
  assert.equal(JSON.parse(lines[3]).id, 'ruler-hqa/7k/2');
  assert.deepEqual(readManifest(dir), m);
});

test('open refuses another identity, naming the fields, and a broken manifest with one line naming the file', () => {
  const dir = scratch();
  const m = manifestFixture();
  const rd = RunDir.open(dir, { ...m.identity });
  rd.writeManifest(m);
  rd.close();
  assert.throws(
    () => RunDir.open(dir, { ...m.identity, seed: 7 }),
    (e: unknown) => e instanceof UserError && /other settings: --seed \(was 42, now 7\)/.test(e.message),
  );
  writeFileSync(join(dir, 'manifest.json'), '{"identity":');
  assert.throws(
    () => RunDir.open(dir, { ...m.identity }),
    (e: unknown) =>
      e instanceof UserError &&
      /manifest\.json is not valid JSON .*; move the directory away or use another --out$/.test(e.message) &&
      !e.message.includes('\n'),
  );
  assert.equal(existsSync(join(dir, 'run.lock')), false, 'lock released after a refusal');
});
