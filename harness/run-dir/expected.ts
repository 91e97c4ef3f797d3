// The manifest's `expected` field: the samples per method a run planned for each task and length (after --samples,
// the data available and --shard). The runner writes it; reports/completeness.ts reads it to flag cells with fewer
// finished samples as incomplete ("n of N").

/** Planned samples per method, keyed "task/length label" (task names may hold "/", length labels never do). */
export type ExpectedCounts = Record<string, number>;

export function expectedKey(task: string, lengthLabel: string): string {
  return `${task}/${lengthLabel}`;
}

/** The planned count per task/length of a run's units (every method runs the same samples). */
export function expectedCounts(
  units: Iterable<{ task: { name: string }; length: { label: string }; index: number }>,
): ExpectedCounts {
  const indices = new Map<string, Set<number>>();
  for (const u of units) {
    const key = expectedKey(u.task.name, u.length.label);
    let set = indices.get(key);
    if (!set) indices.set(key, (set = new Set()));
    set.add(u.index);
  }
  return Object.fromEntries([...indices].map(([k, s]) => [k, s.size]));
}
