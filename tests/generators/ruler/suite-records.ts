// Constructed records of RULER's tasks for the suite-average and heatmap tests: per task, length and sample a score
// from a fixed rule, so the expected averages can be worked out by hand.
import type { SampleRecord } from '../../../harness/types.js';
import { record } from '../../reports/fixtures.js';

export const MEMAGENT_TASKS = [
  'niah_single_1',
  'niah_single_2',
  'niah_single_3',
  'niah_multikey_1',
  'niah_multikey_2',
  'niah_multikey_3',
  'niah_multivalue',
  'niah_multiquery',
  'vt',
  'fwe',
  'qa_1',
];

export interface SuiteRun {
  tasks: readonly string[];
  /** Length labels, e.g. ['8k', '512k'] (k = 1024 tokens). */
  lengths: readonly string[];
  samples: number;
  method?: string;
  model?: string;
  /** Score of sample i of a task at a length. */
  score: (task: string, length: string, i: number) => number;
}

export function suiteRecords(run: SuiteRun): SampleRecord[] {
  return run.tasks.flatMap((task) =>
    run.lengths.flatMap((lengthLabel) =>
      Array.from({ length: run.samples }, (_, i) => {
        const score = run.score(task, lengthLabel, i);
        return record({
          id: `${task}/${lengthLabel}/${i}`,
          task,
          method: run.method ?? 'memagent',
          model: run.model ?? 'local:reference-reader',
          lengthLabel,
          length: Number(lengthLabel.replace('k', '')) * 1024,
          index: i,
          score,
          scores: { [task.startsWith('qa') ? 'sub_em' : 'memagent_niah']: score },
          metric: task.startsWith('qa') ? 'sub_em' : 'memagent_niah',
        });
      }),
    ),
  );
}
