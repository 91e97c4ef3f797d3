// MemAgent's RULER-HQA (HotpotQA questions in distractor documents) and the context-distribution probe, with
// MemAgent's file layouts (bench export/generate --format memagent) and the --placement and --pool task options.
import type { Family } from '../../harness/registry/family.js';
import { rulerHqaReportFacet } from './report-facet.js';
import { memagentHqaFormat } from './data-file.js';
import { memagentExportLayout } from './export.js';
import { memagentGenerateLayout } from './generate.js';
import { hotpotDevFormat } from './hotpot-pool.js';
import { ctxDistTask, rulerHqaTask } from './index.js';
import { PLACEMENTS } from './placement.js';
import { memagentScoreSource } from './score-source.js';

export const rulerHqaFamily: Family = {
  name: 'ruler-hqa',
  tasks: [rulerHqaTask, ctxDistTask],
  // sub_em and its extras are the shared QA metrics (harness/scorers/qa-metrics.ts).
  scoreSources: [memagentScoreSource],
  // HotpotQA records first: a row with every field is the dev file (detection tries layouts in this order).
  dataFormats: [hotpotDevFormat, memagentHqaFormat],
  reportFacets: [rulerHqaReportFacet],
  exportLayouts: [memagentExportLayout],
  generateLayouts: [memagentGenerateLayout],
  taskOptions: [
    {
      name: 'placement',
      arg: 'P',
      help: [`ruler-hqa probe: ${PLACEMENTS.join(', ')}     [random]`],
      choices: PLACEMENTS,
      tasks: [rulerHqaTask.name],
      commands: ['run', 'generate'],
    },
    {
      name: 'pool',
      arg: 'FILE',
      help: [
        "the HotpotQA dev file that MemAgent's index-form files (12800+ documents) point into",
        '(qa_2 above 2e6 tokens too; qa_1: the SQuAD v2 dev file)',
      ],
      // RULER's qa_1 / qa_2 read MemAgent's index-form files too (generators/ruler/memagent-file.ts).
      tasks: [rulerHqaTask.name, ctxDistTask.name, 'qa_1', 'qa_2'],
      commands: ['run'],
      requires: {
        option: 'data',
        message:
          "--pool goes with --data: it is the HotpotQA dev file that MemAgent's index-form RULER-HQA files point into",
      },
    },
  ],
};
