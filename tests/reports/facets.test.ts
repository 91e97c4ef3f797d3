// The report-facet seam (harness/report/facet.ts): the writers in reports/ know no family; a facet registered through
// a Family adds its charts (in its order, in place of the accuracy chart for the rows it claims), breakdown rows with
// their note, and paper-table aliases.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Catalog } from '../../harness/registry/family.js';
import type { ReportFacet } from '../../harness/report/facet.js';
import { paperBaselinesFor, paperLengthTable } from '../../reports/baselines.js';
import { blankCanvas, CHART_SIZES, encodePng, pixelSize } from '../../reports/charts/canvas.js';
import { writeCharts } from '../../reports/charts/index.js';
import { summaryMarkdown } from '../../reports/markdown.js';
import { formatSummaryTable, summarize, summaryJson } from '../../reports/summary.js';
import { memagentRulerHqaTable } from '../../generators/ruler-hqa/report-facet.js';
import { FACETS, record } from './fixtures.js';
import { pngSize } from './png.js';

const tiny = (size: (typeof CHART_SIZES)['paper']) => encodePng(blankCanvas(size).canvas, size, 'tiny');

/** A facet of a made-up family: one chart per task of its records, and a breakdown by metadata.half. */
function halvesFacet(order: number, claimTask?: string): ReportFacet {
  return {
    name: `halves-${order}`,
    order,
    charts: ({ records }) => ({
      charts: [...new Set(records.map((r) => r.task))].map((task) => ({
        kind: `halves-${order}`,
        title: `${task}: halves`,
        base: 'halves',
        render: tiny,
      })),
      claims: (row) => row.task === claimTask,
    }),
    breakdown: {
      labelOf: (r) => (typeof r.metadata?.half === 'string' ? r.metadata.half : null),
      lengthOf: (label) => (label === 'second' ? 2 : 1),
      note: 'first, second: halves of the same samples',
    },
  };
}

const recs = [0, 1, 2, 3].flatMap((i) =>
  ['7k', '14k'].map((lengthLabel, k) =>
    record({
      task: 'made-up',
      index: i,
      lengthLabel,
      length: 7168 * (k + 1),
      score: i % 2,
      metadata: { half: i < 2 ? 'first' : 'second' },
    }),
  ),
);

test('a facet adds breakdown rows after its task rows, with its note in every table; none without it', () => {
  const facet = halvesFacet(1);
  const rows = summarize(recs, [facet]);
  assert.deepEqual(
    rows.map((r) => `${r.lengthKind}:${r.lengthLabel}:${r.length}:n=${r.n}`),
    ['tokens:7k:7168:n=4', 'tokens:14k:14336:n=4', 'bucket:first:1:n=4', 'bucket:second:2:n=4'],
  );
  assert.deepEqual(
    summaryJson(rows).buckets?.map((r) => r.lengthLabel),
    ['first', 'second'],
  );
  assert.match(formatSummaryTable(rows, [facet]), /first, second: halves of the same samples$/);
  assert.match(summaryMarkdown(rows, [facet]), /first, second: halves of the same samples\.$/);
  const plain = summarize(recs, []);
  assert.ok(plain.every((r) => r.lengthKind === 'tokens'));
  assert.doesNotMatch(formatSummaryTable(plain, [facet]), /halves/);
});

test("facet charts follow the accuracy charts in the facets' order, whatever order they are given in", () => {
  const out = mkdtempSync(join(tmpdir(), 'bench-facets-'));
  const facets = [halvesFacet(2), halvesFacet(1)];
  const files = writeCharts(out, {
    rows: summarize(recs, []),
    records: recs,
    facets,
    paper: [],
    sizes: [CHART_SIZES.paper],
  });
  assert.deepEqual(
    files.map((f) => `${f.kind} ${f.name}`),
    [
      'accuracy charts/accuracy-made-up-single.png',
      'halves-1 charts/halves-single.png',
      'halves-2 charts/halves-2-single.png',
    ],
  );
  // A facet chart drawn the older way (blankCanvas + encodePng, a plain PNG Buffer) is still written as is.
  assert.deepEqual(pngSize(files[1].bytes), pixelSize(CHART_SIZES.single));
});

test('rows a facet claims get its chart instead of the accuracy chart', () => {
  const out = mkdtempSync(join(tmpdir(), 'bench-facets-'));
  const files = writeCharts(out, {
    rows: summarize(recs, []),
    records: recs,
    facets: [halvesFacet(1, 'made-up')],
    paper: [],
    sizes: [CHART_SIZES.paper],
  });
  assert.deepEqual(
    files.map((f) => f.kind),
    ['halves-1'],
  );
});

test('the catalog registers each family facet once; RULER-HQA places docs:N and answers for its spellings', () => {
  const catalog = new Catalog([{ name: 'made-up', tasks: [], reportFacets: [halvesFacet(1)] }]);
  assert.deepEqual(catalog.reportFacets.names(), ['halves-1']);
  assert.throws(
    () => catalog.add({ name: 'other', tasks: [], reportFacets: [halvesFacet(1)] }),
    /report facet 'halves-1' is registered twice/,
  );
  const table = memagentRulerHqaTable();
  assert.deepEqual(paperLengthTable(FACETS), table.lengths);
  assert.deepEqual(paperLengthTable([halvesFacet(1)]), []);
  for (const task of ['ruler-hqa', 'RULER_HQA', 'hqa', 'hotpotqa'])
    assert.equal(paperBaselinesFor(task, [table], FACETS).length, 1, task);
  // Without the family's facet only the paper's own spelling matches.
  assert.equal(paperBaselinesFor('hqa', [table], []).length, 0);
  assert.equal(paperBaselinesFor('ruler_hqa', [table], []).length, 1);
});
