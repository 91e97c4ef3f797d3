// Native-length tasks (LongBench): LongBench-E bucket rows, the gate ignoring them, and the LongBench charts.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SampleRecord } from '../../harness/types.js';
import { baselineCommand, gateCommand } from '../../cli/commands/gate.js';
import { reportCommand } from '../../cli/commands/report.js';
import { CHART_SIZES } from '../../reports/charts/canvas.js';
import { writeCharts } from '../../reports/charts/index.js';
import {
  datasetName,
  longbenchBars,
  longbenchChartConfig,
  renderLongBenchChart,
} from '../../generators/longbench/scores-chart.js';
import { rougeGroups } from '../../generators/longbench/rouge-chart.js';
import { memagentRulerHqaTable } from '../../generators/ruler-hqa/report-facet.js';
import { baselineFromRows, evaluateGate, readBaseline } from '../../reports/regression.js';
import { formatSummaryTable, summarize, summaryCsv, summaryJson } from '../../reports/summary.js';
import { manifestFixture } from '../helpers/manifest.js';
import { record, runDir, FACETS } from './fixtures.js';
import { assertPrintSize, pngSize } from './png.js';

const BUCKETS = ['0-4k', '4-8k', '8k+'];

/** A LongBench record: native length, label "all", bucket in metadata. */
function lb(over: Partial<SampleRecord> & { dataset: string; bucket: string }): SampleRecord {
  const { dataset, bucket, ...rest } = over;
  const summary = ['gov_report', 'qmsum', 'multi_news'].includes(dataset);
  const score = rest.score ?? 0.5;
  const task = `longbench/${dataset}`;
  return record({
    task,
    id: `${task}/all/${rest.index ?? 0}`,
    lengthKind: 'native',
    lengthLabel: 'all',
    length: 0,
    builtTokens: 3000,
    metric: summary ? 'rouge_l_f' : 'qa_f1',
    score,
    scores: summary
      ? { rouge_l_f: score, rouge1_r: score, rouge2_r: score / 2, rougeL_r: score * 0.8 }
      : { qa_f1: score },
    metadata: { dataset, longbench_e_bucket: bucket, length: 1000 },
    ...rest,
  });
}

/** Per method: 6 hotpotqa samples, two per bucket, bucket b scoring b/4 (0, 0.25, 0.5), plus 2 multi_news. */
function lbRun(methods = ['memagent', 'full-context'], shift = 0): SampleRecord[] {
  return methods.flatMap((method, m) => [
    ...Array.from({ length: 6 }, (_, i) =>
      lb({ dataset: 'hotpotqa', bucket: BUCKETS[i % 3], method, index: i, score: ((i % 3) + m + shift) / 4 }),
    ),
    ...[0, 1].map((i) => lb({ dataset: 'multi_news', bucket: '0-4k', method, index: i, score: [0.3, 0.2][m] ?? 0 })),
  ]);
}

test('native records give one "all" row per task × method × model, then its LongBench-E bucket rows', () => {
  const rows = summarize(lbRun(['memagent']), FACETS);
  assert.deepEqual(
    rows.map((r) => `${r.task} ${r.lengthKind}:${r.lengthLabel} n=${r.n}`),
    [
      'longbench/hotpotqa native:all n=6',
      'longbench/hotpotqa bucket:0-4k n=2',
      'longbench/hotpotqa bucket:4-8k n=2',
      'longbench/hotpotqa bucket:8k+ n=2',
      'longbench/multi_news native:all n=2',
      'longbench/multi_news bucket:0-4k n=2',
    ],
  );
  const hot = rows.filter((r) => r.task === 'longbench/hotpotqa');
  assert.deepEqual(
    hot.map((r) => r.score),
    [0.25, 0, 0.25, 0.5],
  );
  assert.deepEqual(
    hot.map((r) => r.metrics.qa_f1),
    [0.25, 0, 0.25, 0.5],
  );
  assert.deepEqual(
    hot.map((r) => r.length),
    [0, 0, 4000, 8000],
  );
  assert.equal(hot[1].metric, 'qa_f1');
  // Records without a bucket make no bucket rows.
  assert.ok(summarize([record()], FACETS).every((r) => r.lengthKind !== 'bucket'));
});

test('an errored sample counts as 0 in its bucket as in "all"', () => {
  const recs = [
    lb({ dataset: 'qasper', bucket: '4-8k', score: 1 }),
    lb({ dataset: 'qasper', bucket: '4-8k', index: 1, score: 1, status: 'error', scores: {} }),
  ];
  const bucket = summarize(recs, FACETS).find((r) => r.lengthKind === 'bucket');
  assert.equal(bucket?.n, 2);
  assert.equal(bucket?.errors, 1);
  assert.equal(bucket?.score, 0.5);
});

test('summary.json keeps bucket rows apart; summary.csv marks them length_kind "bucket"', () => {
  const rows = summarize(lbRun(), FACETS);
  const json = summaryJson(rows);
  assert.ok(json.rows.every((r) => r.lengthKind === 'native'));
  assert.equal(json.rows.length, 4);
  assert.equal(json.buckets?.length, 8);
  assert.ok(json.buckets?.every((r) => r.lengthKind === 'bucket'));
  assert.equal(summaryJson(summarize([record()], FACETS)).buckets, undefined);
  const csv = summaryCsv(rows)
    .trim()
    .split('\n')
    .map((l) => l.split(','));
  const kind = csv[0].indexOf('length_kind');
  const label = csv[0].indexOf('length_label');
  const hotMem = csv.filter((c) => c[0] === 'longbench/hotpotqa' && c[1] === 'memagent');
  assert.deepEqual(
    hotMem.map((c) => `${c[kind]}:${c[label]}`),
    ['native:all', 'bucket:0-4k', 'bucket:4-8k', 'bucket:8k+'],
  );
});

test('the terminal table shows "all" and the buckets per native task, with a note', () => {
  const text = formatSummaryTable(summarize(lbRun(['memagent']), FACETS), FACETS);
  const block = text.split('\n\n')[0].split('\n');
  assert.match(block[0], /^longbench\/hotpotqa · memagent/);
  assert.deepEqual(
    block.slice(3).map((l) => l.split(/\s+/)[0]),
    ['all', '0-4k', '4-8k', '8k+'],
  );
  assert.match(block[3], /^all\s+6\s+25\.00\s+0\s+0$/);
  assert.match(block[6], /^8k\+\s+2\s+50\.00\s+0\s+0$/);
  assert.match(text, /LongBench-E buckets/);
  assert.doesNotMatch(formatSummaryTable(summarize([record()], FACETS), FACETS), /LongBench-E/);
});

test('the gate and baselines ignore bucket rows; native baselines read back', async () => {
  const rows = summarize(lbRun(), FACETS);
  const baseline = baselineFromRows(rows);
  assert.equal(baseline.entries.length, 4);
  assert.ok(baseline.entries.every((e) => e.lengthKind === 'native'));
  // Errors are counted once per sample, not again in the buckets.
  const oneError = lbRun().map((r, i) => (i === 0 ? { ...r, status: 'error' as const, scores: {} } : r));
  const result = evaluateGate(baseline, summarize(oneError, FACETS), { maxErrors: 1, maxDrop: 100 });
  assert.equal(result.errors.total, 1);
  assert.equal(result.exitCode, 0);
  assert.equal(result.checks.length, 4);

  const dir = runDir(lbRun());
  const file = join(mkdtempSync(join(tmpdir(), 'bench-lb-gate-')), 'baseline.json');
  await baselineCommand({ runDir: dir, out: file });
  assert.equal(readBaseline(file).entries.length, 4);
  const out: string[] = [];
  assert.equal(
    await gateCommand({
      runDir: dir,
      baseline: file,
      exact: true,
      print: (t) => out.push(t),
      printError: (t) => out.push(t),
    }),
    0,
    out.join('\n'),
  );
  // A drop on one dataset fails the exact gate.
  const worse = runDir(lbRun(['memagent', 'full-context'], -1));
  assert.equal(
    await gateCommand({ runDir: worse, baseline: file, exact: true, print: () => {}, printError: () => {} }),
    1,
  );
});

test('longbenchBars: datasets by metric then name, one series per method, gaps as null', () => {
  const recs = [...lbRun(), lb({ dataset: '2wikimqa', bucket: '0-4k', method: 'memagent', score: 1 })];
  const bars = longbenchBars(summarize(recs, FACETS));
  assert.deepEqual(bars.tasks, ['longbench/2wikimqa', 'longbench/hotpotqa', 'longbench/multi_news']);
  assert.deepEqual(
    bars.series.map((s) => s.method),
    ['full-context', 'memagent'],
  );
  assert.deepEqual(
    bars.series.map((s) => s.values.map((v) => v && v.score)),
    [
      [null, 0.5, 0.2],
      [1, 0.25, 0.3],
    ],
  );
  assert.equal(datasetName('longbench/qmsum'), 'qmsum');
  const { config } = longbenchChartConfig({ rows: summarize(recs, FACETS), size: CHART_SIZES.paper });
  // n differs across datasets, so each label carries it.
  assert.deepEqual(config.data.labels?.[0], ['2wikimqa', 'qa_f1', 'n=1']);
  assert.deepEqual(
    config.data.datasets.map((d) => d.data),
    [
      [null, 50, 20],
      [100, 25, 30],
    ],
  );
});

test('the LongBench chart renders at both sizes and changes with the data', () => {
  for (const size of Object.values(CHART_SIZES)) {
    assertPrintSize(renderLongBenchChart({ rows: summarize(lbRun(), FACETS), size }), size);
  }
  const a = renderLongBenchChart({ rows: summarize(lbRun(), FACETS), size: CHART_SIZES.paper });
  const b = renderLongBenchChart({
    rows: summarize(lbRun(['memagent', 'full-context'], 1), FACETS),
    size: CHART_SIZES.paper,
  });
  assert.ok(a.equals(renderLongBenchChart({ rows: summarize(lbRun(), FACETS), size: CHART_SIZES.paper })));
  assert.ok(!a.equals(b));
});

test('native runs get the LongBench and ROUGE charts, never an accuracy-vs-length chart', () => {
  const out = mkdtempSync(join(tmpdir(), 'bench-lb-charts-'));
  const records = lbRun();
  const rows = summarize(records, FACETS);
  const files = writeCharts(out, {
    facets: FACETS,
    rows,
    records,
    paper: [],
    lengthTable: memagentRulerHqaTable().lengths,
    sizes: [CHART_SIZES.paper],
  });
  assert.deepEqual(files.map((f) => f.kind).sort(), ['longbench', 'rouge']);
  for (const f of files) pngSize(readFileSync(f.file));
  // The ROUGE chart puts the methods side by side per dataset and skips bucket rows.
  const groups = rougeGroups({ rows });
  assert.deepEqual(
    groups.map((g) => g.label),
    [
      ['multi_news', 'full-context'],
      ['multi_news', 'memagent'],
    ],
  );
});

test('report on a LongBench run: bucket rows in HTML and markdown, buckets in summary.json, samples show their bucket', async () => {
  const dir = runDir(lbRun(), {
    manifest: manifestFixture({
      tasks: [
        { name: 'longbench/hotpotqa', version: '1', metric: 'qa_f1' },
        { name: 'longbench/multi_news', version: '1', metric: 'rouge' },
      ],
      methods: ['memagent', 'full-context'],
      lengths: { 'longbench/hotpotqa': ['all'], 'longbench/multi_news': ['all'] },
    }),
  });
  const out = mkdtempSync(join(tmpdir(), 'bench-lb-report-'));
  const { files } = await reportCommand({ runDirs: [dir], out, onWarning: () => {} });
  assert.ok(files.some((f) => f.endsWith('longbench-scores-double.png')));
  assert.ok(!files.some((f) => /accuracy-/.test(f)));
  const html = readFileSync(join(out, 'report.html'), 'utf8');
  assert.equal((html.match(/<tr class="bucket">/g) ?? []).length, 8);
  assert.match(html, /<td>all · 4-8k<div class="tok">/);
  const md = readFileSync(join(out, 'summary.md'), 'utf8');
  assert.match(
    md,
    /\| longbench\/hotpotqa \| memagent \| [^|]+ \| 8k\+ \| qa_f1 \| 50\.00 \| 50\.00–50\.00 \| bootstrap \| 2 \|/,
  );
  assert.match(md, /LongBench-E buckets/);
  const json = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
  assert.equal(json.rows.length, 4);
  assert.equal(json.buckets.length, 8);
});
