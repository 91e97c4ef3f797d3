// The documented generic layout (task jsonl / file:PATH) and LongBench files routed to the LongBench loader.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCli } from '../../../cli/parse.js';
import { loadTokenizer } from '../../../harness/tokenizer/index.js';
import { builtinCatalog } from '../../../generators/index.js';
import { fixturePath } from '../../../generators/longbench/load.js';
import { jsonl, runInProcess, tempDir, write } from './helpers.js';

const catalog = builtinCatalog();

const tokenizer = loadTokenizer('qwen2.5');

const ROWS = [
  {
    id: 'capitals-1',
    context: 'Paris is the capital of France. Berlin is the capital of Germany. Rome is the capital of Italy.',
    question: 'What is the capital of Germany?',
    answers: ['Berlin'],
  },
  {
    id: 7,
    context: 'The lake froze in January. The river froze a month later, in February.',
    question: 'In which month did the river freeze?',
    answers: ['February', 'Feb'],
    metric: 'em',
  },
  {
    context: 'Mount Kenya is 5,199 metres high; Kilimanjaro is 5,895 metres high.',
    question: 'How high is Kilimanjaro?',
    answers: ['5,895 metres'],
    metric: 'f1',
    extra: 'ignored',
  },
];

test('bench run file:PATH (= jsonl --data PATH): one `all` point, per-row metrics, id in metadata, data in the manifest', async () => {
  const dir = tempDir('generic');
  const file = write(join(dir, 'mine.jsonl'), jsonl(ROWS));
  const { log, records, manifest } = await runInProcess([
    `file:${file}`,
    '--method',
    'memagent,full-context',
    '--out',
    join(dir, 'run'),
  ]);
  assert.match(log[0], /^jsonl: lengths all \(1 point\); data .*mine\.jsonl: jsonl, 3 rows, sha256 [0-9a-f]{12}$/);
  assert.deepEqual(manifest.tasks, [{ name: 'jsonl', version: '1', metric: 'sub_em' }]);
  assert.equal(manifest.data.path, file);
  assert.equal(manifest.data.format, 'jsonl');
  assert.match(manifest.data.sha256, /^[0-9a-f]{64}$/);
  assert.equal(manifest.identity.options.data, file);
  assert.equal(records.length, 6);
  for (const r of records) {
    assert.equal(r.status, 'ok');
    assert.equal(r.task, 'jsonl');
    assert.equal(r.lengthLabel, 'all');
    assert.equal(r.metric, ROWS[r.index].metric ?? 'sub_em');
    assert.equal(r.metadata.row_id, (ROWS[r.index] as { id?: unknown }).id ?? null);
    assert.equal(r.builtTokens, tokenizer.count(ROWS[r.index].context));
  }
  assert.ok(
    records.filter((r) => r.index === 0).every((r) => r.score === 1),
    'Berlin is found',
  );
  const same = parseCli(['run', 'jsonl', '--data', file]);
  const short = parseCli(['run', `file:${file}`]);
  assert.ok(same.command === 'run' && short.command === 'run');
  assert.deepEqual([short.config.tasks, short.config.options], [same.config.tasks, same.config.options]);
});

test('the jsonl task names the right task for other layouts; a LongBench file runs under longbench/<dataset>', async () => {
  const dir = tempDir('generic-route');
  const ruler = write(
    join(dir, 'niah_single_3', 'validation.jsonl'),
    jsonl([{ index: 1, input: 'x', outputs: ['y'], length: 10 }]),
  );
  await assert.rejects(
    catalog.task('jsonl').prepare({ tokenizer, seed: 42, options: { data: ruler } }),
    /holds RULER's generated rows, which task jsonl does not read: run `bench run niah_single_3 --data /,
  );
  const lb = fixturePath('hotpotqa');
  await assert.rejects(
    catalog.task('jsonl').prepare({ tokenizer, seed: 42, options: { data: lb } }),
    /run `bench run longbench\/hotpotqa --data /,
  );
  const mine = write(join(dir, 'mine.jsonl'), jsonl(ROWS));
  await assert.rejects(
    catalog.task('longbench/hotpotqa').prepare({ tokenizer, seed: 42, options: { data: mine } }),
    /holds generic JSONL rows, which task longbench\/hotpotqa does not read: run `bench run jsonl --data /,
  );
  await assert.rejects(
    catalog.task('niah_single_1').prepare({ tokenizer, seed: 42, options: { data: mine } }),
    /which task niah_single_1 does not read/,
  );
  const prepared = await catalog.task('longbench/hotpotqa').prepare({ tokenizer, seed: 42, options: { data: lb } });
  assert.equal(prepared.data?.format, 'longbench');
  assert.equal(prepared.data?.files[0].rows, readFileSync(lb, 'utf8').trim().split('\n').length);
});

test("bench run longbench/hotpotqa --data FILE with rows in LongBench v1's layout: the LongBench loader, data in the manifest", async () => {
  const dir = tempDir('longbench');
  const passages =
    'Passage 1:\nAda Lovelace\nAda Lovelace wrote the first published algorithm.\nPassage 2:\nCharles Babbage\nBabbage designed the Analytical Engine.';
  const rows = [
    {
      input: 'Who wrote the first published algorithm?',
      context: passages,
      answers: ['Ada Lovelace'],
      length: 16,
      dataset: 'hotpotqa',
      language: 'en',
      all_classes: null,
      _id: 'lb-0',
    },
    {
      input: 'Who designed the Analytical Engine?',
      context: passages,
      answers: ['Charles Babbage', 'Babbage'],
      length: 16,
      dataset: 'hotpotqa',
      language: 'en',
      all_classes: null,
      _id: 'lb-1',
    },
  ];
  const file = write(join(dir, 'hotpotqa.jsonl'), jsonl(rows));
  const { log, records, manifest } = await runInProcess([
    'longbench/hotpotqa',
    '--data',
    file,
    '--method',
    'full-context',
    '--out',
    join(dir, 'run'),
  ]);
  assert.match(
    log[0],
    /^longbench\/hotpotqa: lengths all \(1 point\); data .*hotpotqa\.jsonl: longbench, 2 rows, sha256 /,
  );
  assert.equal(manifest.data.format, 'longbench');
  assert.equal(records.length, 2);
  for (const r of records) {
    assert.equal(r.status, 'ok');
    assert.equal(r.metric, 'qa_f1');
    assert.equal(r.metadata._id, rows[r.index]._id);
    assert.equal(r.metadata.fixture, false);
  }
});
