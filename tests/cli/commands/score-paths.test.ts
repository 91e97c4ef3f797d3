// `bench score` on the paths the README and `bench export` name: an export's --out root, LongBench's pred/ folder,
// RULER's <model> and length folders, MemAgent's results/ — each gives the same scores as the run itself. The real
// binary on real files. Needs `npm run build` (dist/).
import { afterAll, beforeAll, test } from 'vitest';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertOneLine, runBench } from '../../helpers/cli.js';

const root = mkdtempSync(join(tmpdir(), 'bench-score-paths-'));
const env = { ...process.env, BENCH_CACHE_DIR: join(root, 'cache') };
const NAME = 'local_reference-reader-v1__memagent';

interface Row {
  n: number;
  percent: number;
  lengthLabel: string;
}

async function ok(args: string[]) {
  const r = await runBench(args, { env });
  assert.equal(r.code, 0, `bench ${args.join(' ')}\n${r.stderr}`);
  return r.stdout;
}

async function scores(target: string): Promise<string[]> {
  const table = JSON.parse(await ok(['score', target, '--json'])) as { rows: Row[] };
  return table.rows.map((r) => `${r.lengthLabel} n=${r.n} ${r.percent.toFixed(2)}`).sort();
}

beforeAll(async () => {
  await ok([
    'run',
    'ruler-hqa,niah_single_1',
    '--lengths',
    '8k',
    '--samples',
    '2',
    '--workers',
    '1',
    '--no-progress',
    '--out',
    join(root, 'synthetic'),
  ]);
  await ok([
    'run',
    'longbench/hotpotqa',
    '--samples',
    '3',
    '--workers',
    '1',
    '--no-progress',
    '--out',
    join(root, 'lb'),
  ]);
  await ok(['export', join(root, 'synthetic'), '--format', 'memagent', '--out', join(root, 'ex-memagent')]);
  await ok([
    'export',
    join(root, 'synthetic'),
    '--format',
    'ruler',
    '--tasks',
    'niah_single_1',
    '--out',
    join(root, 'ex-ruler'),
  ]);
  await ok(['export', join(root, 'lb'), '--format', 'longbench', '--out', join(root, 'ex-lb')]);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

test("LongBench: the export's root and its pred/ score as the run (and as pred/<name>/, which worked before)", async () => {
  const run = await scores(join(root, 'lb'));
  assert.equal(run.length, 1);
  for (const p of ['ex-lb', join('ex-lb', 'pred'), join('ex-lb', 'pred', NAME)])
    assert.deepEqual(await scores(join(root, p)), run, p);
});

test("RULER: the export's root, <model>/ and <model>/synthetic/ score as the length's pred/ folder and the run", async () => {
  const pred = join('ex-ruler', NAME, 'synthetic', '8192', 'pred');
  const want = await scores(join(root, pred));
  assert.deepEqual(want, ['8k n=2 100.00']);
  for (const p of ['ex-ruler', join('ex-ruler', NAME), join('ex-ruler', NAME, 'synthetic')])
    assert.deepEqual(await scores(join(root, p)), want, p);
});

test("MemAgent: the export's root scores as its results/ folder and as the run", async () => {
  const run = await scores(join(root, 'synthetic'));
  assert.deepEqual(await scores(join(root, 'ex-memagent', 'results')), run);
  assert.deepEqual(await scores(join(root, 'ex-memagent')), run);
});

test('a folder with two kinds of prediction files below it, or none, is one line and exit 2', async () => {
  const mixed = join(root, 'mixed');
  mkdirSync(join(mixed, 'a'), { recursive: true });
  mkdirSync(join(mixed, 'b'), { recursive: true });
  writeFileSync(
    join(mixed, 'a', 'qasper.jsonl'),
    `${JSON.stringify({ pred: 'x', answers: ['x'], all_classes: null, length: 1 })}\n`,
  );
  writeFileSync(
    join(mixed, 'b', 'niah_single_1.jsonl'),
    `${JSON.stringify({ index: 0, pred: 'x', outputs: ['x'] })}\n`,
  );
  assertOneLine(
    await runBench(['score', mixed], { env }),
    2,
    /^bench: .*niah_single_1\.jsonl: looks like ruler output, not longbench as .*qasper\.jsonl; score one kind of file at a time \(pass the folder that holds one kind\)$/,
  );
  const empty = join(root, 'empty', 'deeper');
  mkdirSync(empty, { recursive: true });
  assertOneLine(
    await runBench(['score', join(root, 'empty')], { env }),
    2,
    /^bench: no \.jsonl files in .*empty or below it; expected a bench run directory/,
  );
});
