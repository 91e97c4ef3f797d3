// Writes datasets/longbench-v2/fixture.json from the bundled HotpotQA subset:
//   npx tsx generators/longbench-v2/build-fixture.ts [--check]
// --check exits 1 if the committed file differs from what the builder produces.
import { writeOrCheckBuiltFile } from '../../harness/util/built-file.js';
import { loadHotpot } from '../ruler-hqa/hotpotqa.js';
import { buildV2FixtureRows, toV2Json } from './fixture-rows.js';
import { v2FixturePath } from './load.js';

const file = v2FixturePath();
const text = toV2Json(buildV2FixtureRows(loadHotpot()));
writeOrCheckBuiltFile(file, text);
