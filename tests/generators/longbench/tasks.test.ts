import { test } from 'vitest';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadHotpot } from '../../../generators/ruler-hqa/hotpotqa.js';
import { DatasetMissingError } from '../../../harness/errors.js';
import { longbenchEBucket } from '../../../generators/longbench/protocol.js';
import { scoreSample } from '../../../harness/scorers/score-sample.js';
import { builtinCatalog } from '../../../generators/index.js';
import { loadTokenizer } from '../../../harness/tokenizer/index.js';
import type { LengthTarget, TaskDefinition } from '../../../harness/types.js';
import { buildFixtureRows, FIXTURE_FIRST_QUESTION, toJsonl } from '../../../generators/longbench/fixture-rows.js';
import { longbenchGroups, longbenchTasks } from '../../../generators/longbench/index.js';
import { fixturePath } from '../../../generators/longbench/load.js';
import { instructionOf } from '../../../generators/longbench/prompts.js';
import { jsonl, row, tempDir } from './helpers.js';

const tokenizer = loadTokenizer('qwen2.5');
const ALL: LengthTarget = { kind: 'native', value: 0, label: 'all' };
const byName = (name: string): TaskDefinition => longbenchTasks.find((t) => t.name === name)!;

test('nine tasks, two groups, native lengths, LongBench sample counts and metrics', () => {
  assert.deepEqual(
    longbenchGroups['longbench-qa'],
    ['hotpotqa', '2wikimqa', 'musique', 'narrativeqa', 'qasper', 'multifieldqa_en'].map((d) => `longbench/${d}`),
  );
  assert.deepEqual(
    longbenchGroups['longbench-sum'],
    ['gov_report', 'qmsum', 'multi_news'].map((d) => `longbench/${d}`),
  );
  assert.deepEqual(
    longbenchTasks.map((t) => t.name),
    [...longbenchGroups['longbench-qa'], ...longbenchGroups['longbench-sum']],
  );
  for (const t of longbenchTasks) {
    assert.equal(t.nativeLengths, true);
    assert.equal(t.acceptsDocCounts, false);
    assert.equal(t.defaultLengths, 'native');
    assert.equal(t.defaultSamples, t.name === 'longbench/multifieldqa_en' ? 150 : 200);
    assert.equal(t.metric, longbenchGroups['longbench-qa'].includes(t.name) ? 'qa_f1' : 'rouge_l_f', t.name);
  }
});

test('the committed hotpotqa fixture is exactly what the builder produces from the bundled HotpotQA subset', () => {
  assert.equal(readFileSync(fixturePath('hotpotqa'), 'utf8'), toJsonl(buildFixtureRows(loadHotpot())));
});

test('hotpotqa fixture samples: LongBench passage layout, own supporting paragraphs, word length, all three buckets', async () => {
  const prepared = await byName('longbench/hotpotqa').prepare({ tokenizer, seed: 42, options: {} });
  assert.equal(prepared.maxSamples(ALL), 50);
  const hotpot = loadHotpot();
  const buckets = new Set<string>();
  for (let i = 0; i < 50; i++) {
    const s = prepared.build(ALL, i);
    const record = hotpot.records[FIXTURE_FIRST_QUESTION + i];
    const text = s.context.text();
    assert.ok(!('id' in s) && !('task' in s), 'the runner, not the generator, names a sample');
    assert.equal(s.metric, 'qa_f1');
    assert.equal(s.question, record.question);
    assert.deepEqual(s.answers, [record.answer]);
    assert.equal(s.metadata._id, record.id);
    assert.equal(s.metadata.dataset, 'hotpotqa');
    assert.equal(s.metadata.fixture, true);
    assert.equal(s.metadata.all_classes, null);
    assert.deepEqual(
      s.scoring,
      { dataset: 'hotpotqa', allClasses: null },
      'typed scoring inputs, not read from metadata',
    );
    assert.equal(s.metadata.length, text.split(/\s+/).filter(Boolean).length);
    assert.equal(s.metadata.longbench_e_bucket, longbenchEBucket(s.metadata.length as number));
    buckets.add(s.metadata.longbench_e_bucket as string);
    const passages = text.split(/\n(?=Passage \d+:\n)/);
    assert.ok(passages.length >= record.paragraphs.length);
    passages.forEach((p, k) =>
      assert.match(p, new RegExp(`^Passage ${k + 1}:\\n[^\\n]+\\n[^\\n]+$`), `sample ${i} passage ${k + 1}`),
    );
    const titles = passages.map((p) => p.split('\n')[1]);
    for (const t of record.supportingTitles)
      assert.ok(titles.includes(t), `sample ${i}: supporting paragraph '${t}' missing`);
    assert.equal(new Set(titles).size, titles.length, `sample ${i}: a title repeats`);
  }
  assert.deepEqual([...buckets].sort(), ['0-4k', '4-8k', '8k+']);
  assert.equal(prepared.build(ALL, 7).context.tokenCount, tokenizer.count(prepared.build(ALL, 7).context.text()));
  assert.throws(() => prepared.build(ALL, 50), /out of range/);
});

test('multi_news fixture: the summarisation instruction is the problem statement; scoring gives ROUGE-L F', async () => {
  const prepared = await byName('longbench/multi_news').prepare({ tokenizer, seed: 42, options: {} });
  assert.equal(prepared.maxSamples(ALL), 5);
  const s = prepared.build(ALL, 0);
  assert.equal(s.question, instructionOf('multi_news'));
  assert.equal(s.metadata.length, 2099);
  assert.equal(s.metadata.longbench_e_bucket, '0-4k');
  assert.ok(s.context.text().startsWith('Passage 1:\n'));
  const perfect = scoreSample(
    { ...s, prediction: s.answers[0], rawOutput: s.answers[0], status: 'ok' },
    builtinCatalog().metrics,
  );
  assert.ok(Math.abs(perfect.score - 1) < 1e-7, `perfect summary scored ${perfect.score}`); // pltrdy: 2pr/(p+r+1e-8)
  const half = s.answers[0].slice(0, Math.floor(s.answers[0].length / 2));
  const partial = scoreSample({ ...s, prediction: half, rawOutput: half, status: 'ok' }, builtinCatalog().metrics);
  assert.ok(partial.score > 0.3 && partial.score < 1, `partial summary scored ${partial.score}`);
  assert.ok('rouge_l_f' in partial.scores);
});

test('--data DIR with two datasets: those two prepare from it, a third is DatasetMissingError', async () => {
  const dir = tempDir({
    'hotpotqa.jsonl': jsonl([row('hotpotqa', 0), row('hotpotqa', 1), row('hotpotqa', 2)]),
    'qmsum.jsonl': jsonl([row('qmsum', 0, { input: 'Summarize the discussion of room 100.' })]),
  });
  const hotpot = await byName('longbench/hotpotqa').prepare({ tokenizer, seed: 42, options: { data: dir } });
  assert.equal(hotpot.maxSamples(ALL), 3, 'the --data file, not the 50-row fixture');
  assert.equal(hotpot.build(ALL, 2).metadata.fixture, false);
  assert.equal(hotpot.build(ALL, 2).question, row('hotpotqa', 2).input);
  const qmsum = await byName('longbench/qmsum').prepare({ tokenizer, seed: 42, options: { data: dir } });
  assert.equal(qmsum.build(ALL, 0).question, 'Summarize the discussion of room 100.');
  assert.equal(qmsum.build(ALL, 0).prompt?.maxNewTokens, 512);
  await assert.rejects(
    byName('longbench/musique').prepare({ tokenizer, seed: 42, options: { data: dir } }),
    DatasetMissingError,
  );
});
