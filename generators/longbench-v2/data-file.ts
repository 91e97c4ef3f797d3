// LongBench v2's data.json as a --data layout: the longbench-v2 task reads it (load.ts); other tasks are pointed here.
import { detectFile, refuseOthersOptions, wrongTask, type DataFormat } from '../../harness/data/format.js';
import { isDirectory } from '../../harness/data/source.js';
import { LONGBENCH_V2_TASK } from './index.js';

const V2_ROWS = 'longbench-v2';

export const longbenchV2RowsFormat: DataFormat = {
  name: V2_ROWS,
  title: 'LongBench v2 items',
  expected: 'LongBench v2 {_id, domain, sub_domain, difficulty, length, question, choice_A..D, answer, context}',
  matches: (r) => ['choice_A', 'choice_D', 'difficulty', 'sub_domain'].every((k) => k in r),
  command: (d) => `bench run ${LONGBENCH_V2_TASK} --data ${d.path}`,
  reader: {
    tasks: (name) => name === LONGBENCH_V2_TASK,
    read(env, task, ctx) {
      refuseOthersOptions(env, ctx, V2_ROWS, `${task.name} does not use it`, env.options.data !== undefined);
      const path = env.options.data;
      if (path !== undefined && !isDirectory(path)) {
        const d = detectFile(path, ctx.dataFormats);
        if (d.format !== V2_ROWS) throw wrongTask(task.name, d);
      }
      return undefined;
    },
  },
};
