// LongBench v1 and LongBench-E (THUDM/LongBench): the 21 datasets and 13 _e tasks, their groups, metrics (the Chinese
// ones on jieba), file layouts (bench export --format longbench), report facets and what the reference reader knows
// of its prompts.
import type { Family } from '../../harness/registry/family.js';
import { longbenchReportFacet } from './report-facet.js';
import { longbenchRowsFormat } from './data-file.js';
import { longbenchExportLayout } from './export.js';
import { longbenchGroups, longbenchTasks } from './index.js';
import { longbenchReaderSkill } from './reader-skill.js';
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
  readerSkills: [longbenchReaderSkill],
};
