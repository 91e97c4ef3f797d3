// Data identity through the real binary: a --data file changed at the same path is never resumed into a run
// directory whose samples came from the old file (old and new rows would share one summary row), with or without
// --extend; the directory stays byte for byte as it was. Restoring the file resumes; another --out runs the new one.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync, appendFileSync, existsSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertOneLine, dirFingerprint, runBench, type BenchResult } from '../../helpers/cli.js';
import { dataChanges, refuseChangedData, unionData } from '../../../harness/data/describe.js';
import type { ManifestData } from '../../../harness/run-dir/manifest.js';

const root = mkdtempSync(join(tmpdir(), 'bench-data-identity-'));
const env = { ...process.env, BENCH_CACHE_DIR: join(root, 'cache') };
const bench = (...args: string[]): Promise<BenchResult> => runBench(args, { cwd: root, env });

const row = (i: number) =>
  JSON.stringify({
    context: `The code is ${i}. Some filler text.`,
    question: 'What is the code?',
    answers: [String(i)],
  });
const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const manifest = (dir: string) => JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
const sampleLines = (dir: string) => readFileSync(join(dir, 'samples.jsonl'), 'utf8').trim().split('\n').length;

const runArgs = (data: string, out: string, ...extra: string[]) => [
  'run',
  'jsonl',
  '--data',
  data,
  '--no-progress',
  '--out',
  out,
  ...extra,
];

test('a --data file changed at the same path is refused (with and without --extend); restoring it resumes', async () => {
  const data = join(root, 'rows.jsonl');
  writeFileSync(data, [1, 2, 3].map(row).join('\n') + '\n');
  const original = readFileSync(data);
  const oldSha = sha(data);
  const out = join(root, 'run');
  const first = await bench(...runArgs(data, out));
  assert.equal(first.code, 0, first.stderr);
  assert.equal(manifest(out).data.sha256, oldSha);

  appendFileSync(data, row(4) + '\n');
  const newSha = sha(data);
  const before = dirFingerprint(out);
  const r = await bench(...runArgs(data, out));
  assertOneLine(
    r,
    2,
    new RegExp(
      `holds 3 finished samples of jsonl made from other data: .*rows\\.jsonl changed: sha256 was ${oldSha}, now ${newSha}; restore the file to resume, or use another --out`,
    ),
  );
  assert.equal(dirFingerprint(out), before, 'the refused run changed the directory');
  assert.ok(!existsSync(join(out, 'run.lock')), 'run.lock left behind');

  // --extend adds cells; it does not let a second version of the data into the same cells.
  const x = await bench(...runArgs(data, out, '--extend'));
  assertOneLine(
    x,
    2,
    new RegExp(`sha256 was ${oldSha}, now ${newSha}.*--extend adds tasks, lengths or methods, not another version`),
  );
  assert.equal(dirFingerprint(out), before, 'the refused --extend run changed the directory');

  // Another --out runs the new file.
  const other = join(root, 'run-new');
  const n = await bench(...runArgs(data, other));
  assert.equal(n.code, 0, n.stderr);
  assert.equal(manifest(other).data.sha256, newSha);
  assert.equal(sampleLines(other), 4);

  // The old file back: the directory resumes (nothing to run), its hash kept.
  writeFileSync(data, original);
  const back = await bench(...runArgs(data, out));
  assert.equal(back.code, 0, back.stderr);
  assert.equal(manifest(out).data.sha256, oldSha);
  assert.equal(sampleLines(out), 3);
});

const info = (files: Array<[string, string, string]>, pool?: string): ManifestData => ({
  path: files[0][1],
  format: 'jsonl',
  files: files.map(([task, path, sha256]) => ({ task, path, format: 'jsonl', sha256, rows: 1 })),
  ...(pool ? { pool: { path: 'pool.json', sha256: pool, paragraphs: 1 } } : {}),
});

test('dataChanges: per task and path; files added or gone and another pool are changes; a new task is not', () => {
  const before = info([
    ['a', 'd/x.jsonl', '1'],
    ['a', 'd/y.jsonl', '2'],
  ]);
  assert.deepEqual(
    dataChanges(
      before,
      info([
        ['a', 'd/x.jsonl', '1'],
        ['a', 'd/y.jsonl', '2'],
      ]),
    ),
    [],
  );
  assert.deepEqual(dataChanges(before, info([['b', 'd/x.jsonl', '9']])), []);
  assert.deepEqual(
    dataChanges(
      before,
      info([
        ['a', 'd/x.jsonl', '1'],
        ['a', 'd/y.jsonl', '3'],
      ]),
    ),
    [{ task: 'a', path: 'd/y.jsonl', was: '2', now: '3' }],
  );
  assert.deepEqual(dataChanges(before, info([['a', 'd/x.jsonl', '1']])), [
    { task: 'a', path: 'd/y.jsonl', was: '2', now: null },
  ]);
  assert.deepEqual(
    dataChanges(
      before,
      info([
        ['a', 'd/x.jsonl', '1'],
        ['a', 'd/y.jsonl', '2'],
        ['a', 'd/z.jsonl', '4'],
      ]),
    ),
    [{ task: 'a', path: 'd/z.jsonl', was: null, now: '4' }],
  );
  assert.deepEqual(dataChanges(info([['a', 'h.json', '1']], 'p1'), info([['a', 'h.json', '1']], 'p2')), [
    { task: 'a', path: 'pool.json', was: 'p1', now: 'p2' },
  ]);
  // A change to a task with no finished samples mixes nothing and passes.
  const changes = dataChanges(before, info([['a', 'd/x.jsonl', '5']]));
  assert.doesNotThrow(() => refuseChangedData('dir', changes, () => 0, false));
  assert.throws(
    () => refuseChangedData('dir', changes, () => 2, false),
    /dir holds 2 finished samples of a .*\(and 1 more\)/,
  );
});

test('unionData keeps the hashes of tasks this invocation did not read', () => {
  const a = info([['a', 'a.jsonl', '1']]);
  const b = info([['b', 'b.jsonl', '2']]);
  const u = unionData(a, b)!;
  assert.deepEqual(
    u.files.map((f) => [f.task, f.sha256]),
    [
      ['a', '1'],
      ['b', '2'],
    ],
  );
  assert.equal(u.sha256, undefined);
  assert.deepEqual(unionData(a, info([['a', 'a.jsonl', '3']])), info([['a', 'a.jsonl', '3']]));
  assert.equal(unionData(undefined, b), b);
  assert.equal(unionData(a, undefined), a);
});
