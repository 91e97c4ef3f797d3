// LongBench's report facet: the score-per-dataset bars, one ROUGE-recall chart per model (ROUGE rows are shown there,
// not on an accuracy chart), and LongBench-E's length buckets as breakdown rows of the summary.
import type { FacetChart, ReportFacet } from '../../harness/report/facet.js';
import { shortModel, slug } from '../../reports/labels.js';
import { LONGBENCH_E_BUCKETS } from './protocol.js';
import { eBucketRows, eChartTitle, eFigure } from './e-chart.js';
import { hasRouge, rougeFigure, rougeFixtures } from './rouge-chart.js';
import { longbenchChartTitle, longbenchFigure } from './scores-chart.js';

export const BUCKET_NOTE =
  "0-4k, 4-8k, 8k+: LongBench-E buckets of the same samples by the dataset's own length field (words; characters for Chinese)";

export const longbenchReportFacet: ReportFacet = {
  name: 'longbench',
  order: 30,
  charts: ({ rows: all, referenceModels }) => {
    // LongBench v1 and LongBench-E rows only (LongBench v2 has its own chart).
    const rows = all.filter((r) => r.task.startsWith('longbench/'));
    const charts: FacetChart[] = [];
    if (rows.some((r) => r.lengthKind === 'native'))
      charts.push({
        kind: 'longbench',
        title: longbenchChartTitle(rows),
        base: 'longbench-scores',
        render: (size, output) => longbenchFigure({ rows, size, output }),
      });
    // One ROUGE chart per model, its methods side by side.
    for (const model of new Set(rows.filter((r) => r.lengthKind !== 'bucket' && hasRouge(r)).map((r) => r.model)))
      charts.push({
        kind: 'rouge',
        title: `Summarisation: ROUGE recall${rougeFixtures(rows, model)} — ${shortModel(model, referenceModels.has(model))}`,
        base: `rouge-recall-${slug(model)}`,
        render: (size, output) =>
          rougeFigure({ model, isReferenceReader: referenceModels.has(model), rows, size, output }),
      });
    // LongBench-E: one bucket chart per method × model.
    const eRows = eBucketRows(rows);
    for (const key of [...new Set(eRows.map((r) => `${r.method}\u0000${r.model}`))].sort()) {
      const [method, model] = key.split('\u0000');
      charts.push({
        kind: 'longbench-e',
        title: `${eChartTitle(eBucketRows(rows, method, model))} — ${method}`,
        base: `longbench-e-${slug(method)}-${slug(model)}`,
        render: (size, output) =>
          eFigure({ rows, method, model, isReferenceReader: referenceModels.has(model), size, output }),
      });
    }
    return { charts, claims: hasRouge };
  },
  breakdown: {
    // metadata.longbench_e_bucket, set by the generator (generators/longbench/index.ts).
    labelOf: (record) => {
      const b = record.metadata?.longbench_e_bucket;
      return typeof b === 'string' && b !== '' ? b : null;
    },
    lengthOf: (label) => LONGBENCH_E_BUCKETS.find((b) => b.label === label)?.from ?? 0,
    note: BUCKET_NOTE,
  },
};
