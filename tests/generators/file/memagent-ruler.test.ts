// MemAgent's RULER eval files (DATAROOT/eval_{task}_{length}.json, taskutils/memory_data/ruler_data_prepare.py)
// through `bench run <ruler task> --data FILE|DIR`: the length from the file name, input and context stripped as
// ruler_general.py strips them, rows in file order (index restarts per chunk), MemAgent's metric; and the
// generate → run --data round trip.
import { asRun } from '../../helpers/identity.js';
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../../../harness/errors.js';
import { parseLengths } from '../../../harness/config/lengths.js';
import { loadTokenizer } from '../../../harness/tokenizer/index.js';
import { writeJsonRow } from '../../../harness/cache/dataset-cache.js';
import { memagentGenerateLayout } from '../../../generators/ruler-hqa/generate.js';
import { builtinCatalog } from '../../../generators/index.js';
import { niahTasks } from '../../../generators/ruler/index.js';
import { memagentFileName, nearestPowerOfTwo } from '../../../generators/ruler/memagent-file.js';
import { BUNDLED_SQUAD, loadSquad } from '../../../generators/ruler/qa-data.js';
import { datasetPath } from '../../../harness/paths.js';
import { jsonList, noiseHaystack, runInProcess, tempDir, write } from './helpers.js';

const catalog = builtinCatalog();
const tokenizer = loadTokenizer('qwen2.5');

/** A row of MemAgent's niah.py output for niah_single_1: its own one-line input, the haystack apart. */
function memagentRow(index: number, key: string, value: string) {
  return {
    index,
    input: `A special magic number is hidden within the following text. Make sure to memorize it. What is the special magic number for ${key} mentioned in the provided text?\n`,
    context: ` ${noiseHaystack(30, 10, key, value)}\n`,
    outputs: [value],
    answer_prefix: ` The special magic number for ${key} mentioned in the provided text is`,
    length: 1200,
  };
}

test('a DATAROOT of eval files: lengths from the names, rows in file order, stripped, memagent_niah', async () => {
  const root = tempDir('memagent-ruler');
  // Two of MemAgent's chunks concatenated: index restarts at 0.
  const r8k = [
    memagentRow(0, 'hollow-sandal', '4021773'),
    memagentRow(1, 'brisk-otter', '9912001'),
    memagentRow(0, 'pale-window', '5550123'),
  ];
  write(join(root, 'eval_niah_single_1_8192.json'), jsonList(r8k));
  write(join(root, 'eval_niah_single_1_16384.json'), jsonList([memagentRow(0, 'warm-lake', '1234567')]));
  write(join(root, 'eval_niah_single_2_8192.json'), jsonList([memagentRow(0, 'x-y', '1')])); // another task: not read
  const { log, records, manifest } = await runInProcess([
    'niah_single_1',
    '--data',
    root,
    '--method',
    'memagent',
    '--out',
    join(root, 'run'),
  ]);
  assert.match(
    log.find((l) => l.startsWith('niah_single_1:'))!,
    /^niah_single_1: lengths 8k, 16k \(2 points\); data 2 files under .*: memagent-ruler, 4 rows$/,
  );
  assert.equal(manifest.data.format, 'memagent-ruler');
  assert.equal(manifest.tasks[0].metric, 'memagent_niah');
  assert.equal(records.length, 4);
  for (const r of records.filter((x) => x.lengthLabel === '8k')) {
    const row = r8k[r.index];
    assert.equal(r.status, 'ok', r.error);
    assert.equal(r.metric, 'memagent_niah');
    assert.equal(r.question, row.input.trim());
    assert.deepEqual(r.answers, row.outputs);
    assert.equal(r.metadata.memagent_index, row.index);
    assert.equal(r.metadata.memagent_length, 1200);
    assert.equal(r.builtTokens, tokenizer.count(row.context.trim()));
    assert.equal(r.score, 1, `${r.id}: the reference reader finds a lone needle (${r.prediction})`);
  }
});

test('bench generate --format memagent rows read back into exactly the generator’s question, context and answers', async () => {
  for (const name of ['niah_single_1', 'niah_multivalue', 'niah_multiquery']) {
    const gen = await niahTasks.find((t) => t.name === name)!.prepare({ tokenizer, seed: 7, options: {} });
    const [len] = parseLengths('8k');
    const file = join(tempDir('memagent-gen'), `eval_${name}_8192.json`);
    const fd = openSync(file, 'w');
    const samples = [0, 1].map((i) => asRun(catalog.task(name), gen.build(len, i), len, i));
    for (const s of samples) writeJsonRow([fd], memagentGenerateLayout.row(s, tokenizer));
    closeSync(fd);
    const read = await catalog.task(name).prepare({ tokenizer, seed: 0, options: { data: file } });
    assert.deepEqual(read.lengths, [len]);
    assert.equal(read.data?.format, 'memagent-ruler');
    samples.forEach((s, i) => {
      const back = read.build(len, i);
      assert.equal(back.question, s.question, name);
      assert.equal(back.context.text(), s.context.text(), name);
      assert.deepEqual(back.answers, s.answers);
      assert.equal(back.metric, 'memagent_niah');
    });
  }
});

test('names, lengths and bad rows: one line each', async () => {
  assert.deepEqual(memagentFileName('/d/eval_qa_1_262144.json'), { task: 'qa_1', tokens: 262144 });
  assert.deepEqual(memagentFileName('/d/eval_niah_multikey_3_8192.json'), { task: 'niah_multikey_3', tokens: 8192 });
  assert.equal(memagentFileName('/d/eval_50.json'), undefined);
  // MemAgent's fwe rows may pass their target by up to 50 tokens; RULER-style counts fall short of it.
  assert.deepEqual([8242, 8000, 16384, 5000].map(nearestPowerOfTwo), [8192, 8192, 16384, 4096]);

  const dir = tempDir('memagent-bad');
  const prepare = (file: string) =>
    catalog.task('niah_single_1').prepare({ tokenizer, seed: 0, options: { data: file } });
  const refused = async (file: string, pattern: RegExp) =>
    assert.rejects(
      prepare(file),
      (e: unknown) => e instanceof UserError && pattern.test(e.message) && !e.message.includes('\n'),
    );

  await refused(
    write(join(dir, 'eval_niah_single_2_8192.json'), jsonList([memagentRow(0, 'a-b', '1')])),
    /is MemAgent's niah_single_2 data, not niah_single_1: run `bench run niah_single_2 --data /,
  );
  await refused(
    write(join(dir, 'eval_niah_single_1_4096.json'), jsonList([{ ...memagentRow(0, 'a-b', '1'), context: [3, 1, 2] }])),
    /item 0: field "context" is a list: only MemAgent.s qa files store document indices/,
  );
  await refused(
    write(join(dir, 'rows.json'), jsonList([{ ...memagentRow(0, 'a-b', '1'), length: undefined }])),
    /its rows have no "length" and its name is not MemAgent's eval_niah_single_1_\{tokens\}\.json/,
  );
  await refused(
    write(join(dir, 'eval_niah_single_1_2048.json'), jsonList([{ ...memagentRow(0, 'a-b', '1'), outputs: [] }])),
    /field "outputs" must be a non-empty list of strings; MemAgent's RULER rows have index, input, context/,
  );
  // Named otherwise, the rows' own `length` places them (nearest power of two).
  const named = await prepare(
    write(join(dir, 'mine.json'), jsonList([{ ...memagentRow(0, 'a-b', '1'), length: 8230 }])),
  );
  assert.deepEqual(
    named.lengths?.map((l) => l.label),
    ['8k'],
  );
});

test("index-form qa rows (MemAgent's above 2e6 tokens) are rebuilt from the --pool dataset as set_context does", async () => {
  const dir = tempDir('memagent-index');
  const squad = write(join(dir, 'dev-v2.0.json'), readFileSync(datasetPath(BUNDLED_SQUAD)));
  const docs = loadSquad(squad).docs;
  const row = {
    index: 0,
    input: 'Answer the question based on the given documents. Who?',
    context: [2, 0, 1],
    outputs: ['x'],
    answer_prefix: ' Answer:',
  };
  const file = write(join(dir, 'eval_qa_1_4194304.json'), jsonList([row]));
  const qa1 = catalog.task('qa_1');
  const read = await qa1.prepare({ tokenizer, seed: 0, options: { data: file, pool: squad } });
  assert.deepEqual(
    read.lengths?.map((l) => l.label),
    ['4m'],
  );
  const s = read.build(read.lengths![0], 0);
  assert.equal(
    s.context.text(),
    `Document 1:\n${docs.text(2)}\n\nDocument 2:\n${docs.text(0)}\n\nDocument 3:\n${docs.text(1)}`.trim(),
  );
  assert.equal(s.metric, 'sub_em');
  assert.equal(s.metadata.form, 'index');
  await assert.rejects(
    qa1.prepare({ tokenizer, seed: 0, options: { data: file } }),
    (e: unknown) =>
      e instanceof UserError &&
      /pass the SQuAD v2 dev file \(dev-v2\.0\.json\) it points into with --pool FILE/.test(e.message),
  );
  const far = write(join(dir, 'eval_qa_1_8388608.json'), jsonList([{ ...row, context: [0, docs.count] }]));
  await assert.rejects(
    qa1.prepare({ tokenizer, seed: 0, options: { data: far, pool: squad } }),
    (e: unknown) =>
      e instanceof UserError && /field "context"\[1\] = \d+ is not a document index of --pool/.test(e.message),
  );
});
