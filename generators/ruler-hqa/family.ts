// MemAgent's RULER-HQA (HotpotQA questions in distractor documents) and the context-distribution probe.
import type { Family } from '../../harness/registry/family.js';
import { withFileData } from '../file/index.js';
import { rulerHqaReportFacet } from './report-facet.js';
import { ctxDistTask, rulerHqaTask } from './index.js';

export const rulerHqaFamily: Family = {
  name: 'ruler-hqa',
  tasks: [rulerHqaTask, ctxDistTask].map(withFileData),
  reportFacets: [rulerHqaReportFacet],
};
