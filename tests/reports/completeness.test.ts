// A partial run (interrupted, or one shard of several) is flagged in every report format: "n of N", complete = no.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reportCommand } from '../../cli/commands/report.js';
import {
  expectedCounts,
  expectedFor,
  expectedSource,
  fmtCount,
  markCompleteness,
  missingCells,
  missingNote,
  type ExpectedSource,
} from '../../reports/completeness.js';
import { loadManifestView } from '../../reports/manifest.js';
import { formatSummaryTable, summarize } from '../../reports/summary.js';
import { record, runDir, FACETS } from './fixtures.js';
import { manifestFixture } from '../helpers/manifest.js';

const MODEL = 'local:reference-reader';

/** summary.csv as objects (these fixtures have no quoted cells). */
function csvRows(file: string): Record<string, string>[] {
  const [head, ...body] = readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.split(','));
  return body.map((cells) => Object.fromEntries(head.map((h, i) => [h, cells[i]])));
}

/** 8 samples planned at 7k, 14k and 28k; all 8 finished at 7k, 3 at 14k, none at 28k (an interrupted run). */
function partialRun(): string {
  const records = [
    ...Array.from({ length: 8 }, (_, i) => record({ index: i, score: i % 2 })),
    ...Array.from({ length: 3 }, (_, i) => record({ index: i, lengthLabel: '14k', length: 14336, score: 1 })),
  ];
  return runDir(records, {
    manifest: manifestFixture({
      command: 'bench run ruler-hqa',
      methods: ['memagent'],
      model: { id: MODEL, isReferenceReader: true },
      lengths: { 'ruler-hqa': ['7k', '14k', '28k'] },
      samples: 8,
      shard: null,
      units: 24,
      expected: { 'ruler-hqa/7k': 8, 'ruler-hqa/14k': 8, 'ruler-hqa/28k': 8 },
    }),
  });
}

test('expectedCounts: samples per method for each task/length of the plan', () => {
  const unit = (task: string, label: string, index: number, method: string) => ({
    task: { name: task },
    length: { label },
    index,
    method,
  });
  const units = [0, 1, 2].flatMap((i) =>
    ['memagent', 'rag'].flatMap((m) => [unit('ruler-hqa', '32k', i, m), unit('longbench/hotpotqa', 'all', i, m)]),
  );
  units.push(unit('ruler-hqa', '64k', 0, 'memagent'), unit('ruler-hqa', '64k', 0, 'rag'));
  assert.deepEqual(expectedCounts(units), { 'ruler-hqa/32k': 3, 'longbench/hotpotqa/all': 3, 'ruler-hqa/64k': 1 });
});

test('expectedFor: shards of one run add up; the same shard twice counts once; a whole run is the plan', () => {
  const src = (shard: string, n: number, over: Partial<ExpectedSource> = {}): ExpectedSource => ({
    expected: { 'ruler-hqa/7k': n },
    methods: ['memagent'],
    model: MODEL,
    shard,
    ...over,
  });
  const cell = { task: 'ruler-hqa', method: 'memagent', model: MODEL, lengthLabel: '7k' };
  assert.equal(expectedFor(cell, [src('0/2', 64), src('1/2', 64)]), 128);
  assert.equal(expectedFor(cell, [src('0/2', 64), src('0/2', 64)]), 64);
  assert.equal(expectedFor(cell, [src('0/2', 64), src('all', 128)]), 128);
  assert.equal(expectedFor(cell, [src('all', 128, { methods: ['rag'] })]), null, 'another method');
  assert.equal(expectedFor(cell, [src('all', 128, { model: 'other' })]), null, 'another model');
  assert.equal(expectedFor({ ...cell, lengthLabel: '14k' }, [src('all', 128)]), null, 'not planned');
  assert.equal(expectedFor(cell, []), null);
});

test('markCompleteness and fmtCount: "n of N" only where fewer than planned; unknown stays null', () => {
  const recs = [
    ...Array.from({ length: 3 }, (_, i) => record({ index: i })),
    record({ index: 0, lengthLabel: '14k', length: 14336 }),
  ];
  const rows = markCompleteness(summarize(recs, FACETS), [
    { expected: { 'ruler-hqa/7k': 3, 'ruler-hqa/14k': 1024 }, methods: ['memagent'], model: MODEL, shard: 'all' },
  ]);
  assert.deepEqual(
    rows.map((r) => [r.lengthLabel, r.n, r.expected, r.complete, fmtCount(r)]),
    [
      ['7k', 3, 3, true, '3'],
      ['14k', 1, 1024, false, '1 of 1,024'],
    ],
  );
  assert.equal(fmtCount({ n: 286, expected: 1024, complete: false }), '286 of 1,024');
  const unknown = markCompleteness(summarize(recs, FACETS), [null]);
  assert.ok(unknown.every((r) => r.expected === null && r.complete === null && fmtCount(r) === String(r.n)));
  // The terminal table says it too.
  const table = formatSummaryTable(rows, FACETS);
  assert.match(table, /^14k\s+1 of 1,024\s+100\.00/m);
  assert.match(table, /"n of N": only n of the N samples the run planned have finished/);
});

test('missingCells: planned cells without a finished sample, grouped in one note', () => {
  const planned: ExpectedSource[] = [
    {
      expected: { 'ruler-hqa/7k': 8, 'ruler-hqa/2m': 8, 'ruler-hqa/3.5m': 8 },
      methods: ['memagent', 'rag'],
      model: MODEL,
      shard: 'all',
    },
  ];
  const rows = summarize([record({ method: 'memagent' }), record({ method: 'rag' })], FACETS);
  const missing = missingCells(rows, planned);
  assert.deepEqual(
    missing.map((m) => `${m.method} ${m.lengthLabel} ${m.expected}`),
    ['memagent 2m 8', 'rag 2m 8', 'memagent 3.5m 8', 'rag 3.5m 8'],
  );
  assert.equal(
    missingNote(missing),
    'no sample finished yet: ruler-hqa · memagent at 2m, 3.5m (0 of 8 each); ruler-hqa · rag at 2m, 3.5m (0 of 8 each)',
  );
  assert.equal(missingNote([]), '');
});

test('bench report on a partial run: "n of N" in summary.md and report.html, expected_n and complete in CSV and JSON', async () => {
  const dir = partialRun();
  const out = mkdtempSync(join(tmpdir(), 'bench-partial-report-'));
  const warnings: string[] = [];
  await reportCommand({ runDirs: [dir], out, onWarning: (m) => warnings.push(m) });

  const md = readFileSync(join(out, 'summary.md'), 'utf8');
  assert.match(md, /\| 14k \| sub_em \| 100\.00 \| [^|]+ \| [^|]+ \| 3 of 8 \|/);
  assert.match(md, /\| 7k \| sub_em \| 50\.00 \| [^|]+ \| [^|]+ \| 8 \|/);
  assert.match(md, /"n of N": only n of the N samples/);
  assert.match(md, /no sample finished yet: ruler-hqa · memagent at 28k \(0 of 8\)/);

  const csv = csvRows(join(out, 'summary.csv'));
  assert.deepEqual(
    csv.map((r) => [r.length_label, r.n, r.expected_n, r.complete]),
    [
      ['7k', '8', '8', 'yes'],
      ['14k', '3', '8', 'no'],
    ],
  );

  const json = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
  assert.deepEqual(
    json.rows.map((r: { lengthLabel: string; n: number; expected: number; complete: boolean }) => [
      r.lengthLabel,
      r.n,
      r.expected,
      r.complete,
    ]),
    [
      ['7k', 8, 8, true],
      ['14k', 3, 8, false],
    ],
  );
  assert.deepEqual(json.missing, [
    { task: 'ruler-hqa', method: 'memagent', model: MODEL, lengthLabel: '28k', expected: 8 },
  ]);

  const html = readFileSync(join(out, 'report.html'), 'utf8');
  assert.match(html, /<tr class="incomplete">.*<td>14k<\/td>.*<span class="incomplete">3 of 8<\/span>/);
  assert.match(html, /<td>11 of 24<\/td>/, 'the runs table: records of units planned');
  assert.match(html, /no sample finished yet: ruler-hqa · memagent at 28k/);
  assert.ok(
    warnings.some((w) =>
      /incomplete runs: 1 cell has fewer samples than planned.*1 planned cell has no finished sample/.test(w),
    ),
    warnings.join('\n'),
  );
});

test('a run without planned counts (older manifest, none at all) reports n alone, complete unknown', async () => {
  const dir = runDir([record()]);
  const out = mkdtempSync(join(tmpdir(), 'bench-partial-report-'));
  await reportCommand({ runDirs: [dir], out, onWarning: () => {} });
  const csv = csvRows(join(out, 'summary.csv'));
  assert.deepEqual([csv[0].n, csv[0].expected_n, csv[0].complete], ['1', '', '']);
  const json = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
  assert.equal(json.rows[0].complete, null);
  assert.equal(json.missing, undefined);
  assert.equal(expectedSource(loadManifestView(partialRun()))?.shard, 'all');
});
