// Writes datasets/longbench/fixtures/hotpotqa.jsonl from the bundled HotpotQA subset (read by RULER-HQA's HotpotQA
// reader, the one reader of that data):
//   npx tsx generators/longbench/build-fixtures.ts [--check]
// --check exits 1 if the committed file differs from what the builder produces.
import { readFileSync, writeFileSync } from 'node:fs';
import { loadHotpot } from '../ruler-hqa/hotpotqa.js';
import { fixturePath } from './load.js';
import { buildFixtureRows, toJsonl } from './fixture-rows.js';

const file = fixturePath('hotpotqa');
const text = toJsonl(buildFixtureRows(loadHotpot()));
if (process.argv.includes('--check')) {
  const same = readFileSync(file, 'utf8') === text;
  console.log(same ? `${file} is up to date` : `${file} differs from the builder's output`);
  process.exitCode = same ? 0 : 1;
} else {
  writeFileSync(file, text);
  console.log(`wrote ${file} (${text.length} bytes)`);
}
