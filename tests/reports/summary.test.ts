import { test } from 'vitest';
import assert from 'node:assert/strict';
import { readFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { summarize, summaryCsv, writeSummary, formatSummaryTable, loadRecords } from '../../reports/summary.js';
import { fmt2, fmtPct } from '../../reports/format.js';
import { record, runDir, FACETS } from './fixtures.js';

test('summarize groups, counts and averages; errors count as 0', () => {
  const recs = [
    record({ index: 0, score: 1, scores: { sub_em: 1, em: 1, f1: 1 } }),
    record({ index: 1, score: 0, scores: { sub_em: 0, em: 0, f1: 0.5, empty_norm: 1 }, prediction: '' }),
    record({ index: 2, score: 0.7, status: 'error', scores: {}, error: 'boom' }),
    record({ index: 3, score: 1, status: 'truncated', scores: { sub_em: 1, em: 0, f1: 0.5 } }),
    record({ lengthLabel: '14k', length: 14336, index: 0, score: 0, scores: { sub_em: 0 } }),
    record({ method: 'full-context', index: 0, score: 1 }),
  ];
  const rows = summarize(recs, FACETS);
  assert.deepEqual(
    rows.map((r) => `${r.method}/${r.lengthLabel}`),
    ['full-context/7k', 'memagent/7k', 'memagent/14k'],
  );
  const r = rows[1];
  assert.equal(r.n, 4);
  assert.equal(r.ok, 2);
  assert.equal(r.errors, 1);
  assert.equal(r.truncated, 1);
  assert.equal(r.score, (1 + 0 + 0 + 1) / 4); // the error's 0.7 is ignored
  assert.equal(r.scoreOkOnly, 0.5);
  assert.equal(r.metrics.em, 1 / 4);
  assert.equal(r.metrics.f1, 2 / 4);
  assert.equal(r.empty, 1);
  assert.equal(r.promptTokens, 400);
  assert.equal(r.calls, 8);
  assert.equal(r.isReferenceReader, true);
  assert.equal(r.metric, 'sub_em');
});

test('numeric length order, not label order', () => {
  const rows = summarize(
    [
      record({ lengthLabel: '128k', length: 131072 }),
      record({ lengthLabel: '8k', length: 8192 }),
      record({ lengthLabel: '16k', length: 16384 }),
    ],
    FACETS,
  );
  assert.deepEqual(
    rows.map((r) => r.lengthLabel),
    ['8k', '16k', '128k'],
  );
});

test('writeSummary writes CSV and JSON atomically', () => {
  const dir = runDir([]);
  const rows = summarize(
    [
      record({ score: 1 }),
      record({ index: 1, score: 0, scores: { sub_em: 0, em: 0, f1: 0 } }),
      record({ index: 2, score: 0, scores: { sub_em: 0, em: 0, f1: 0 } }),
    ],
    FACETS,
  );
  const files = writeSummary(dir, rows);
  assert.deepEqual(
    files.map((f) => f.slice(dir.length + 1)),
    ['summary.csv', 'summary.json'],
  );
  const csv = readFileSync(join(dir, 'summary.csv'), 'utf8').trim().split('\n');
  assert.equal(csv.length, 2);
  const header = csv[0].split(',');
  const cells = csv[1].split(',');
  assert.equal(cells[header.indexOf('score_x100')], '33.33');
  assert.equal(cells[header.indexOf('n')], '3');
  assert.equal(cells[header.indexOf('f1_x100')], '33.33');
  const json = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));
  assert.equal(json.rows[0].score, 1 / 3);
  assert.equal(json.rows[0].scoreX100, 33.33);
  assert.ok(!readdirSync(dir).some((f) => f.includes('.tmp-')));
});

test('rounding at the edge is half-to-even on the exact value, like the paper', () => {
  assert.equal(fmtPct(52 / 128), '40.62');
  assert.equal(fmtPct(60 / 128), '46.88');
  assert.equal(fmtPct(4 / 128), '3.12');
  assert.equal(fmtPct(107 / 128), '83.59');
  assert.equal(fmtPct(1), '100.00');
  assert.equal(fmtPct(0), '0.00');
  assert.equal(fmt2(2.675), '2.67'); // 2.675 is 2.67499… in binary
  assert.equal(fmt2(0.125), '0.12');
  assert.equal(fmt2(0.1251), '0.13');
});

test('formatSummaryTable aligns columns and names the metric and scale', () => {
  const rows = summarize(
    [record({ lengthLabel: '7k' }), record({ lengthLabel: '112k', length: 114688, score: 0, scores: { sub_em: 0 } })],
    FACETS,
  );
  const text = formatSummaryTable(rows, FACETS);
  const lines = text.split('\n');
  assert.match(lines[0], /reference reader \(not an LLM\)/);
  assert.match(lines[1], /sub_em ×100/);
  assert.equal(lines[3].length, lines[4].length);
  assert.match(lines[3], /7k\s+1\s+100\.00\s+0\s+0/);
  assert.match(lines[4], /112k\s+1\s+0\.00\s+0\s+0/);
});

test('loadRecords skips a torn last line with a warning', async () => {
  const dir = runDir([record({ index: 0 }), record({ index: 1 })], { trailing: '{"id":"ruler-hqa/7k/2","task":"rul' });
  const warnings: string[] = [];
  const recs = await loadRecords(dir, { onWarning: (m) => warnings.push(m) });
  assert.equal(recs.length, 2);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /torn last line/);
  assert.ok(existsSync(join(dir, 'samples.jsonl')));
});

test('loadRecords keeps the last copy of a sample written twice', async () => {
  const dir = runDir([record({ index: 0, score: 0 }), record({ index: 0, score: 1 })]);
  const recs = await loadRecords(dir, { onWarning: () => {} });
  assert.equal(recs.length, 1);
  assert.equal(recs[0].score, 1);
});

test('loadRecords on a missing directory is a UserError', async () => {
  await assert.rejects(loadRecords('/nonexistent/run/dir'), (e: Error) => e.name === 'UserError');
});

test('middle-truncated contexts are counted, in the CSV and as a terminal column only when some were cut', () => {
  const recs = [
    record({ method: 'full-context', index: 0, metadata: { needles: 1 }, extra: { middle_truncated: true } }),
    record({ method: 'full-context', index: 1, metadata: {}, extra: { middle_truncated: false } }),
    record({ method: 'full-context', index: 2 }),
  ];
  const [row] = summarize(recs, FACETS);
  assert.equal(row.middleTruncated, 1);
  const csv = summaryCsv([row])
    .trim()
    .split('\n')
    .map((l) => l.split(','));
  assert.equal(csv[1][csv[0].indexOf('middle_truncated')], '1');
  const text = formatSummaryTable([row], FACETS);
  assert.match(text.split('\n')[1], /context cut$/);
  assert.match(text, /context cut: samples whose context was cut/);
  assert.doesNotMatch(formatSummaryTable(summarize([record()], FACETS), FACETS), /context cut/);
});

test('records written before `extra` existed (method extras inside metadata) still count as middle-truncated', () => {
  const old = [
    record({ method: 'full-context', index: 0, metadata: { middle_truncated: true, prompt_tokens: 16000 } }),
    record({ method: 'full-context', index: 1, metadata: { middle_truncated: false } }),
  ];
  assert.equal(summarize(old, FACETS)[0].middleTruncated, 1);
  // A new record reads its extras only: a generator fact of the same name in metadata is not a method extra.
  assert.equal(
    summarize([record({ method: 'full-context', metadata: { middle_truncated: true }, extra: {} })], FACETS)[0]
      .middleTruncated,
    0,
  );
});

test('over-target samples are scored as usual and counted apart, in the CSV and as a terminal column only when some exist', () => {
  const recs = [
    record({
      index: 0,
      score: 1,
      status: 'over-target',
      metadata: { over_target: true, target_tokens: 1024, built_tokens: 1300 },
    }),
    record({ index: 1, score: 0 }),
  ];
  const [row] = summarize(recs, FACETS);
  assert.deepEqual([row.n, row.ok, row.errors, row.truncated, row.overTarget], [2, 1, 0, 0, 1]);
  assert.equal(row.score, 0.5);
  const csv = summaryCsv([row])
    .trim()
    .split('\n')
    .map((l) => l.split(','));
  assert.equal(csv[0].indexOf('over_target'), csv[0].indexOf('truncated') + 1);
  assert.equal(csv[1][csv[0].indexOf('over_target')], '1');
  assert.match(formatSummaryTable([row], FACETS).split('\n')[1], /truncated\s+over target$/);
  assert.doesNotMatch(formatSummaryTable(summarize([record()], FACETS), FACETS), /over target/);
});
