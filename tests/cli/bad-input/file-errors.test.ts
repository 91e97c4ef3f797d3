// File errors outside `bench run` through the real binary (dist/, built by `npm test`): report, export and merge
// on a directory they cannot write (a file in the way, a directory where a file goes, /proc, permissions) say so in
// one line naming the path, exit 2, the same translation as the run directory's (harness/run-dir/io-errors.ts).
// Root ignores permissions, so the permission cases run only as another user; the others use a file in the way.
import { beforeAll, test } from 'vitest';
import assert from 'node:assert/strict';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertOneLine, runBench, type BenchResult } from '../../helpers/cli.js';

const root = mkdtempSync(join(tmpdir(), 'bench-file-errors-cli-'));
const env = { ...process.env, BENCH_CACHE_DIR: join(root, 'cache') };
const bench = (args: string[]): Promise<BenchResult> => runBench(args, { cwd: root, env });
const asRoot = process.getuid?.() === 0;
const BASE = join(root, 'base');
let n = 0;
const copyOfBase = () => {
  const dir = join(root, `copy-${++n}`);
  cpSync(BASE, dir, { recursive: true });
  return dir;
};

beforeAll(async () => {
  const r = await bench(['run', 'niah_single_1', '--lengths', '1k', '--samples', '2', '--no-progress', '--out', BASE]);
  assert.equal(r.code, 0, r.stderr);
  writeFileSync(join(root, 'a-file'), 'not a folder\n');
});

test('F1 bench report on a run directory with a file where its charts folder goes: one line, exit 2', async () => {
  const dir = copyOfBase();
  rmSync(join(dir, 'charts'), { recursive: true, force: true });
  writeFileSync(join(dir, 'charts'), 'in the way\n');
  const samples = readFileSync(join(dir, 'samples.jsonl'), 'utf8');
  assertOneLine(
    await bench(['report', dir]),
    2,
    /^bench: a file is in the way creating .*charts: remove or rename that file or use another --out$/,
  );
  assert.equal(readFileSync(join(dir, 'samples.jsonl'), 'utf8'), samples);
});

test('F2 bench report where a report file would replace a directory: one line naming the file, exit 2', async () => {
  const dir = copyOfBase();
  rmSync(join(dir, 'summary.md'), { force: true });
  mkdirSync(join(dir, 'summary.md'));
  assertOneLine(await bench(['report', dir]), 2, /^bench: a directory is in the way .*summary\.md: remove or rename/);
});

test('F3 bench export below a file or on /proc: one line, exit 2, nothing hangs', async () => {
  assertOneLine(
    await bench(['export', BASE, '--format', 'ruler', '--out', join(root, 'a-file', 'export')]),
    2,
    /^bench: --out .*a-file.* is a file, so no directory can be made under it/,
  );
  assertOneLine(
    await bench(['export', BASE, '--format', 'ruler', '--out', '/proc/bench-export']),
    2,
    /^bench: --out \/proc\/bench-export: .*proc file system, not a disk/,
  );
});

test('F4 bench export with a file in the way inside --out: one line naming it, exit 2', async () => {
  const out = join(root, 'export-f4');
  mkdirSync(out);
  writeFileSync(join(out, 'local_reference-reader-v1__memagent'), 'in the way\n');
  assertOneLine(
    await bench(['export', BASE, '--format', 'ruler', '--out', out]),
    2,
    /^bench: a file is in the way of a directory creating .*local_reference-reader-v1__memagent.*: remove or rename that file or use another --out$/,
  );
});

test('F5 bench merge into a folder below a file: one line, exit 2', async () => {
  const a = join(root, 'sh0');
  const b = join(root, 'sh1');
  for (const [dir, shard] of [
    [a, '0/2'],
    [b, '1/2'],
  ]) {
    const r = await bench([
      'run',
      'niah_single_1',
      '--lengths',
      '1k',
      '--samples',
      '2',
      '--no-progress',
      '--shard',
      shard,
      '--out',
      dir,
    ]);
    assert.equal(r.code, 0, r.stderr);
  }
  assertOneLine(
    await bench(['merge', a, b, '--out', join(root, 'a-file', 'merged')]),
    2,
    /^bench: a file is in the way of a directory .*a-file.*: remove or rename that file or use another --out$/,
  );
});

test.skipIf(asRoot)(
  'F6 bench report on a read-only run directory, and on one whose samples another user keeps unreadable (skipped as root: root ignores permissions)',
  async () => {
    const dir = copyOfBase();
    chmodSync(dir, 0o555);
    try {
      assertOneLine(
        await bench(['report', dir]),
        2,
        /^bench: permission denied .*: make it writable or use another --out$/,
      );
    } finally {
      chmodSync(dir, 0o755);
    }
    const foreign = copyOfBase();
    chmodSync(join(foreign, 'samples.jsonl'), 0o000);
    try {
      assertOneLine(
        await bench(['report', foreign, '--out', join(root, 'report-f6')]),
        2,
        /^bench: permission denied reading .*samples\.jsonl: make it readable/,
      );
    } finally {
      chmodSync(join(foreign, 'samples.jsonl'), 0o644);
    }
    const closed = copyOfBase();
    chmodSync(closed, 0o000);
    try {
      assertOneLine(
        await bench(['report', closed, '--out', join(root, 'report-f6')]),
        2,
        /^bench: permission denied reading .*copy-\d+: make it readable/,
      );
    } finally {
      chmodSync(closed, 0o755);
    }
  },
);

test.skipIf(asRoot)('F7 bench export to a read-only folder (skipped as root: root ignores permissions)', async () => {
  const out = join(root, 'export-ro');
  mkdirSync(out);
  chmodSync(out, 0o555);
  try {
    const r = await bench(['export', BASE, '--format', 'ruler', '--out', out]);
    assertOneLine(r, 2, /^bench: --out .*not writable \(permission denied\)|^bench: permission denied/);
  } finally {
    chmodSync(out, 0o755);
  }
});
