// ctx-dist's score per placement at each length is a number in every summary form (the table after `bench run`,
// summary.csv, summary.json, summary.md, report.html), not only a bar of the probe chart; each equals the mean of
// that placement's samples in samples.jsonl. Plain RULER-HQA gets no such rows. The real binary on real files.
// Needs `npm run build` (dist/).
import { afterAll, beforeAll, test } from 'vitest';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBench } from '../../helpers/cli.js';
import { placementLabel } from '../../../generators/ruler-hqa/probe-chart.js';

const root = mkdtempSync(join(tmpdir(), 'bench-ctx-dist-'));
const env = { ...process.env, BENCH_CACHE_DIR: join(root, 'cache') };
const dir = join(root, 'probe');
let runOut = '';
afterAll(() => rmSync(root, { recursive: true, force: true }));

const PLACEMENTS = ['(0%, 100%)', '(20%, 80%)', '(40%, 60%)', '(0%, 20%)', '(80%, 100%)', 'random'];

async function ok(args: string[]) {
  const r = await runBench(args, { env });
  assert.equal(r.code, 0, `bench ${args.join(' ')}\n${r.stderr}`);
  return r.stdout;
}

/** "8k · (0%, 20%)" → score ×100 with 2 decimals, from samples.jsonl. */
function expected(): Map<string, string> {
  const sums = new Map<string, { sum: number; n: number }>();
  for (const line of readFileSync(join(dir, 'samples.jsonl'), 'utf8').split('\n').filter(Boolean)) {
    const r = JSON.parse(line) as { lengthLabel: string; score: number; metadata: { placement: unknown } };
    const key = `${r.lengthLabel} · ${placementLabel(r.metadata.placement)}`;
    const s = sums.get(key) ?? { sum: 0, n: 0 };
    sums.set(key, { sum: s.sum + r.score, n: s.n + 1 });
  }
  return new Map([...sums].map(([k, s]) => [k, ((100 * s.sum) / s.n).toFixed(2)]));
}

beforeAll(async () => {
  runOut = await ok([
    'run',
    'ctx-dist',
    '--lengths',
    '8k,16k',
    '--samples',
    '12',
    '--workers',
    '1',
    '--no-progress',
    '--out',
    dir,
  ]);
  await ok(['report', dir]);
});

test('every length × placement row, with its number, in the terminal, summary.csv/json/md and report.html', () => {
  const want = expected();
  assert.equal(want.size, 12);
  const csv = readFileSync(join(dir, 'summary.csv'), 'utf8');
  const json = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as {
    buckets: Array<{ lengthLabel: string; scoreX100: number; n: number }>;
  };
  const md = readFileSync(join(dir, 'summary.md'), 'utf8');
  const html = readFileSync(join(dir, 'report.html'), 'utf8');
  // The rows stand in the probe's order under each length.
  assert.deepEqual(
    json.buckets.map((b) => b.lengthLabel),
    ['8k', '16k'].flatMap((l) => PLACEMENTS.map((p) => `${l} · ${p}`)),
  );
  for (const [label, score] of want) {
    const esc = label.replace(/[()%]/g, (c) => `\\${c}`);
    assert.match(runOut, new RegExp(`^${esc} +2 +${score} `, 'm'), `terminal: ${label}`);
    assert.match(
      csv,
      new RegExp(`^ctx-dist,memagent,[^,]+,yes,"?${esc}"?,bucket,[\\d.]+,sub_em,${score},`, 'm'),
      `csv: ${label}`,
    );
    assert.equal(json.buckets.find((b) => b.lengthLabel === label)?.scoreX100.toFixed(2), score, `json: ${label}`);
    assert.match(md, new RegExp(`\\| ${esc} \\| sub_em \\| ${score} \\|`), `md: ${label}`);
    assert.match(html, new RegExp(`${esc}(</span>)?</td><td>sub_em</td><td><b>${score}</b>`), `html: ${label}`);
  }
  assert.match(runOut, /supporting paragraphs sit at those relative document positions/);
  // The LongBench-E note belongs to LongBench's buckets only.
  assert.doesNotMatch(runOut + md, /LongBench-E/);
});

test('RULER-HQA alone has no placement rows', async () => {
  const plain = join(root, 'plain');
  const out = await ok([
    'run',
    'ruler-hqa',
    '--lengths',
    '8k',
    '--samples',
    '2',
    '--workers',
    '1',
    '--no-progress',
    '--out',
    plain,
  ]);
  assert.doesNotMatch(out, /^8k · /m);
  assert.equal(
    (JSON.parse(readFileSync(join(plain, 'summary.json'), 'utf8')) as { buckets?: unknown }).buckets,
    undefined,
  );
});
