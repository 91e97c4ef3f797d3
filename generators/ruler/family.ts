// RULER (NVIDIA/RULER): the eight NIAH tasks, their data files, metrics, file layouts and report facets.
import type { Family } from '../../harness/registry/family.js';
import { rulerReportFacet } from './report-facet.js';
import { rulerNiahFormat } from './data-file.js';
import { niahTasks } from './index.js';
import { RULER_METRIC_ENTRIES } from './metrics.js';
import { rulerScoreSource } from './score-source.js';

export const rulerFamily: Family = {
  name: 'ruler',
  tasks: niahTasks,
  metrics: RULER_METRIC_ENTRIES,
  scoreSources: [rulerScoreSource],
  dataFormats: [rulerNiahFormat],
  reportFacets: [rulerReportFacet],
};
