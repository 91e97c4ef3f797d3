// `bench runs [DIR]` through the real binary: one row per run directory (nested ones too) with its grid, status,
// counts and scores; a broken directory is one note line; --json holds the same.
import { beforeAll, test } from 'vitest';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertOneLine, runBench } from '../../helpers/cli.js';

const root = mkdtempSync(join(tmpdir(), 'bench-runs-'));
const run = (out: string, extra: string[] = []) =>
  runBench([
    'run',
    'niah_single_1',
    '--lengths',
    '8k,16k',
    '--samples',
    '3',
    '--no-progress',
    '--out',
    join(root, out),
    ...extra,
  ]);

/** Keeps the first `keep` lines of a run's samples.jsonl (an unfinished run), or marks the first as an error. */
function editSamples(out: string, edit: (lines: string[]) => string[]): void {
  const file = join(root, out, 'samples.jsonl');
  const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
  writeFileSync(file, `${edit(lines).join('\n')}\n`);
}

beforeAll(async () => {
  for (const [out, extra] of [
    ['done', []],
    ['partial', []],
    ['errored', []],
    ['nested/two', ['--method', 'memagent,full-context', '--max-context', '6000']],
  ] as const) {
    const r = await run(out, [...extra]);
    assert.equal(r.code, 0, r.stderr);
  }
  editSamples('partial', (lines) => lines.slice(0, 4));
  editSamples('errored', (lines) => {
    const first = JSON.parse(lines[0]) as Record<string, unknown>;
    return [JSON.stringify({ ...first, status: 'error', score: 0, error: 'boom' }), ...lines.slice(1)];
  });
  mkdirSync(join(root, 'broken'));
  writeFileSync(join(root, 'broken', 'manifest.json'), '{"command": ');
  mkdirSync(join(root, 'not-a-run'));
}, 300_000);

test('bench runs DIR: a row per run with grid, methods, model, status, n and scores; a broken one is a note', async () => {
  const r = await runBench(['runs', root]);
  assert.equal(r.code, 0, r.stderr);
  const rows = r.stdout.split('\n');
  assert.match(rows[0], /^run +tasks +grid +methods +model +status +n +errors +score ×100$/);
  const row = (dir: string) => rows.find((l) => l.startsWith(`${join(root, dir)} `)) ?? '';
  assert.match(
    row('done'),
    / niah_single_1 +8k,16k +memagent +local:reference-reader-v1 \(embedded\) +complete +6 of 6 +0 +100\.00$/,
  );
  assert.match(row('partial'), / partial +4 of 6 +0 +100\.00$/);
  assert.match(row('errored'), / errors +6 of 6 +1 +83\.33$/);
  assert.match(
    row('nested/two'),
    / memagent,full-context .* complete +12 of 12 +0 +memagent 100\.00, full-context \d+\.\d\d$/,
  );
  assert.ok(!rows.some((l) => l.includes('not-a-run')));
  assert.match(r.stdout, /^4 run directories; n = finished of planned samples × methods; score = /m);
  const notes = r.stderr.trim().split('\n');
  assert.equal(notes.length, 1, r.stderr);
  assert.match(notes[0], /^note: .*broken: manifest\.json is not valid JSON .*; not listed$/);
});

test('bench runs --json: the same runs and the broken directory', async () => {
  const r = await runBench(['runs', root, '--json']);
  assert.equal(r.code, 0, r.stderr);
  const d = JSON.parse(r.stdout) as {
    root: string;
    runs: { dir: string; status: string; samples: object; scores: Record<string, number | null>; lengths: object }[];
    broken: { dir: string; problem: string }[];
  };
  assert.equal(d.root, root);
  assert.deepEqual(
    d.runs.map((x) => [x.dir.slice(root.length + 1), x.status]),
    [
      ['done', 'complete'],
      ['errored', 'errors'],
      ['nested/two', 'complete'],
      ['partial', 'partial'],
    ],
  );
  const errored = d.runs.find((x) => x.dir.endsWith('errored'))!;
  assert.deepEqual(errored.samples, { finished: 6, planned: 6, errors: 1 });
  assert.deepEqual(errored.scores, { memagent: 83.33 });
  assert.deepEqual(errored.lengths, { niah_single_1: ['8k', '16k'] });
  assert.equal(d.broken.length, 1);
  assert.equal(d.broken[0].dir, join(root, 'broken'));
});

test('bench runs RUN_DIR lists that run; a missing folder is one line, exit 2; an empty one says so', async () => {
  const one = await runBench(['runs', join(root, 'done')]);
  assert.equal(one.code, 0, one.stderr);
  assert.equal(one.stdout.trim().split('\n').length, 4); // header, rule, the run, the footer
  assert.match(one.stdout, /^1 run directory; /m);
  assertOneLine(
    await runBench(['runs', join(root, 'nope')]),
    2,
    /nope not found: bench runs lists the run directories under a folder/,
  );
  const empty = await runBench(['runs', join(root, 'not-a-run')]);
  assert.equal(empty.code, 0);
  assert.equal(empty.stdout, '');
  assert.match(empty.stderr, /^no run directories under .*not-a-run/);
  assertOneLine(await runBench(['runs', 'a', 'b']), 2, /bench runs takes at most one folder, got 2/);
});
