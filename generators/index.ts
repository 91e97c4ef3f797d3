// The task registry. Adding a task: a generator exporting a TaskDefinition, and one entry in ALL below.
import { UserError } from '../harness/errors.js';
import type { TaskDefinition } from '../harness/types.js';
import { ctxDistTask, rulerHqaTask } from './ruler-hqa/index.js';
import { niahTasks } from './niah/index.js';
import { longbenchGroups, longbenchTasks } from './longbench/index.js';
import { didYouMean } from '../harness/suggest.js';
import { jsonlTask, withFileData } from './file/index.js';

// Every built-in task also reads other tools' files given with --data (generators/file): MemAgent's RULER-HQA files,
// RULER's NIAH rows, LongBench rows, by content.
const ALL: TaskDefinition[] = [
  ...[rulerHqaTask, ctxDistTask, ...niahTasks, ...longbenchTasks].map(withFileData),
  jsonlTask,
];
/** Names that stand for several tasks (e.g. longbench-qa → its datasets). */
const GROUPS: Record<string, string[]> = { ...longbenchGroups };

export function registerTasks(tasks: TaskDefinition[], groups: Record<string, string[]> = {}): void {
  for (const t of tasks) if (!ALL.some((x) => x.name === t.name)) ALL.push(t);
  Object.assign(GROUPS, groups);
}

export function allTasks(): TaskDefinition[] {
  return ALL;
}

export function getTask(name: string): TaskDefinition {
  const task = ALL.find((t) => t.name === name);
  if (!task) {
    const hint = didYouMean(name, [...ALL.map((t) => t.name), ...Object.keys(GROUPS)]);
    throw new UserError(
      `unknown task '${name}'${hint}: run \`bench tasks\` to list them (e.g. ruler-hqa, niah_single_1)`,
    );
  }
  return task;
}

/** Task names with groups expanded, in order, without duplicates; unknown names throw. */
export function expandTaskNames(names: string[]): string[] {
  const out: string[] = [];
  for (const n of names) for (const m of GROUPS[n] ?? [n]) if (!out.includes(m)) out.push(getTask(m).name);
  return out;
}
