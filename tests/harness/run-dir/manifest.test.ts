import { test } from 'vitest';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UserError } from '../../../harness/errors.js';
import {
  hasManifest,
  manifestPath,
  manifestProblem,
  readManifest,
  writeManifest,
} from '../../../harness/run-dir/manifest.js';
import { manifestFixture } from '../../helpers/manifest.js';

function scratch(): string {
  return mkdtempSync(join(tmpdir(), 'bench-run-manifest-'));
}

function userError(fn: () => unknown, pattern: RegExp): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof UserError, `not a UserError: ${err}`);
    assert.match(err.message, pattern);
    assert.ok(!err.message.includes('\n'), 'one line');
    return true;
  });
}

test('round trip: writeManifest then readManifest gives the same manifest, as pretty JSON with a final newline', () => {
  const dir = scratch();
  const m = manifestFixture({ shard: { index: 1, count: 4 }, extraField: { kept: true } });
  assert.equal(hasManifest(dir), false);
  writeManifest(dir, m);
  assert.equal(hasManifest(dir), true);
  assert.deepEqual(readManifest(dir), m);
  const text = readFileSync(manifestPath(dir), 'utf8');
  assert.equal(text, JSON.stringify(m, null, 2) + '\n');
});

test('a manifest from before model.client was recorded, and a merged one, still read', () => {
  const dir = scratch();
  const old = manifestFixture() as unknown as { model: Record<string, unknown> };
  delete old.model.client;
  writeFileSync(manifestPath(dir), JSON.stringify(old));
  assert.equal(readManifest(dir).model.client, undefined);
  const { resumed: _r, ...merged } = manifestFixture({
    merged_from: [{ dir: '/r/s0', shard: { index: 0, count: 1 }, samples: 1, calls: 2, environment: null }],
  });
  writeFileSync(manifestPath(dir), JSON.stringify(merged));
  assert.equal(readManifest(dir).merged_from?.length, 1);
});

test('missing, invalid JSON and mis-shaped manifests are one-line UserErrors naming the file', () => {
  const dir = scratch();
  userError(() => readManifest(dir), new RegExp(`^${dir}.* has no manifest\\.json$`));
  userError(() => readManifest(dir, { hint: 'use another --out' }), /has no manifest\.json; use another --out$/);
  writeFileSync(manifestPath(dir), '{"command": "bench run",');
  userError(() => readManifest(dir), new RegExp(`^${manifestPath(dir)} is not valid JSON \\(.+\\)$`));
  writeFileSync(manifestPath(dir), '[1, 2]');
  userError(() => readManifest(dir), /manifest\.json is not a bench run manifest: not a JSON object$/);
  writeFileSync(manifestPath(dir), JSON.stringify({ ...manifestFixture(), shard: { index: '0', count: 2 } }));
  userError(
    () => readManifest(dir, { hint: 'pass shard directories' }),
    /manifest\.json is not a bench run manifest: 'shard' must be null or \{index, count\} whole numbers; pass shard directories$/,
  );
});

test('manifestProblem names the first missing or mistyped field', () => {
  const ok = manifestFixture();
  assert.equal(manifestProblem(ok), null);
  const { identity: _i, ...noIdentity } = ok;
  assert.equal(manifestProblem(noIdentity), "'identity' is missing");
  assert.equal(
    manifestProblem({ ...ok, lengths: ['8k'] }),
    "'lengths' must be an object of task → array of length labels",
  );
  assert.equal(
    manifestProblem({ ...ok, model: { ...ok.model, isReferenceReader: 'yes' } }),
    "'model' must be an object with id, name, isReferenceReader and endpoints",
  );
  assert.equal(manifestProblem({ ...ok, resumed: 1.5 }), "'resumed' must be a whole number");
  assert.equal(
    manifestProblem({ ...ok, tasks: ['ruler-hqa'] }),
    "'tasks' must be an array of {name, version, metric, flavour?} strings",
  );
});
