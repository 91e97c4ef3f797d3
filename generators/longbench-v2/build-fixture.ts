// Writes datasets/longbench-v2/fixture.json from the bundled HotpotQA subset:
//   npx tsx generators/longbench-v2/build-fixture.ts [--check]
// --check exits 1 if the committed file differs from what the builder produces.
import { readFileSync, writeFileSync } from 'node:fs';
import { loadHotpot } from '../ruler-hqa/hotpotqa.js';
import { buildV2FixtureRows, toV2Json } from './fixture-rows.js';
import { v2FixturePath } from './load.js';

const file = v2FixturePath();
const text = toV2Json(buildV2FixtureRows(loadHotpot()));
if (process.argv.includes('--check')) {
  const same = readFileSync(file, 'utf8') === text;
  console.log(same ? `${file} is up to date` : `${file} differs from the builder's output`);
  process.exitCode = same ? 0 : 1;
} else {
  writeFileSync(file, text);
  console.log(`wrote ${file} (${text.length} bytes)`);
}
