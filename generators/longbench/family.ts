// LongBench v1 (THUDM/LongBench): per-dataset tasks, the qa/sum groups, metrics, file layouts (bench export --format
// longbench) and report facets.
import type { Family } from '../../harness/registry/family.js';
import { longbenchReportFacet } from './report-facet.js';
import { longbenchRowsFormat } from './data-file.js';
import { longbenchExportLayout } from './export.js';
import { longbenchGroups, longbenchTasks } from './index.js';
import { longbenchScoreSource } from './score-source.js';
import { LONGBENCH_METRIC_ENTRIES } from './scoring.js';

export const longbenchFamily: Family = {
  name: 'longbench',
  tasks: longbenchTasks,
  groups: Object.entries(longbenchGroups).map(([name, tasks]) => ({ name, tasks })),
  metrics: LONGBENCH_METRIC_ENTRIES,
  scoreSources: [longbenchScoreSource],
  dataFormats: [longbenchRowsFormat],
  reportFacets: [longbenchReportFacet],
  exportLayouts: [longbenchExportLayout],
};
