// The benchmark families. Adding a family: a folder under generators/ exporting a Family, and one line in FAMILIES.
import { Catalog, type Family } from '../harness/registry/family.js';
import type { TaskDefinition } from '../harness/types.js';
import { jsonlFamily } from './jsonl/family.js';
import { longbenchFamily } from './longbench/family.js';
import { rulerHqaFamily } from './ruler-hqa/family.js';
import { rulerFamily } from './ruler/family.js';

export const FAMILIES: readonly Family[] = [rulerHqaFamily, rulerFamily, longbenchFamily, jsonlFamily];

/** Every built-in family's entries; the CLI builds it once and hands it down. */
export function builtinCatalog(): Catalog {
  return new Catalog(FAMILIES);
}

const builtin = builtinCatalog();

// Transitional: callers not yet handed a catalog read the built-in one.
export function allTasks(): TaskDefinition[] {
  return builtin.tasks.all();
}

export function getTask(name: string): TaskDefinition {
  return builtin.task(name);
}

export function expandTaskNames(names: string[]): string[] {
  return builtin.expandTaskNames(names);
}

/** Adds tasks to the built-in catalog (tests); a name already there is left as it is. */
export function registerTasks(tasks: TaskDefinition[], groups: Record<string, string[]> = {}): void {
  for (const t of tasks) if (!builtin.tasks.has(t.name)) builtin.tasks.register(t);
  for (const [name, members] of Object.entries(groups))
    if (!builtin.groups.has(name)) builtin.groups.register({ name, tasks: members });
}
