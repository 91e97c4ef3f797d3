// Every `bench generate --format X` file is read back by `bench run --data` (the real binary, real files): per format
// and per family where the format applies, the run's grid is the generated lengths and every sample scores as it
// does when the task builds it itself. A format that does not apply to a task is refused by generate in one line.
// Needs `npm run build` (dist/).
import { afterAll, test } from 'vitest';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertOneLine, runBench } from '../../helpers/cli.js';
import { builtinCatalog } from '../../../generators/index.js';

const root = mkdtempSync(join(tmpdir(), 'bench-roundtrip-'));
const env = { ...process.env, BENCH_CACHE_DIR: join(root, 'cache') };
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Case {
  task: string;
  format: string;
  /** --lengths for generate and the direct run; none: the task's own (LongBench's native point, a data file's). */
  lengths?: string;
  /** The task that runs the file, when another task of the family reads it (ctx-dist's MemAgent files). */
  runAs?: string;
  /** Extra generate/run arguments (the jsonl task's own data). */
  args?: string[];
}

const CASES: Case[] = [
  { task: 'ruler-hqa', format: 'native', lengths: '8k' },
  { task: 'ctx-dist', format: 'native', lengths: '8k' },
  { task: 'niah_single_2', format: 'native', lengths: '8k' },
  { task: 'longbench/hotpotqa', format: 'native' },
  { task: 'jsonl', format: 'native', args: ['--data', join(root, 'mine.jsonl')] },
  { task: 'ruler-hqa', format: 'memagent', lengths: 'docs:20' },
  { task: 'ruler-hqa', format: 'memagent', lengths: '8k' },
  { task: 'ctx-dist', format: 'memagent', lengths: '8k', runAs: 'ruler-hqa' },
  { task: 'niah_single_2', format: 'memagent', lengths: '8k' },
  { task: 'niah_multivalue', format: 'ruler', lengths: '8k' },
];

writeFileSync(
  join(root, 'mine.jsonl'),
  [
    {
      context: 'Oslo is the capital of Norway. Bern is the capital of Switzerland.',
      question: 'What is the capital of Norway?',
      answers: ['Oslo'],
    },
    {
      context: 'The Nile flows north into the Mediterranean Sea.',
      question: 'Where does the Nile flow?',
      answers: ['the Mediterranean Sea'],
      metric: 'f1',
    },
  ]
    .map((r) => JSON.stringify(r))
    .join('\n') + '\n',
);

type Rec = { index: number; lengthLabel: string; score: number; status: string; prediction: string | null };

function records(dir: string): Map<string, Rec> {
  const out = new Map<string, Rec>();
  for (const line of readFileSync(join(dir, 'samples.jsonl'), 'utf8').split('\n').filter(Boolean)) {
    const r = JSON.parse(line) as Rec;
    out.set(`${r.lengthLabel}/${r.index}`, r);
  }
  return out;
}

async function bench(args: string[]) {
  const r = await runBench(args, { env });
  assert.equal(r.code, 0, `bench ${args.join(' ')}\n${r.stderr}`);
  return r;
}

test('every generate format of the catalog is covered here', () => {
  const covered = new Set(CASES.map((c) => c.format));
  for (const f of builtinCatalog().generateFormats()) assert.ok(covered.has(f), `--format ${f} has no round-trip case`);
});

for (const c of CASES) {
  test(`generate ${c.task} --format ${c.format}${c.lengths ? ` --lengths ${c.lengths}` : ''}: bench run --data reads it and scores the same`, async () => {
    const tag = `${c.task.replace(/\W/g, '_')}-${c.format}-${(c.lengths ?? 'own').replace(/\W/g, '_')}`;
    const lengths = c.lengths ? ['--lengths', c.lengths] : [];
    const out = join(root, `${tag}${c.format === 'native' ? '.jsonl' : ''}`);
    await bench([
      'generate',
      c.task,
      ...(c.args ?? []),
      '--format',
      c.format,
      ...lengths,
      '--samples',
      '3',
      '--out',
      out,
    ]);
    const direct = join(root, `${tag}-direct`);
    await bench([
      'run',
      c.task,
      ...(c.args ?? []),
      ...lengths,
      '--samples',
      '3',
      '--workers',
      '1',
      '--no-progress',
      '--out',
      direct,
    ]);
    const back = join(root, `${tag}-back`);
    const r = await bench(['run', c.runAs ?? c.task, '--data', out, '--workers', '1', '--no-progress', '--out', back]);
    const want = records(direct);
    const got = records(back);
    // The grid is the generated one: the same length labels, the same sample count at each.
    assert.deepEqual([...got.keys()].sort(), [...want.keys()].sort(), r.stdout);
    for (const [key, w] of want) {
      const g = got.get(key)!;
      assert.deepEqual(
        { score: g.score, status: g.status, prediction: g.prediction },
        { score: w.score, status: w.status, prediction: w.prediction },
        `${key} of ${c.task} read back from --format ${c.format}`,
      );
    }
  });
}

test('a format that does not apply to a task is refused by generate in one line, nothing written', async () => {
  for (const [task, format, lengths, message] of [
    [
      'ruler-hqa',
      'ruler',
      '8k',
      /^bench: --format ruler writes RULER's own prompt, which only RULER's tasks \(niah_\*\) have; ruler-hqa has none: use --format memagent or native$/,
    ],
    [
      'longbench/hotpotqa',
      'ruler',
      undefined,
      /^bench: --format ruler lays data out by token length .*; all is not a token length: use --format native$/,
    ],
    [
      'longbench/hotpotqa',
      'memagent',
      undefined,
      /^bench: --format memagent lays data out by length .*: use --format native$/,
    ],
  ] as const) {
    const out = join(root, `refused-${format}-${task.replace(/\W/g, '_')}`);
    const r = await runBench(
      [
        'generate',
        task,
        '--format',
        format,
        ...(lengths ? ['--lengths', lengths] : []),
        '--samples',
        '1',
        '--out',
        out,
      ],
      { env },
    );
    assertOneLine(r, 2, message);
    assert.ok(!existsSync(out), `${out} must not exist`);
  }
});

test('native rows of another task, or another task version, are refused in one line', async () => {
  const file = join(root, 'ruler-hqa-native-8k.jsonl');
  if (!existsSync(file))
    await bench(['generate', 'ruler-hqa', '--format', 'native', '--lengths', '8k', '--samples', '1', '--out', file]);
  const out = join(root, 'wrong-task');
  assertOneLine(
    await runBench(['run', 'niah_single_1', '--data', file, '--no-progress', '--out', out], { env }),
    2,
    /^bench: .*ruler-hqa-native-8k\.jsonl: line 1: a row of task "ruler-hqa", which task niah_single_1 does not read: run `bench run ruler-hqa --data .*`$/,
  );
  const [first] = readFileSync(file, 'utf8').split('\n');
  const old = join(root, 'old-version.jsonl');
  writeFileSync(old, `${JSON.stringify({ ...JSON.parse(first), task_version: '0' })}\n`);
  assertOneLine(
    await runBench(['run', 'ruler-hqa', '--data', old, '--no-progress', '--out', out], { env }),
    2,
    /^bench: .*old-version\.jsonl: line 1: generated by version "0" of ruler-hqa; this build runs version \d+: generate the file again$/,
  );
  assertOneLine(
    await runBench(['run', 'ruler-hqa', '--data', file, '--placement', '0-20', '--no-progress', '--out', out], { env }),
    2,
    /^bench: --placement builds samples, and .* holds samples already built by bench generate: drop --placement/,
  );
  assert.ok(!existsSync(out));
});
