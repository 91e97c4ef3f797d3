// RULER (NVIDIA/RULER): the eight NIAH tasks and vt, cwe, fwe, qa_1, qa_2, their suites (MemAgent's OOD grid and all
// thirteen), data files, metrics, file layouts (bench export/generate --format ruler), the --sizing and --flavour
// task options, report facets and what the reference reader knows of their prompts.
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
import { rulerCountSkill } from './reader-count.js';
import { rulerQaSkill } from './reader-qa.js';
import { syntheticTasks } from './synthetic-tasks.js';
import { RULER_SUITES } from './suites.js';
import { FLAVOURS } from './synthetic-spec.js';

const tasks = [...niahTasks, ...syntheticTasks];

export const rulerFamily: Family = {
  name: 'ruler',
  tasks,
  groups: RULER_SUITES,
  metrics: RULER_METRIC_ENTRIES,
  scoreSources: [rulerScoreSource],
  dataFormats: [rulerNiahFormat, memagentRulerFormat],
  reportFacets: [rulerReportFacet, rulerSuiteReportFacet],
  exportLayouts: [rulerExportLayout],
  generateLayouts: [rulerGenerateLayout],
  readerSkills: [rulerNiahSkill, rulerVtSkill, rulerCountSkill, rulerQaSkill],
  taskOptions: [
    {
      name: 'sizing',
      arg: 'exact|ruler',
      help: [
        "haystack size: exact per sample, or RULER's (once per length, then RULER's steps",
        'down per sample: 500 words / 25 lines for NIAH, 10 lines, words or documents)   [exact]',
      ],
      choices: ['exact', 'ruler'],
      tasks: tasks.map((t) => t.name),
      commands: ['run', 'generate'],
    },
    {
      name: 'flavour',
      arg: FLAVOURS.join('|'),
      help: [
        "MemAgent's OOD evaluation (question apart, its templates and scoring) or RULER's own",
        '(its prompt with the context, raw-reply scoring; NIAH: only the scoring and one-shot prompt) [memagent]',
      ],
      choices: FLAVOURS,
      tasks: tasks.map((t) => t.name),
      commands: ['run', 'generate'],
    },
  ],
};
