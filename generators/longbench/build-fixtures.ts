// Writes datasets/longbench/fixtures/hotpotqa.jsonl from the bundled HotpotQA subset (read by RULER-HQA's HotpotQA
// reader, the one reader of that data):
//   npx tsx generators/longbench/build-fixtures.ts [--check]
// --check exits 1 if the committed file differs from what the builder produces.
import { writeOrCheckBuiltFile } from '../../harness/util/built-file.js';
import { loadHotpot } from '../ruler-hqa/hotpotqa.js';
import { fixturePath } from './load.js';
import { buildFixtureRows, toJsonl } from './fixture-rows.js';

const file = fixturePath('hotpotqa');
const text = toJsonl(buildFixtureRows(loadHotpot()));
writeOrCheckBuiltFile(file, text);
