// BABILong's bad input through the real binary: a broken bAbI line, an unknown task name, a length beyond what the
// background books fill. Each is one stderr line, exit 2, and what was written before is byte for byte as it was.
import { beforeAll, test } from 'vitest';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertOneLine, dirFingerprint, runBench, type BenchResult } from '../../helpers/cli.js';

const root = mkdtempSync(join(tmpdir(), 'babilong-bad-input-'));
const env = { ...process.env, BENCH_CACHE_DIR: join(root, 'cache') };
const bench = (...args: string[]): Promise<BenchResult> => runBench(args, { cwd: root, env });

const RUN = join(root, 'run');
let before = '';
beforeAll(async () => {
  const r = await bench('run', 'qa1', '--lengths', '0k', '--samples', '2', '--no-progress', '--out', RUN);
  assert.equal(r.code, 0, r.stderr);
  before = dirFingerprint(RUN);
});

test('a bAbI file with a broken line names the file and line', async () => {
  const broken = join(root, 'qa1_broken_test.txt');
  writeFileSync(broken, '1 Mary moved to the bathroom.\n2 Where is Mary? \tbathroom\t1\nthree John went home.\n');
  const out = join(root, 'run-broken');
  const r = await bench('run', 'qa1', '--data', broken, '--lengths', '0k', '--samples', '1', '--out', out);
  assertOneLine(r, 2, /qa1_broken_test\.txt:3: 'three John went home\.' does not start with a story line ID/);
  assert.equal(existsSync(out), false);
});

test('an unknown task name is refused with the nearest names', async () => {
  assertOneLine(await bench('run', 'qa21', '--out', RUN), 2, /unknown task 'qa21' \(did you mean [^)]*qa1[^)]*qa2\?\)/);
  assert.equal(dirFingerprint(RUN), before);
});

test('a length beyond 10M is refused, for one task, for the suite and by bench generate', async () => {
  assertOneLine(await bench('run', 'qa1', '--lengths', '20m', '--out', RUN), 2, /qa1 runs up to 10m, not 20m: BABILong's longest/);
  assert.equal(dirFingerprint(RUN), before);
  const suite = join(root, 'run-suite');
  assertOneLine(
    await bench('run', 'babilong', '--lengths', '20m', '--out', suite),
    2,
    /none of qa1, qa2, qa3, qa4, qa5 runs at the lengths asked for: they run up to 10m/,
  );
  assert.equal(existsSync(suite), false);
  const file = join(root, 'samples.jsonl');
  writeFileSync(file, '{"kept":true}\n');
  assertOneLine(await bench('generate', 'qa1', '--lengths', '20m', '--out', file), 2, /qa1 runs up to 10m, not 20m/);
  assert.equal(readFileSync(file, 'utf8'), '{"kept":true}\n');
});
