import { UserError } from './errors.js';
import type { TaskDefinition } from './types.js';
import { ctxDistTask, rulerHqaTask } from '../generators/ruler-hqa/index.js';

const ALL: TaskDefinition[] = [rulerHqaTask, ctxDistTask];

export function allTasks(): TaskDefinition[] {
  return ALL;
}

export function getTask(name: string): TaskDefinition {
  const task = ALL.find((t) => t.name === name);
  if (!task) throw new UserError(`unknown task '${name}': run \`bench tasks\` to list them (e.g. ruler-hqa, niah_single_1)`);
  return task;
}
