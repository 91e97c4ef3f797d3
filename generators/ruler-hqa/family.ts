// MemAgent's RULER-HQA (HotpotQA questions in distractor documents) and the context-distribution probe.
import type { Family } from '../../harness/registry/family.js';
import { rulerHqaReportFacet } from './report-facet.js';
import { memagentHqaFormat } from './data-file.js';
import { hotpotDevFormat } from './hotpot-pool.js';
import { ctxDistTask, rulerHqaTask } from './index.js';
import { memagentScoreSource } from './score-source.js';

export const rulerHqaFamily: Family = {
  name: 'ruler-hqa',
  tasks: [rulerHqaTask, ctxDistTask],
  // sub_em and its extras are the shared QA metrics (harness/scorers/qa-metrics.ts).
  scoreSources: [memagentScoreSource],
  // HotpotQA records first: a row with every field is the dev file (detection tries layouts in this order).
  dataFormats: [hotpotDevFormat, memagentHqaFormat],
  reportFacets: [rulerHqaReportFacet],
};
