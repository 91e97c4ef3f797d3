// --shard i/n and --shard auto[/n]: the index (and count) from a Kubernetes Indexed Job or a Slurm array.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveShard } from '../../../harness/config/shard.js';
import { parseCli } from '../../../cli/parse.js';
import { UserError } from '../../../harness/errors.js';
import { assertOneLine, runBench } from '../../helpers/cli.js';

const refuses = (raw: string, env: Record<string, string>, message: RegExp) =>
  assert.throws(
    () => resolveShard(raw, env),
    (e: unknown) => e instanceof UserError && e.exitCode === 2 && message.test(e.message) && !e.message.includes('\n'),
    `${raw} ${JSON.stringify(env)}`,
  );

test('i/n is taken as given; absent stays absent', () => {
  assert.deepEqual(resolveShard('2/5', {}), { index: 2, count: 5 });
  assert.equal(resolveShard(undefined, { JOB_COMPLETION_INDEX: '1' }), undefined);
  refuses('5/5', {}, /expected i\/n/);
  refuses('x', {}, /or 'auto'/);
});

test('auto in a Kubernetes Indexed Job: JOB_COMPLETION_INDEX with the count from auto/N or BENCH_SHARD_COUNT', () => {
  assert.deepEqual(resolveShard('auto/4', { JOB_COMPLETION_INDEX: '3' }), { index: 3, count: 4 });
  assert.deepEqual(resolveShard('auto', { JOB_COMPLETION_INDEX: '0', BENCH_SHARD_COUNT: '8' }), { index: 0, count: 8 });
  assert.deepEqual(resolveShard('auto/8', { JOB_COMPLETION_INDEX: '7', BENCH_SHARD_COUNT: '8' }), {
    index: 7,
    count: 8,
  });
  refuses('auto', { JOB_COMPLETION_INDEX: '0' }, /does not expose the completion count.*auto\/N.*BENCH_SHARD_COUNT/);
  refuses('auto/4', { JOB_COMPLETION_INDEX: '4' }, /index 4 is not below the count 4/);
  refuses('auto/4', { JOB_COMPLETION_INDEX: '1', BENCH_SHARD_COUNT: '5' }, /disagrees with BENCH_SHARD_COUNT=5/);
  refuses('auto/4', { JOB_COMPLETION_INDEX: 'one' }, /JOB_COMPLETION_INDEX must be a whole number/);
});

test('auto in a Slurm array: the task id counted from SLURM_ARRAY_TASK_MIN in steps of SLURM_ARRAY_TASK_STEP', () => {
  assert.deepEqual(
    resolveShard('auto', { SLURM_ARRAY_TASK_ID: '2', SLURM_ARRAY_TASK_COUNT: '4', SLURM_ARRAY_TASK_MIN: '0' }),
    { index: 2, count: 4 },
  );
  // --array=1-8: ids 1..8 are shards 0..7
  assert.deepEqual(
    resolveShard('auto', { SLURM_ARRAY_TASK_ID: '1', SLURM_ARRAY_TASK_COUNT: '8', SLURM_ARRAY_TASK_MIN: '1' }),
    { index: 0, count: 8 },
  );
  assert.deepEqual(
    resolveShard('auto', { SLURM_ARRAY_TASK_ID: '8', SLURM_ARRAY_TASK_COUNT: '8', SLURM_ARRAY_TASK_MIN: '1' }),
    { index: 7, count: 8 },
  );
  // --array=0-14:2: ids 0, 2, ..., 14
  assert.deepEqual(
    resolveShard('auto', {
      SLURM_ARRAY_TASK_ID: '6',
      SLURM_ARRAY_TASK_COUNT: '8',
      SLURM_ARRAY_TASK_MIN: '0',
      SLURM_ARRAY_TASK_STEP: '2',
    }),
    { index: 3, count: 8 },
  );
  // a list such as --array=1,3,9 is not a range
  refuses(
    'auto',
    { SLURM_ARRAY_TASK_ID: '9', SLURM_ARRAY_TASK_COUNT: '3', SLURM_ARRAY_TASK_MIN: '1' },
    /must be a range/,
  );
  refuses('auto', { SLURM_ARRAY_TASK_ID: '0' }, /SLURM_ARRAY_TASK_COUNT is not/);
});

test('auto/N in a Slurm array: the task id is the shard index, so one failed task can be resubmitted alone', () => {
  // `sbatch --array=3 shards.sbatch` after a failure: MIN 3, COUNT 1, but the sweep has 8 shards
  const retry = { SLURM_ARRAY_TASK_ID: '3', SLURM_ARRAY_TASK_COUNT: '1', SLURM_ARRAY_TASK_MIN: '3' };
  assert.deepEqual(resolveShard('auto/8', retry), { index: 3, count: 8 });
  assert.deepEqual(resolveShard('auto', { ...retry, BENCH_SHARD_COUNT: '8' }), { index: 3, count: 8 });
  assert.deepEqual(
    resolveShard('auto', retry),
    { index: 0, count: 1 },
    'without N the array as submitted is the sweep',
  );
  refuses(
    'auto/8',
    { SLURM_ARRAY_TASK_ID: '8', SLURM_ARRAY_TASK_COUNT: '8', SLURM_ARRAY_TASK_MIN: '1' },
    /index 8 is not below the count 8 .*--array=0-7/,
  );
  refuses('auto/8', { SLURM_ARRAY_TASK_ID: '1', BENCH_SHARD_COUNT: '4' }, /auto\/8 disagrees with BENCH_SHARD_COUNT=4/);
});

test('auto with no job system, or with both, is one clear line', () => {
  refuses('auto', {}, /no job index in the environment.*JOB_COMPLETION_INDEX.*SLURM_ARRAY_TASK_ID.*--shard i\/n/);
  refuses(
    'auto',
    { JOB_COMPLETION_INDEX: '0', SLURM_ARRAY_TASK_ID: '0', BENCH_SHARD_COUNT: '2' },
    /both JOB_COMPLETION_INDEX .* and SLURM_ARRAY_TASK_ID/,
  );
  refuses('auto/0', { JOB_COMPLETION_INDEX: '0' }, /at least 1/);
});

test('parseCli resolves --shard auto from the environment it is given', () => {
  const cmd = parseCli(['run', 'ruler-hqa', '--shard', 'auto/3'], { JOB_COMPLETION_INDEX: '2' });
  assert.ok(cmd.command === 'run');
  assert.deepEqual(cmd.config.shard, { index: 2, count: 3 });
  assert.throws(() => parseCli(['run', 'ruler-hqa', '--shard', 'auto'], {}), /no job index/);
});

test('bench run --shard auto (child process): the Slurm environment picks the shard; without one, one line and exit 2', async () => {
  const base = { ...process.env };
  for (const k of [
    'JOB_COMPLETION_INDEX',
    'BENCH_SHARD_COUNT',
    'SLURM_ARRAY_TASK_ID',
    'SLURM_ARRAY_TASK_COUNT',
    'SLURM_ARRAY_TASK_MIN',
    'SLURM_ARRAY_TASK_STEP',
  ])
    delete base[k];
  const out = join(mkdtempSync(join(tmpdir(), 'bench-shard-auto-')), 'never');
  const args = [
    'run',
    'ruler-hqa',
    '--lengths',
    '8k',
    '--samples',
    '4',
    '--shard',
    'auto',
    '--dry-run',
    '--no-progress',
    '--out',
    out,
  ];
  const set = await runBench(args, {
    env: { ...base, SLURM_ARRAY_TASK_ID: '1', SLURM_ARRAY_TASK_COUNT: '2', SLURM_ARRAY_TASK_MIN: '0' },
  });
  assert.equal(set.code, 0, set.stderr);
  // samples 1 and 3 of 4: shard 1/2
  const row = set.stdout.split('\n').find((l) => l.startsWith('ruler-hqa  '))!;
  assert.equal(row.trim().split(/\s{2,}/)[3], '2', set.stdout);
  const unset = await runBench(args, { env: base });
  assertOneLine(unset, 2, /--shard auto: no job index in the environment/);
});
