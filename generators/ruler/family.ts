// RULER (NVIDIA/RULER): the eight NIAH tasks, their data files, metrics, file layouts (bench export/generate
// --format ruler), the --sizing task option, report facets and what the reference reader knows of its prompts.
import type { Family } from '../../harness/registry/family.js';
import { rulerReportFacet } from './report-facet.js';
import { rulerSuiteReportFacet } from './suite-report-facet.js';
import { rulerNiahFormat } from './data-file.js';
import { memagentRulerFormat } from './memagent-file.js';
import { rulerExportLayout } from './export.js';
import { rulerGenerateLayout } from './generate.js';
import { niahTasks } from './index.js';
import { RULER_METRIC_ENTRIES } from './metrics.js';
import { rulerScoreSource } from './score-source.js';
import { rulerNiahSkill } from './reader-niah.js';
import { rulerVtSkill } from './reader-vt.js';

export const rulerFamily: Family = {
  name: 'ruler',
  tasks: niahTasks,
  metrics: RULER_METRIC_ENTRIES,
  scoreSources: [rulerScoreSource],
  dataFormats: [rulerNiahFormat, memagentRulerFormat],
  reportFacets: [rulerReportFacet, rulerSuiteReportFacet],
  exportLayouts: [rulerExportLayout],
  generateLayouts: [rulerGenerateLayout],
  readerSkills: [rulerNiahSkill, rulerVtSkill],
  taskOptions: [
    {
      name: 'sizing',
      arg: 'exact|ruler',
      help: [
        "NIAH haystack size: exact per sample, or RULER's (once per length, then 500-word /",
        '25-line steps down per sample)                                   [exact]',
      ],
      choices: ['exact', 'ruler'],
      tasks: niahTasks.map((t) => t.name),
      commands: ['run', 'generate'],
    },
  ],
};
