// LongBench v1's published rows as a --data layout: a LongBench task's --data FILE must hold them (a directory is
// resolved by the LongBench loader, load.ts).
import {
  detectFile,
  refuseOthersOptions,
  wrongTask,
  type DataContext,
  type DataFormat,
} from '../../harness/data/format.js';
import { isDirectory } from '../../harness/data/source.js';
import type { TaskEnv } from '../../harness/types.js';

const LONGBENCH_ROWS = 'longbench';

/** Refuses a --data FILE of another layout, with the command that reads it. */
export function checkLongBenchData(env: TaskEnv, task: string, ctx: DataContext): void {
  refuseOthersOptions(env, ctx, LONGBENCH_ROWS, `${task} does not use it`);
  const path = env.options.data;
  if (path === undefined || isDirectory(path)) return;
  const d = detectFile(path, ctx.dataFormats);
  if (d.format !== LONGBENCH_ROWS) throw wrongTask(task, d);
}

/** LongBench v1 rows {input, context, answers, length, dataset, language, all_classes, _id}. */
export const longbenchRowsFormat: DataFormat = {
  name: LONGBENCH_ROWS,
  title: 'LongBench v1 rows',
  expected: 'LongBench {input, context, answers, length, dataset, language, all_classes, _id}',
  matches: (r) => ['dataset', 'all_classes', 'context', 'answers'].every((k) => k in r),
  command: (d) => `bench run longbench/${String(d.first.dataset).replace(/_e$/, '')} --data ${d.path}`,
  reader: {
    tasks: (name) => name.startsWith('longbench/'),
    read(env, task, ctx) {
      if (env.options.data !== undefined) checkLongBenchData(env, task.name, ctx);
      refuseOthersOptions(env, ctx, LONGBENCH_ROWS, `${task.name} does not use it`, true);
      return undefined;
    },
  },
};
