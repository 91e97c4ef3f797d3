// A task skipped for missing data (LongBench's datasets without a bundled fixture, run without --data) is recorded in
// the run's manifest (and its history entry) and named, with the reason, under the summary the run prints and in
// summary.json; `bench report` keeps it. The real binary on real files. Needs `npm run build` (dist/).
import { afterAll, test } from 'vitest';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBench } from '../../helpers/cli.js';
import { readManifest } from '../../../harness/run-dir/manifest.js';

const root = mkdtempSync(join(tmpdir(), 'bench-skipped-'));
const env = { ...process.env, BENCH_CACHE_DIR: join(root, 'cache') };
afterAll(() => rmSync(root, { recursive: true, force: true }));

const REASON = /^no bundled fixture for LongBench '2wikimqa': pass --data DIR with LongBench's 2wikimqa\.jsonl/;

test('a task without data is skipped in the manifest and the summary, with the reason', async () => {
  const out = join(root, 'run');
  const args = ['run', 'longbench/2wikimqa,longbench/multi_news', '--samples', '2', '--method', 'full-context'];
  const r = await runBench([...args, '--workers', '1', '--no-progress', '--out', out], { env });
  assert.equal(r.code, 0, r.stderr);

  const manifest = readManifest(out);
  assert.deepEqual(
    manifest.tasks.map((t) => t.name),
    ['longbench/multi_news'],
  );
  assert.equal(manifest.skipped?.length, 1);
  assert.equal(manifest.skipped[0].task, 'longbench/2wikimqa');
  assert.match(manifest.skipped[0].reason, REASON);
  assert.deepEqual(manifest.history?.at(-1)?.skipped, manifest.skipped);

  const note = r.stdout.split('\n').find((l) => l.startsWith('skipped '));
  assert.ok(note, `no skipped line under the summary:\n${r.stdout}`);
  assert.match(note.slice('skipped longbench/2wikimqa: '.length), REASON);
  assert.ok(note.startsWith('skipped longbench/2wikimqa: '), note);
  // After the table (and its rows), not only the "skipping" line printed when the run starts.
  assert.ok(r.stdout.indexOf(note) > r.stdout.indexOf('rouge_l_f ×100'));

  const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
  assert.deepEqual(summary.skipped, manifest.skipped);
  assert.deepEqual([...new Set(summary.rows.map((row: { task: string }) => row.task))], ['longbench/multi_news']);
  const report = join(root, 'report');
  const rep = await runBench(['report', out, '--out', report], { env });
  assert.equal(rep.code, 0, rep.stderr);
  assert.deepEqual(JSON.parse(readFileSync(join(report, 'summary.json'), 'utf8')).skipped, manifest.skipped);

  // A run that skips nothing records no `skipped`.
  const whole = join(root, 'whole');
  const w = await runBench(
    ['run', 'longbench/multi_news', '--samples', '1', '--method', 'full-context', '--no-progress', '--out', whole],
    { env },
  );
  assert.equal(w.code, 0, w.stderr);
  assert.equal(readManifest(whole).skipped, undefined);
  assert.equal(JSON.parse(readFileSync(join(whole, 'summary.json'), 'utf8')).skipped, undefined);
  assert.doesNotMatch(w.stdout, /^skipped /m);
});
