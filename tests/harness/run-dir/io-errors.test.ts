// File-system failures in a run directory: errno codes become one line naming the path and the fix, and a failed
// append leaves the file ending on a complete line.
import { afterEach, test } from 'vitest';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UserError } from '../../../harness/errors.js';
import { guardIO, RunDirIOError, translateIOError } from '../../../harness/run-dir/io-errors.js';
import { JsonlAppender } from '../../../harness/run-dir/jsonl.js';

const errno = (code: string) => Object.assign(new Error(`${code}: x`), { code });

afterEach(() => {
  delete process.env.BENCH_TEST_FAIL_WRITES;
});

test('errno codes become a RunDirIOError naming the path and the fix; other errors pass through', () => {
  const cases: Array<[string, RegExp]> = [
    [
      'ENOSPC',
      /^no space left on device writing d\/samples\.jsonl: free space or use another --out; finished samples are saved$/,
    ],
    ['EACCES', /^permission denied writing d\/samples\.jsonl: make it writable/],
    ['EROFS', /^read-only file system writing d\/samples\.jsonl: remount it read-write/],
    ['EISDIR', /^a directory is in the way writing d\/samples\.jsonl/],
    ['EEXIST', /^a file is in the way writing d\/samples\.jsonl/],
  ];
  for (const [code, message] of cases) {
    const e = translateIOError(errno(code), 'writing', 'd/samples.jsonl');
    assert.ok(e instanceof RunDirIOError && e instanceof UserError, code);
    assert.match(e.message, message);
    assert.equal(e.code, code);
    assert.equal(e.exitCode, 2);
  }
  const plain = new TypeError('boom');
  assert.equal(translateIOError(plain, 'writing', 'x'), plain);
  assert.throws(
    () =>
      guardIO('writing', 'f', () => {
        throw errno('ENOSPC');
      }),
    RunDirIOError,
  );
});

test('a failed append (injected ENOSPC) is reported with the file and leaves only complete lines', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'bench-io-')), 'samples.jsonl');
  const a = new JsonlAppender(file);
  process.env.BENCH_TEST_FAIL_WRITES = 'ENOSPC:0';
  try {
    assert.throws(
      () => a.append({ n: 1 }),
      (e: unknown) => e instanceof RunDirIOError && e.message.startsWith(`no space left on device writing ${file}:`),
    );
  } finally {
    delete process.env.BENCH_TEST_FAIL_WRITES;
  }
  a.append({ n: 2 });
  a.close();
  assert.equal(readFileSync(file, 'utf8'), '{"n":2}\n');
});
