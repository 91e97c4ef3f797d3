// RULER (NVIDIA/RULER): the eight NIAH tasks, their data files, metrics, file layouts and report facets.
import type { Family } from '../../harness/registry/family.js';
import { withFileData } from '../file/index.js';
import { rulerReportFacet } from './report-facet.js';
import { niahTasks } from './index.js';

export const rulerFamily: Family = {
  name: 'ruler',
  tasks: niahTasks.map(withFileData),
  reportFacets: [rulerReportFacet],
};
