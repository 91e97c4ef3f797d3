// LongBench v1 (THUDM/LongBench): per-dataset tasks, the qa/sum groups, metrics, file layouts and report facets.
import type { Family } from '../../harness/registry/family.js';
import { withFileData } from '../file/index.js';
import { longbenchReportFacet } from './report-facet.js';
import { longbenchGroups, longbenchTasks } from './index.js';

export const longbenchFamily: Family = {
  name: 'longbench',
  tasks: longbenchTasks.map(withFileData),
  groups: Object.entries(longbenchGroups).map(([name, tasks]) => ({ name, tasks })),
  reportFacets: [longbenchReportFacet],
};
