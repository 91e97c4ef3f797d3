// RULER-HQA's report facet: the placement probe's chart (in place of the accuracy chart for the probe's tasks), and
// MemAgent's published RULER-HQA table (baselines/paper/memagent-ruler-hqa.json): its task's other spellings, and its
// lengths, which place docs:N lengths on every accuracy and difference chart.
import { join } from 'node:path';
import type { ReportFacet } from '../../harness/report/facet.js';
import type { PaperBaseline } from '../../harness/report/paper.js';
import { loadPaperBaseline, paperBaselineDir } from '../../reports/baselines.js';
import { slug } from '../../reports/labels.js';
import { groupBySeries } from '../../reports/records.js';
import { hasPlacement, orderPlacements, placementLabel, probeFigure } from './probe-chart.js';

/** MemAgent's RULER-HQA table (arXiv 2507.02259, Table 2). */
export function memagentRulerHqaTable(): PaperBaseline {
  return loadPaperBaseline(join(paperBaselineDir(), 'memagent-ruler-hqa.json'));
}

/** The probe's placements in the order its rows are listed (the chart's, random last). */
const PLACEMENT_ORDER = orderPlacements([
  '(0%, 100%)',
  '(20%, 80%)',
  '(40%, 60%)',
  '(0%, 20%)',
  '(80%, 100%)',
  'random',
]);

export const PLACEMENT_NOTE =
  "32k · (0%, 20%) etc.: ctx-dist samples of that length whose two supporting paragraphs sit at those relative document positions (random: the ordinary shuffle); the same samples as the length's row";

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
  // ctx-dist's score per placement at each length, as numbers in every summary form (the chart draws them as bars).
  breakdown: {
    labelOf: (record) => (record.task === 'ctx-dist' ? placementLabel(record.metadata?.placement) : null),
    lengthOf: (label) => (PLACEMENT_ORDER.indexOf(label) + 1) / 10,
    perLength: true,
    note: PLACEMENT_NOTE,
  },
  paper: {
    lengthTable: () => memagentRulerHqaTable().lengths,
    paperTask: (task) => (PAPER_SPELLINGS.has(task.toLowerCase().replace(/[_\s]/g, '-')) ? 'ruler-hqa' : undefined),
  },
};
