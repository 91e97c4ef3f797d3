// LongBench v2 (THUDM/LongBench, the repository root): the longbench-v2 task, its --v2-prompt option, its metric,
// data layout, report facets (result.py's classes, the length × difficulty chart) and export layout for result.py.
import type { Family } from '../../harness/registry/family.js';
import { longbenchV2RowsFormat } from './data-file.js';
import { longbenchV2ExportLayout } from './export.js';
import { LONGBENCH_V2_TASK, longbenchV2Task } from './index.js';
import { V2_PROMPTS } from './prompts.js';
import { longbenchV2DifficultyFacet, longbenchV2LengthFacet } from './report-facet.js';
import { longbenchV2ReaderSkill } from './reader-skill.js';
import { LONGBENCH_V2_METRICS } from './scoring.js';

export const longbenchV2Family: Family = {
  name: 'longbench-v2',
  tasks: [longbenchV2Task],
  metrics: LONGBENCH_V2_METRICS,
  dataFormats: [longbenchV2RowsFormat],
  reportFacets: [longbenchV2DifficultyFacet, longbenchV2LengthFacet],
  exportLayouts: [longbenchV2ExportLayout],
  readerSkills: [longbenchV2ReaderSkill],
  taskOptions: [
    {
      name: 'v2-prompt',
      arg: V2_PROMPTS.join('|'),
      help: [
        "LongBench v2's prompt: pred.py's default, --cot (then its answer call), --rag (bench's",
        'retrieval in place of its precomputed chunks) or --no_context   [0shot]',
      ],
      choices: V2_PROMPTS,
      tasks: [LONGBENCH_V2_TASK],
      commands: ['run', 'generate'],
    },
  ],
};
