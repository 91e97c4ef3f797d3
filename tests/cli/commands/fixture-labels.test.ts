// The bundled LongBench data are small test fixtures, and every place a score is shown says so: the table after
// `bench run`, `bench report`'s output, summary.csv/json/md, report.html and the LongBench charts' titles. The same
// rows read with --data are not labelled. `bench tasks` gives each task's real sample count and its groups. The real
// binary on real files. Needs `npm run build` (dist/).
import { afterAll, beforeAll, test } from 'vitest';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBench } from '../../helpers/cli.js';
import { datasetPath } from '../../../harness/paths.js';
import { longbenchReportFacet } from '../../../generators/longbench/report-facet.js';
import { summarize } from '../../../reports/summary.js';
import { loadRecords } from '../../../reports/records.js';

const root = mkdtempSync(join(tmpdir(), 'bench-labels-'));
const env = { ...process.env, BENCH_CACHE_DIR: join(root, 'cache') };
const fixtureRun = join(root, 'fixture');
const dataRun = join(root, 'data');
let runOut = '';
let reportOut = '';
let dataOut = '';
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function ok(args: string[]) {
  const r = await runBench(args, { env });
  assert.equal(r.code, 0, `bench ${args.join(' ')}\n${r.stderr}`);
  return r.stdout;
}

const NOTE =
  /fixture: longbench\/hotpotqa, longbench\/multi_news ran on the small test fixtures bundled with bench, not the benchmark's data: these scores are no benchmark result/;

beforeAll(async () => {
  runOut = await ok([
    'run',
    'longbench/hotpotqa,longbench/multi_news',
    '--samples',
    '2',
    '--workers',
    '1',
    '--no-progress',
    '--out',
    fixtureRun,
  ]);
  reportOut = await ok(['report', fixtureRun]);
  // The same rows as a LongBench data directory of the user's: not a fixture.
  const dir = join(root, 'LongBench');
  mkdirSync(dir);
  for (const d of ['hotpotqa', 'multi_news'])
    copyFileSync(datasetPath('longbench', 'fixtures', `${d}.jsonl`), join(dir, `${d}.jsonl`));
  dataOut = await ok([
    'run',
    'longbench/hotpotqa,longbench/multi_news',
    '--data',
    dir,
    '--samples',
    '2',
    '--workers',
    '1',
    '--no-progress',
    '--out',
    dataRun,
  ]);
  await ok(['report', dataRun]);
});

test('the terminal after bench run and bench report names the fixtures', () => {
  assert.match(runOut, /^longbench\/hotpotqa \(fixture\) · memagent · /m);
  assert.match(runOut, NOTE);
  assert.match(reportOut, NOTE);
  assert.doesNotMatch(dataOut, /\(fixture\)|test fixture/);
});

test('summary.csv, summary.json, summary.md and report.html label fixture rows; --data rows are not labelled', () => {
  const csv = readFileSync(join(fixtureRun, 'summary.csv'), 'utf8').trim().split('\n');
  const header = csv[0].split(',');
  const col = header.indexOf('fixture');
  assert.ok(col >= 0, csv[0]);
  for (const line of csv.slice(1)) assert.equal(line.split(',')[col], 'yes', line);
  for (const line of readFileSync(join(dataRun, 'summary.csv'), 'utf8').trim().split('\n').slice(1))
    assert.equal(line.split(',')[col], 'no', line);

  const json = JSON.parse(readFileSync(join(fixtureRun, 'summary.json'), 'utf8')) as {
    rows: Array<{ fixture: boolean }>;
    fixtureNote?: string;
  };
  assert.ok(json.rows.every((r) => r.fixture === true));
  assert.match(json.fixtureNote ?? '', NOTE);
  const real = JSON.parse(readFileSync(join(dataRun, 'summary.json'), 'utf8')) as typeof json;
  assert.ok(real.rows.every((r) => r.fixture === false));
  assert.equal(real.fixtureNote, undefined);

  const md = readFileSync(join(fixtureRun, 'summary.md'), 'utf8');
  assert.match(md, NOTE);
  assert.match(md, /^\| longbench\/hotpotqa \(fixture\) \| memagent \|/m);
  assert.doesNotMatch(readFileSync(join(dataRun, 'summary.md'), 'utf8'), /\(fixture\)|test fixture/);

  const html = readFileSync(join(fixtureRun, 'report.html'), 'utf8');
  assert.match(
    html,
    /<div class="warn"><b>fixture: longbench\/hotpotqa, longbench\/multi_news ran on the small test fixtures/,
  );
  assert.match(html, /<td>longbench\/hotpotqa \(fixture\)<\/td>/);
  assert.doesNotMatch(readFileSync(join(dataRun, 'report.html'), 'utf8'), /\(fixture\)|ran on the small test fixture/);
});

test('the LongBench charts say fixtures in their titles', async () => {
  const titles = async (dir: string) => {
    const rows = summarize(await loadRecords(dir), [longbenchReportFacet]);
    return longbenchReportFacet.charts!({ rows, records: [], referenceModels: new Set() }).charts.map((c) => c.title);
  };
  assert.deepEqual(await titles(fixtureRun), [
    'LongBench fixtures (not LongBench data): score per dataset',
    'Summarisation: ROUGE recall (LongBench fixtures, not LongBench data) — local:reference-reader-v1',
  ]);
  assert.deepEqual(await titles(dataRun), [
    'LongBench: score per dataset',
    'Summarisation: ROUGE recall — local:reference-reader-v1',
  ]);
});

test("bench tasks: each task's real sample count without --data, and its groups", async () => {
  const out = await ok(['tasks']);
  assert.match(
    out,
    /^longbench\/hotpotqa .*\[group longbench-qa, longbench, longbench-chat; lengths native, bundled fixture \(LongBench-style rows built from HotpotQA, not LongBench's rows\): 50 samples \(full dataset: 200 samples; --data for it\), qa_f1,/m,
  );
  assert.match(
    out,
    /^longbench\/multi_news .*\[group longbench-sum, longbench, longbench-chat; lengths native, bundled fixture \(LongBench's first 5 rows\): 5 samples \(full dataset: 200 samples; --data for it\),/m,
  );
  assert.match(
    out,
    /^longbench\/qasper .*scored qa_f1; --data DIR  \[group longbench-qa, longbench, longbench-chat; lengths native, no bundled data: needs --data \(full dataset: 200 samples\),/m,
  );
  assert.match(out, /^ruler-hqa .*\[lengths 32k\.\.3\.5m, 128 samples, sub_em,/m);
  assert.match(out, /^longbench-sum {6}longbench\/gov_report, longbench\/qmsum, longbench\/multi_news$/m);
  assert.match(
    out,
    /^longbench\/multifieldqa_zh .*\[group longbench-zh, longbench, longbench-chat; lengths native, bundled fixture \(LongBench's first 3 rows\): 3 samples .*qa_f1_zh,/m,
  );
  assert.match(out, /^longbench-e {8}longbench\/qasper_e, .*, longbench\/repobench-p_e$/m);
  assert.match(out, /^longbench\/qasper_e .*bucket; --data DIR with qasper_e\.jsonl  \[/m);
  assert.match(out, /^longbench\/hotpotqa_e .*bucket; the v1 fixture, or --data DIR with hotpotqa_e\.jsonl  \[/m);
  assert.match(
    out,
    /^longbench-v2 .*bundled fixture \(synthetic items built from HotpotQA, not LongBench v2\): 8 samples \(full dataset: 503 samples/m,
  );
});
