// LongBench-E end to end with the real binary: a `_e` task on the bundled hotpotqa fixture, its buckets in the run's
// summary and the report's bucket chart (one per method × model). Needs `npm run build` (dist/).
import { afterAll, beforeAll, test } from 'vitest';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBench } from '../../helpers/cli.js';

const root = mkdtempSync(join(tmpdir(), 'bench-lbe-'));
const env = { ...process.env, BENCH_CACHE_DIR: join(root, 'cache') };
let runOut = '';
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function ok(args: string[]) {
  const r = await runBench(args, { env });
  assert.equal(r.code, 0, `bench ${args.join(' ')}\n${r.stderr}`);
  return r.stdout;
}

beforeAll(async () => {
  runOut = await ok([
    'run',
    'longbench/hotpotqa_e,longbench/multi_news',
    '--samples',
    '9',
    '--method',
    'full-context',
    '--max-context',
    '4000',
    '--no-progress',
    '--out',
    join(root, 'run'),
  ]);
  await ok(['report', join(root, 'run'), '--out', join(root, 'report')]);
}, 300_000);

test('the run prints the 0-4k / 4-8k / 8k+ rows of the LongBench-E task', () => {
  for (const b of ['0-4k', '4-8k', '8k+']) assert.match(runOut, new RegExp(`^${b.replace('+', '\\+')} +3 `, 'm'));
});

test('the report draws the bucket chart for the _e task only, captioned with its fixture note', () => {
  const charts = readdirSync(join(root, 'report', 'charts'));
  const e = charts.filter((f) => f.startsWith('longbench-e-'));
  assert.deepEqual(e.filter((f) => f.endsWith('.png')).length, 2, charts.join(', '));
  const caption = readFileSync(
    join(
      root,
      'report',
      'charts',
      e.find((f) => f.endsWith('.caption.txt'))!,
    ),
    'utf8',
  );
  assert.match(caption, /LongBench-E on fixtures \(not LongBench data\): score by length bucket/);
  assert.match(caption, /0-4k below 4,000, 4-8k below 8,000, 8k\+ the rest/);
  const summary = JSON.parse(readFileSync(join(root, 'report', 'summary.json'), 'utf8')) as {
    buckets: Array<{ task: string; lengthLabel: string; n: number }>;
  };
  assert.deepEqual(
    summary.buckets.filter((r) => r.task === 'longbench/hotpotqa_e').map((r) => [r.lengthLabel, r.n]),
    [
      ['0-4k', 3],
      ['4-8k', 3],
      ['8k+', 3],
    ],
  );
});
