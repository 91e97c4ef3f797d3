// Small HotpotQA files for tests: the first records of the bundled dev subset, optionally edited, written as JSON.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { BUNDLED_HOTPOT } from '../../generators/ruler-hqa/hotpotqa.js';
import { datasetPath } from '../../harness/paths.js';

export type HotpotRow = Record<string, unknown> & {
  context: [string, string[]][];
  supporting_facts: [string, number][];
};

let bundled: HotpotRow[] | undefined;

/** The first `n` records of the bundled subset (fresh copies). */
export function hotpotRows(n: number): HotpotRow[] {
  bundled ??= JSON.parse(gunzipSync(readFileSync(datasetPath(BUNDLED_HOTPOT))).toString('utf8')) as HotpotRow[];
  return JSON.parse(JSON.stringify(bundled.slice(0, n))) as HotpotRow[];
}

/** Writes `rows` (default: the first 3 bundled records) to dir/name and returns the path. */
export function writeHotpot(dir: string, name: string, rows: unknown[] = hotpotRows(3)): string {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(rows));
  return file;
}
