// cut_calls (issue 17 part 7): each sample's calls that ended on the length limit, summed per summary row and shown in
// summary.csv / summary.json / summary.md / report.html always, and in the terminal table only when some call was cut
// (so a run without cut calls, like the README's quick start, prints the same table as before).
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { formatSummaryTable, summarize, summaryCsv, summaryJson } from '../../reports/summary.js';
import { summaryMarkdown } from '../../reports/markdown.js';
import { renderHtml } from '../../reports/html.js';
import { record, FACETS } from './fixtures.js';

const csvColumn = (csv: string, name: string): string[] => {
  const [head, ...rows] = csv
    .trim()
    .split('\n')
    .map((l) => l.split(','));
  const i = head.indexOf(name);
  assert.ok(i >= 0, `no ${name} column in ${head.join(',')}`);
  return rows.map((r) => r[i]);
};

test('cutCalls are summed per row; a stored "many", a negative or a fraction is never summed', () => {
  const rows = summarize(
    [
      record({ index: 0, cutCalls: 3 }),
      record({ index: 1, cutCalls: 2 }),
      record({ index: 2 }), // written before cutCalls existed
      record({ index: 3, cutCalls: 'many' as unknown as number }),
      record({ index: 4, cutCalls: -4 }),
      record({ index: 5, cutCalls: 1.5 }),
    ],
    FACETS,
  );
  assert.equal(rows[0].cutCalls, 5);
  assert.deepEqual(csvColumn(summaryCsv(rows), 'cut_calls'), ['5']);
  assert.equal(summaryJson(rows).rows[0].cutCalls, 5);
});

test('the terminal table shows cut calls only when some call was cut, with a note', () => {
  const none = summarize([record({ index: 0, cutCalls: 0 }), record({ index: 1 })], FACETS);
  const plain = formatSummaryTable(none, FACETS);
  assert.ok(!/cut calls/.test(plain), plain);
  assert.match(plain.split('\n')[1], /^length +n +sub_em ×100 +errors +truncated$/);
  const cut = formatSummaryTable(summarize([record({ index: 0, cutCalls: 7 }), record({ index: 1 })], FACETS), FACETS);
  assert.match(cut, /^length +n +sub_em ×100 +errors +truncated +cut calls$/m);
  assert.match(cut, /^7k +2 +100\.00 +0 +0 +7$/m);
  assert.match(cut, /^cut calls: model calls whose answer ended on the length limit/m);
});

test('summary.md and report.html always carry a cut calls column', () => {
  const rows = summarize([record({ index: 0, cutCalls: 2 }), record({ index: 1, cutCalls: 1 })], FACETS);
  const md = summaryMarkdown(rows, FACETS);
  assert.match(md, /^\| task \| .* \| empty \| cut calls \|/m);
  assert.match(md, /\| 0 \| 3 \|$/m);
  assert.match(md, /cut calls: model calls whose answer ended on the length limit/);
  const zero = summaryMarkdown(summarize([record({ index: 0 })], FACETS), FACETS);
  assert.match(zero, /\| cut calls \|/);
  assert.match(zero, /\| 0 \| 0 \|$/m);
  const html = renderHtml({
    runs: [],
    rows,
    records: [],
    facets: FACETS,
    charts: [],
    comparisons: [],
    warnings: [],
  });
  assert.match(html, /<th[^>]*>cut calls<\/th>/);
});
