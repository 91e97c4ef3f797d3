import { test } from 'vitest';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openAtomic, tempPathFor, writeFileAtomic, writeJsonAtomic } from '../../../harness/run-dir/atomic-write.js';

function scratch(): string {
  return mkdtempSync(join(tmpdir(), 'bench-atomic-'));
}

test('writes and replaces a file, leaving no temporary behind', () => {
  const dir = scratch();
  const f = join(dir, 'a.json');
  writeFileAtomic(f, 'one');
  writeFileAtomic(f, Buffer.from('two'));
  assert.equal(readFileSync(f, 'utf8'), 'two');
  writeJsonAtomic(f, { x: [1] }, { fsync: true });
  assert.equal(readFileSync(f, 'utf8'), '{\n  "x": [\n    1\n  ]\n}\n');
  assert.deepEqual(readdirSync(dir), ['a.json']);
});

test('a write that fails leaves the old file intact and removes the temporary', () => {
  const dir = scratch();
  const f = join(dir, 'a.json');
  writeFileSync(f, 'old');
  // Data the write cannot take: the temporary exists when the write throws.
  assert.throws(() => writeFileAtomic(f, Symbol('not data') as unknown as string));
  assert.equal(readFileSync(f, 'utf8'), 'old');
  assert.deepEqual(readdirSync(dir), ['a.json']);
});

test('a rename that fails (the target is a directory) removes the temporary', () => {
  const dir = scratch();
  const target = join(dir, 'taken');
  mkdirSync(join(target, 'inside'), { recursive: true });
  assert.throws(() => writeFileAtomic(target, 'x'), /EISDIR|ENOTEMPTY|EEXIST|EPERM/);
  assert.deepEqual(readdirSync(dir), ['taken']);
});

test('no temporary can be created (missing directory): nothing is written', () => {
  const dir = scratch();
  assert.throws(() => writeFileAtomic(join(dir, 'no', 'such', 'f.json'), 'x'), /ENOENT/);
  assert.deepEqual(readdirSync(dir), []);
});

test.skipIf(process.getuid?.() === 0)('an unwritable directory leaves the old file intact', () => {
  const dir = scratch();
  const f = join(dir, 'a.json');
  writeFileSync(f, 'old');
  chmodSync(dir, 0o555);
  try {
    assert.throws(() => writeFileAtomic(f, 'new'), /EACCES|EPERM/);
  } finally {
    chmodSync(dir, 0o755);
  }
  assert.equal(readFileSync(f, 'utf8'), 'old');
  assert.deepEqual(readdirSync(dir), ['a.json']);
});

test('openAtomic: streamed pieces appear only on commit; abort keeps the old file', () => {
  const dir = scratch();
  const f = join(dir, 'out.jsonl');
  writeFileSync(f, 'old\n');
  const a = openAtomic(f);
  writeFileSync(a.fd, 'new 1\n');
  assert.equal(readFileSync(f, 'utf8'), 'old\n');
  a.abort();
  a.abort();
  assert.equal(readFileSync(f, 'utf8'), 'old\n');
  assert.equal(existsSync(a.temp), false);
  const b = openAtomic(f, { fsync: true });
  writeFileSync(b.fd, 'new 2\n');
  b.commit();
  b.abort(); // after commit: nothing to undo
  assert.equal(readFileSync(f, 'utf8'), 'new 2\n');
  assert.deepEqual(readdirSync(dir), ['out.jsonl']);
});

test('temporary names are unique per call and sit next to the target', () => {
  const a = tempPathFor('/x/y/f.json');
  const b = tempPathFor('/x/y/f.json');
  assert.notEqual(a, b);
  assert.match(a, new RegExp(`^/x/y/f\\.json\\.tmp-${process.pid}-\\d+-\\d+$`));
});
