// RULER-HQA's report facet: the placement probe's chart (in place of the accuracy chart for the probe's tasks), and
// MemAgent's published RULER-HQA table (baselines/paper/memagent-ruler-hqa.json): its task's other spellings, and its
// lengths, which place docs:N lengths on every accuracy and difference chart.
import { join } from 'node:path';
import type { ReportFacet } from '../../harness/report/facet.js';
import type { PaperBaseline } from '../../harness/report/paper.js';
import { loadPaperBaseline, paperBaselineDir } from '../../reports/baselines.js';
import { slug } from '../../reports/labels.js';
import { groupBySeries } from '../../reports/records.js';
import { hasPlacement, placementLabel, probeFigure } from './probe-chart.js';

/** MemAgent's RULER-HQA table (arXiv 2507.02259, Table 2). */
export function memagentRulerHqaTable(): PaperBaseline {
  return loadPaperBaseline(join(paperBaselineDir(), 'memagent-ruler-hqa.json'));
}

// Our task names may spell RULER-HQA differently from the paper file (compared lower-case, '_' and spaces as '-').
const PAPER_SPELLINGS = new Set(['ruler-hqa', 'hqa', 'rulerhqa', 'hotpotqa']);

export const rulerHqaReportFacet: ReportFacet = {
  name: 'ruler-hqa-probe',
  order: 20,
  charts: ({ records, referenceModels }) => {
    // Plain RULER-HQA records carry placement "random" too: the probe chart needs two placements or more.
    const groups = groupBySeries(records, hasPlacement).filter(
      (g) => new Set(g.map((r) => placementLabel(r.metadata?.placement))).size >= 2,
    );
    const probeTasks = new Set(groups.map((g) => g[0].task));
    return {
      claims: (row) => probeTasks.has(row.task),
      charts: groups.map((group) => {
        const { task, method, model, metric } = group[0];
        return {
          kind: 'probe',
          title: `${task}: accuracy by key-information placement (${method})`,
          base: `probe-${slug(task)}-${slug(method)}-${slug(model)}`,
          render: (size, output) =>
            probeFigure({
              task,
              method,
              model,
              metric,
              isReferenceReader: referenceModels.has(model),
              records: group,
              size,
              output,
            }),
        };
      }),
    };
  },
  paper: {
    lengthTable: () => memagentRulerHqaTable().lengths,
    paperTask: (task) => (PAPER_SPELLINGS.has(task.toLowerCase().replace(/[_\s]/g, '-')) ? 'ruler-hqa' : undefined),
  },
};
