// RULER's generated NIAH data ({root}/{model}/synthetic/{length}/data/{task}/validation.jsonl) through
// `bench run niah_* --data FILE|DIR`: the haystack/question split, length buckets, RULER's metric.
import { asRun } from '../../helpers/identity.js';
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { parseLengths } from '../../../harness/config/lengths.js';
import { loadTokenizer } from '../../../harness/tokenizer/index.js';
import { writeJsonRow } from '../../../harness/cache/dataset-cache.js';
import { rulerGenerateLayout } from '../../../generators/ruler/generate.js';
import { builtinCatalog } from '../../../generators/index.js';
import { niahTasks } from '../../../generators/ruler/index.js';
import { powerOfTwoAtLeast, splitRulerInput } from '../../../generators/ruler/data-file.js';
import { jsonl, rulerRow, runInProcess, tempDir, write } from './helpers.js';

const catalog = builtinCatalog();

const tokenizer = loadTokenizer('qwen2.5');

test('a RULER output tree: one token point per length folder, haystack and question split at the NIAH markers, string_match_all', async () => {
  const root = join(tempDir('ruler'), 'qwen', 'synthetic');
  const r4k = [
    rulerRow('hollow-sandal', '4021773', 20, { length: 3950 }),
    rulerRow('brisk-otter', '9912001', 24, { chat: true, length: 4010 }),
  ];
  const r8k = [rulerRow('pale-window', '5550123', 40, { removeNewlines: true, length: 8100 })];
  write(join(root, '4096', 'data', 'niah_single_1', 'validation.jsonl'), jsonl(r4k));
  write(join(root, '8192', 'data', 'niah_single_1', 'validation.jsonl'), jsonl(r8k));
  write(join(root, '4096', 'data', 'niah_single_2', 'validation.jsonl'), jsonl([rulerRow('x-y', '1', 3)])); // another task: not read
  const { log, records, manifest } = await runInProcess([
    'niah_single_1',
    '--data',
    root,
    '--method',
    'memagent,full-context',
    '--out',
    join(root, '..', 'run'),
  ]);
  assert.match(
    log.find((l) => l.startsWith('niah_single_1:'))!,
    /^niah_single_1: lengths 4k, 8k \(2 points\); data 2 files under .*: ruler-niah, 3 rows$/,
  );
  assert.deepEqual(manifest.lengths, { niah_single_1: ['4k', '8k'] });
  assert.equal(manifest.tasks[0].metric, 'string_match_all');
  assert.equal(manifest.data.format, 'ruler-niah');
  assert.equal(records.length, 3 * 2);
  for (const r of records) {
    assert.equal(r.status, 'ok', `${r.id}: ${r.error}`);
    assert.equal(r.metric, 'string_match_all');
    const row = r.lengthLabel === '4k' ? r4k[r.index] : r8k[r.index];
    assert.deepEqual(r.answers, row.outputs);
    assert.equal(r.metadata.ruler_length, row.length);
    const sep = r.lengthLabel === '8k' ? ' ' : '\n';
    assert.equal(
      r.question,
      `A special magic number is hidden within the following text. Make sure to memorize it. What is the special magic number for ${row.outputs[0] === '4021773' ? 'hollow-sandal' : row.outputs[0] === '9912001' ? 'brisk-otter' : 'pale-window'} mentioned in the provided text?`,
    );
    assert.equal(r.metadata.separator, sep);
    assert.equal(
      r.metadata.template_prefix_chars,
      r.index === 1 && r.lengthLabel === '4k'
        ? '<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\n'.length
        : 0,
    );
    assert.ok(r.score === 1, `${r.id} ${r.method}: the reference reader finds a lone needle (${r.prediction})`);
  }
});

test("rows written by `bench generate --format ruler` split back into exactly the generator's question and context", async () => {
  for (const name of ['niah_single_2', 'niah_multikey_2', 'niah_multiquery']) {
    const gen = await niahTasks.find((t) => t.name === name)!.prepare({ tokenizer, seed: 7, options: {} });
    const [len] = parseLengths('8k');
    const file = join(tempDir('ruler-gen'), 'validation.jsonl');
    const fd = openSync(file, 'w');
    const samples = [0, 1].map((i) => asRun(catalog.task(name), gen.build(len, i), len, i));
    for (const s of samples) writeJsonRow([fd], rulerGenerateLayout.row(s, tokenizer));
    closeSync(fd);
    const read = await catalog.task(name).prepare({ tokenizer, seed: 0, options: { data: file } });
    assert.deepEqual(read.lengths, [len]);
    samples.forEach((s, i) => {
      const back = read.build(len, i);
      assert.equal(back.question, s.question, name);
      assert.equal(back.context.text(), s.context.text(), name);
      assert.deepEqual(back.answers, s.answers);
      assert.equal(back.prompt?.answerPrefix, s.prompt?.answerPrefix);
    });
  }
});

test('split and bucket rules', () => {
  const split = splitRulerInput(rulerRow('k-k', '123', 5).input);
  assert.ok(typeof split !== 'string');
  assert.equal(split.valueType, 'number');
  assert.match(split.haystack, /^The grass is green\./);
  assert.match(split.haystack, /There and back again\.$/);
  // The haystack itself may say "What is the special magic number ..." only before the real question: the last one wins.
  const tricky = rulerRow('a-b', '77', 4).input.replace(
    'The sky is blue.',
    'What is the special magic number for decoy mentioned in the provided text?',
  );
  const s2 = splitRulerInput(tricky);
  assert.ok(typeof s2 !== 'string' && s2.question.includes('a-b') && s2.haystack.includes('decoy'));
  assert.match(
    String(splitRulerInput('Answer the question based on the given documents.\n\nDocument 1:\nx\n\nQuestion: who?')),
    /preamble .* is not in it/,
  );
  assert.deepEqual([3950, 4096, 4097, 131072 - 500, 524288].map(powerOfTwoAtLeast), [4096, 4096, 8192, 131072, 524288]);
});
