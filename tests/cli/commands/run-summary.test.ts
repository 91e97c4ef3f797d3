// The summary files a run writes describe its whole directory: after a subset rerun, or an --extend that adds a
// method at one length, summary.csv and summary.json are byte for byte what `bench report DIR` writes, never just
// the cells of the last command. The real binary on real files. Needs `npm run build` (dist/).
import { afterAll, test } from 'vitest';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBench } from '../../helpers/cli.js';

const root = mkdtempSync(join(tmpdir(), 'bench-run-summary-'));
const env = { ...process.env, BENCH_CACHE_DIR: join(root, 'cache') };
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function ok(args: string[]) {
  const r = await runBench(args, { env });
  assert.equal(r.code, 0, `bench ${args.join(' ')}\n${r.stderr}`);
  return r.stdout;
}

const run = (dir: string, ...args: string[]) =>
  ok(['run', 'ruler-hqa', '--samples', '2', '--workers', '1', '--no-progress', '--out', dir, ...args]);

/** summary.csv and summary.json of `dir` against those `bench report dir` writes elsewhere. */
async function assertWholeDirectory(dir: string, tag: string): Promise<Array<Record<string, unknown>>> {
  const report = join(root, `report-${tag}`);
  await ok(['report', dir, '--out', report]);
  for (const f of ['summary.csv', 'summary.json'])
    assert.equal(readFileSync(join(dir, f), 'utf8'), readFileSync(join(report, f), 'utf8'), `${tag}: ${f}`);
  return (JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as { rows: Array<Record<string, unknown>> }).rows;
}

test('a subset rerun keeps every cell of the directory in summary.csv/json, as bench report does', async () => {
  const dir = join(root, 'subset');
  await run(dir, '--lengths', '8k,16k');
  const before = readFileSync(join(dir, 'summary.csv'), 'utf8');
  const out = await run(dir, '--lengths', '8k');
  assert.equal(readFileSync(join(dir, 'summary.csv'), 'utf8'), before);
  const rows = await assertWholeDirectory(dir, 'subset');
  assert.deepEqual(
    rows.map((r) => `${r.lengthLabel as string} ${r.n as number} ${String(r.complete)}`),
    ['8k 2 true', '16k 2 true'],
  );
  // The terminal shows what this command ran and says where the rest is.
  assert.match(out, /\n8k +2 /);
  assert.doesNotMatch(out, /\n16k /);
  assert.match(
    out,
    /this table: the 1 cell\(s\) this command ran; summary\.csv and summary\.json in .*subset hold all 2 of the directory \(bench report .*subset for the rest\)/,
  );
});

test('--extend with a method at one length: the summary plans that method only there, as bench report does', async () => {
  const dir = join(root, 'extend');
  await run(dir, '--lengths', '8k,16k');
  await run(dir, '--lengths', '8k', '--method', 'full-context', '--extend');
  const rows = await assertWholeDirectory(dir, 'extend');
  assert.deepEqual(
    rows.map((r) => `${r.method as string} ${r.lengthLabel as string} ${String(r.complete)}`),
    ['full-context 8k true', 'memagent 8k true', 'memagent 16k true'],
  );
});
