// MemAgent's released RULER-HQA files (eval_{N}.json): text form and index form (--pool), JSON list and JSONL,
// end to end through `bench run ruler-hqa --data` with the embedded model.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseLengths } from '../../../harness/config/lengths.js';
import { loadTokenizer } from '../../../harness/tokenizer/index.js';
import { builtinCatalog } from '../../../generators/index.js';
import { concatIds } from '../../helpers/context.js';
import { BUNDLED_POOL, jsonl, jsonList, memagentRows, runInProcess, tempDir, write } from './helpers.js';

const catalog = builtinCatalog();

const tokenizer = loadTokenizer('qwen2.5');

test('a DATAROOT with eval_50.json (text form) and eval_12800.json (index form): one docs:N point per file, records, manifest', async () => {
  const dir = tempDir('memagent');
  const small = memagentRows(50, 3);
  const large = memagentRows(12800, 2);
  write(join(dir, 'data', 'eval_50.json'), jsonList(small.textRows));
  write(join(dir, 'data', 'eval_12800.json'), jsonList(large.indexRows));
  write(join(dir, 'data', 'README.md'), '# not data\n'); // ignored: not JSON
  const out = join(dir, 'run');
  const { log, records, manifest } = await runInProcess([
    'ruler-hqa',
    '--data',
    join(dir, 'data'),
    '--pool',
    BUNDLED_POOL,
    '--method',
    'memagent,full-context',
    '--out',
    out,
  ]);

  const grid = log.find((l) => l.startsWith('ruler-hqa: lengths'))!;
  assert.match(
    grid,
    /^ruler-hqa: lengths docs:50, docs:12800 \(2 points\); data 2 files under .*: memagent-hqa \(text \+ index form\), 5 rows; pool .*hotpot_dev_distractor_subset\.json\.gz \(15397 paragraphs, sha256 f697c63d455c\)$/,
  );
  assert.deepEqual(manifest.lengths, { 'ruler-hqa': ['docs:50', 'docs:12800'] });
  assert.equal(manifest.data.path, join(dir, 'data'));
  assert.equal(manifest.data.format, 'memagent-hqa (text + index form)');
  assert.equal(manifest.data.sha256, undefined, 'two files: sha256 per file');
  assert.deepEqual(
    manifest.data.files.map((f: { path: string; rows: number }) => [f.path.split('/').pop(), f.rows]),
    [
      ['eval_12800.json', 2],
      ['eval_50.json', 3],
    ],
  );
  for (const f of manifest.data.files) assert.match(f.sha256, /^[0-9a-f]{64}$/);
  assert.equal(manifest.data.pool.sha256, 'f697c63d455cf9ec57a1e7de02b8f642aae43271e43a2a0b6162f34bf6900f08');
  assert.equal(manifest.data.pool.paragraphs, 15397);

  assert.equal(records.length, (3 + 2) * 2);
  for (const r of records) {
    assert.equal(r.status, 'ok', `${r.id}: ${r.error}`);
    assert.equal(r.lengthKind, 'docs');
    assert.equal(r.metric, 'sub_em');
    const rows = r.length === 50 ? small.textRows : large.textRows;
    assert.equal(r.question, rows[r.index].input.trim());
    assert.deepEqual(r.answers, rows[r.index].answers);
    assert.equal(r.metadata.num_docs, r.length);
    assert.equal(r.metadata.form, r.length === 50 ? 'text' : 'index');
    assert.equal(r.metadata.item, r.index);
    assert.equal(r.metadata.dev_index, rows[r.index].index);
    // Recounted with the run's tokenizer: the text MemAgent's driver would encode.
    assert.equal(r.builtTokens, tokenizer.count(rows[r.index].context.trim()), r.id);
    if (r.method === 'memagent') assert.equal(r.calls, Math.ceil(r.builtTokens / 5000) + 1);
  }
  assert.ok(
    records.some((r) => r.score > 0),
    'the reference reader answers some questions',
  );
});

test('index form builds exactly the context of the text form, from cached pool ids', async () => {
  const dir = tempDir('memagent-eq');
  const rows = memagentRows(400, 2);
  const textFile = write(join(dir, 'text.json'), jsonList(rows.textRows));
  const indexFile = write(join(dir, 'index.jsonl'), jsonl(rows.indexRows)); // JSONL container read too
  const task = catalog.task('ruler-hqa');
  const [docs400] = parseLengths('docs:400');
  const fromText = await task.prepare({ tokenizer, seed: 42, options: { data: textFile } });
  const fromIndex = await task.prepare({ tokenizer, seed: 42, options: { data: indexFile, pool: BUNDLED_POOL } });
  assert.deepEqual(fromIndex.lengths, [docs400]);
  for (const i of [0, 1]) {
    const a = fromText.build(docs400, i);
    const b = fromIndex.build(docs400, i);
    assert.equal(b.context.text(), a.context.text());
    assert.deepEqual(concatIds(b), concatIds(a));
    assert.equal(b.context.tokenCount, a.context.tokenCount);
    assert.equal(a.question, b.question);
  }
});

test("--lengths selects among the data's document counts; a count the data lacks is refused", async () => {
  const dir = tempDir('memagent-lengths');
  write(join(dir, 'eval_50.json'), jsonList(memagentRows(50, 2).textRows));
  write(join(dir, 'eval_100.json'), jsonList(memagentRows(100, 2).textRows));
  const { manifest, records } = await runInProcess([
    'ruler-hqa',
    '--data',
    dir,
    '--lengths',
    'docs:100',
    '--out',
    join(dir, 'run'),
  ]);
  assert.deepEqual(manifest.lengths, { 'ruler-hqa': ['docs:100'] });
  assert.equal(records.length, 2);
  await assert.rejects(
    runInProcess(['ruler-hqa', '--data', dir, '--lengths', 'docs:50..200', '--out', join(dir, 'run2')]),
    /the data defines the lengths docs:50, docs:100; --lengths docs:50\.\.200 asks for docs:200, which it does not have/,
  );
  await assert.rejects(
    runInProcess(['ruler-hqa', '--data', dir, '--lengths', '32k', '--out', join(dir, 'run3')]),
    /asks for 32k/,
  );
  assert.ok(!existsSync(join(dir, 'run2')) && !existsSync(join(dir, 'run3')), 'nothing written when refused');
});

test('MemAgent data refuses --placement and ctx-dist; the HotpotQA dev file still generates', async () => {
  const dir = tempDir('memagent-opts');
  const file = write(join(dir, 'eval_50.json'), jsonList(memagentRows(50, 1).textRows));
  await assert.rejects(
    catalog.task('ruler-hqa').prepare({ tokenizer, seed: 42, options: { data: file, placement: '0-100' } }),
    /drop --placement/,
  );
  await assert.rejects(
    catalog.task('ctx-dist').prepare({ tokenizer, seed: 42, options: { data: file } }),
    /ctx-dist builds its own placements/,
  );
  const hotpot = await catalog.task('ruler-hqa').prepare({ tokenizer, seed: 42, options: { data: BUNDLED_POOL } });
  assert.equal(hotpot.lengths, undefined, "a HotpotQA dev file is the generator's input, lengths from --lengths");
  assert.equal(hotpot.data?.format, 'hotpotqa-dev');
  await assert.rejects(
    catalog.task('ruler-hqa').prepare({ tokenizer, seed: 42, options: { data: BUNDLED_POOL, pool: BUNDLED_POOL } }),
    /--pool is read only with MemAgent's index-form files/,
  );
});
