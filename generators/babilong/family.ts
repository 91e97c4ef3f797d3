// BABILong (booydar/babilong): the tasks qa1 … qa20, the suites babilong (qa1–qa5, the leaderboard's) and
// babilong-all, its compare_answers metric and its prompt switches; bench score of its published predictions and
// bench export in their layout.
import type { Family } from '../../harness/registry/family.js';
import { BABILONG_TASK_DEFINITIONS, babilongMetric } from './index.js';
import { babilongExportLayout } from './export.js';
import { babilongScoreSource } from './published.js';
import { babilongReaderSkill } from './reader-skill.js';
import { BABILONG_TASKS, LEADERBOARD_TASKS } from './tasks.js';

export const babilongFamily: Family = {
  name: 'babilong',
  tasks: BABILONG_TASK_DEFINITIONS,
  groups: [
    { name: 'babilong', tasks: LEADERBOARD_TASKS },
    { name: 'babilong-all', tasks: BABILONG_TASKS },
  ],
  metrics: [babilongMetric],
  scoreSources: [babilongScoreSource],
  exportLayouts: [babilongExportLayout],
  readerSkills: [babilongReaderSkill],
  taskOptions: [
    {
      name: 'babilong-prompt',
      arg: 'yes|no/yes|no/yes|no',
      help: [
        "BABILong's prompt parts: instruction/examples/post_prompt (run_model_on_babilong.py's",
        '--use_instruction, --use_examples, --use_post_prompt)   [yes/yes/yes]',
      ],
      tasks: BABILONG_TASKS,
      commands: ['run', 'generate'],
    },
  ],
};
