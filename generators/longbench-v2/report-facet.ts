// LongBench v2's report facets: result.py's Easy / Hard and Short / Medium / Long as breakdown rows of the summary
// (each with its interval), and the accuracy chart by length × difficulty, one per method × model.
import type { FacetChart, ReportFacet } from '../../harness/report/facet.js';
import { slug } from '../../reports/labels.js';
import { v2Classes, v2Figure, v2ChartTitle } from './chart.js';
import { LONGBENCH_V2_TASK } from './index.js';

const isV2 = (record: { task: string }) => record.task === LONGBENCH_V2_TASK;

const DIFFICULTY_LABELS = { easy: 'Easy', hard: 'Hard' } as const;
const LENGTH_LABELS: Record<string, string> = { short: 'Short', medium: 'Medium', long: 'Long' };
const ORDER = ['Easy', 'Hard', 'Short', 'Medium', 'Long'];

export const longbenchV2DifficultyFacet: ReportFacet = {
  name: 'longbench-v2-difficulty',
  order: 31,
  charts: ({ records, referenceModels }) => {
    const v2 = records.filter(isV2);
    const charts: FacetChart[] = [];
    for (const key of [...new Set(v2.map((r) => `${r.method}\u0000${r.model}`))].sort()) {
      const [method, model] = key.split('\u0000');
      const own = v2.filter((r) => r.method === method && r.model === model);
      charts.push({
        kind: 'longbench-v2',
        title: `${v2ChartTitle(own)} — ${method}`,
        base: `longbench-v2-${slug(method)}-${slug(model)}`,
        render: (size, output) =>
          v2Figure({ records: own, method, model, isReferenceReader: referenceModels.has(model), size, output }),
      });
    }
    return { charts };
  },
  breakdown: {
    labelOf: (record) => (isV2(record) ? DIFFICULTY_LABELS[v2Classes(record).difficulty] : null),
    lengthOf: (label) => 1 + ORDER.indexOf(label),
    note: "Easy, Hard; Short, Medium, Long: LongBench v2's result.py classes of the same items (its difficulty and length labels)",
  },
};

export const longbenchV2LengthFacet: ReportFacet = {
  name: 'longbench-v2-length',
  order: 32,
  breakdown: {
    labelOf: (record) => (isV2(record) ? LENGTH_LABELS[v2Classes(record).length] : null),
    lengthOf: (label) => 1 + ORDER.indexOf(label),
    note: 'Short < 32k words, Medium 32k-128k, Long > 128k, as LongBench v2 labels its items',
  },
};
