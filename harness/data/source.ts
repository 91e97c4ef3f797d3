// What every reader of user data shares: rows grouped into data-defined lengths, a PreparedTask over them, and the
// listing of a --data directory.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../errors.js';
import { isPySpace } from '../protocol/pytext.js';
import type { DataSourceInfo, LengthTarget, PreparedTask, GeneratedSample } from '../types.js';

/** One row kept for the run: its length point and whatever its reader needs to build the sample later. */
export interface Entry<T> {
  length: LengthTarget;
  item: T;
}

function sameLength(a: LengthTarget, b: LengthTarget): boolean {
  return a.kind === b.kind && a.value === b.value;
}

/**
 * A PreparedTask over rows grouped by length: the grid is one point per distinct length, ascending; sample i at a
 * length is the i-th row of that length in file order.
 */
export function bucketedTask<T>(
  task: string,
  entries: Entry<T>[],
  build: (length: LengthTarget, index: number, item: T) => GeneratedSample,
  extra: { data: DataSourceInfo; metric?: string },
): PreparedTask {
  const buckets = new Map<string, { length: LengthTarget; items: T[] }>();
  for (const e of entries) {
    const key = `${e.length.kind}:${e.length.value}`;
    let b = buckets.get(key);
    if (!b) buckets.set(key, (b = { length: e.length, items: [] }));
    b.items.push(e.item);
  }
  const order = { native: 0, docs: 1, tokens: 2 } as const;
  const lengths = [...buckets.values()]
    .map((b) => b.length)
    .sort((a, b) => order[a.kind] - order[b.kind] || a.value - b.value);
  const itemsAt = (length: LengthTarget): T[] => {
    const b = [...buckets.values()].find((x) => sameLength(x.length, length));
    if (!b)
      throw new UserError(
        `${task}: the data has no samples at ${length.label}; its lengths are ${lengths.map((l) => l.label).join(', ')}`,
      );
    return b.items;
  };
  return {
    lengths,
    maxSamples: (length) => itemsAt(length).length,
    build(length, index) {
      const items = itemsAt(length);
      const item = items[index];
      if (item === undefined)
        throw new UserError(
          `${task} has ${items.length} samples at ${length.label} in ${extra.data.path}; index ${index} is out of range`,
        );
      return build(length, index, item);
    },
    data: extra.data,
    ...(extra.metric ? { metric: extra.metric } : {}),
  };
}

/** Regular files under `dir` (hidden entries skipped), depth-first in name order, at most `depth` folders down. */
export function listFiles(dir: string, depth: number): string[] {
  const out: string[] = [];
  const walk = (d: string, left: number) => {
    for (const name of readdirSync(d).sort()) {
      if (name.startsWith('.')) continue;
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) {
        if (left > 0) walk(p, left - 1);
      } else if (st.isFile()) out.push(p);
    }
  };
  walk(dir, depth);
  return out;
}

export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    throw new UserError(`--data ${path} does not exist`);
  }
}

/** Python's str.strip() (MemAgent's driver strips `context` and `input`, docs/PROTOCOLS.md §a.1); linear time. */
export function pyStrip(s: string): string {
  let a = 0;
  while (a < s.length && isPySpace(s.charCodeAt(a))) a++;
  return pyStripEnd(a === 0 ? s : s.slice(a));
}

/** Python's str.rstrip(). */
export function pyStripEnd(s: string): string {
  let b = s.length;
  while (b > 0 && isPySpace(s.charCodeAt(b - 1))) b--;
  return b === s.length ? s : s.slice(0, b);
}
