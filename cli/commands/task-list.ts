// What `bench tasks` says of a task's samples and groups: the samples a task has without --data (a dataset task's
// bundled fixture has 50, 5 or none, where the full dataset has 200), and the groups (suites) that run it.
import type { Catalog } from '../../harness/registry/family.js';
import type { TaskDefinition } from '../../harness/types.js';

const count = (n: number) => `${n.toLocaleString('en-US')} sample${n === 1 ? '' : 's'}`;

/** "128 samples"; for a dataset task "bundled fixture (what it is): 50 samples (full dataset: 200; --data for it)". */
export function samplesText(t: TaskDefinition): string {
  const full = Number.isFinite(t.defaultSamples) ? count(t.defaultSamples) : 'all samples';
  const bundled = t.bundled?.();
  if (!bundled) return full;
  const what = `${bundled.fixture ? 'bundled fixture' : 'bundled'}${bundled.source ? ` (${bundled.source})` : ''}`;
  if (bundled.rows === 0) return `no bundled data: needs --data (full dataset: ${full})`;
  return `${what}: ${count(bundled.rows)} (full dataset: ${full}; --data for it)`;
}

/** The groups a task belongs to, in registration order. */
export function groupsOf(task: string, catalog: Pick<Catalog, 'groups'>): string[] {
  return catalog.groups
    .all()
    .filter((g) => g.tasks.includes(task))
    .map((g) => g.name);
}

/** One line per group: its name and its tasks (`bench run GROUP` runs them all). */
export function groupLines(catalog: Pick<Catalog, 'groups'>): string[] {
  const groups = catalog.groups.all();
  if (groups.length === 0) return [];
  return [
    '',
    'groups (bench run GROUP runs each of its tasks):',
    ...groups.map((g) => `${g.name.padEnd(18)} ${g.tasks.join(', ')}`),
  ];
}
