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
import { LONGBENCH_NO_EVIDENCE, longbenchGroups, longbenchTasks } from '../../../generators/longbench/index.js';
import { fixturePath } from '../../../generators/longbench/load.js';
import { instructionOf } from '../../../generators/longbench/prompts.js';
import { jsonl, row, tempDir } from './helpers.js';
import { getMetric } from '../../harness/scorers/catalog-metrics.js';

const tokenizer = loadTokenizer('qwen2.5');
const ALL: LengthTarget = { kind: 'native', value: 0, label: 'all' };
const byName = (name: string): TaskDefinition => longbenchTasks.find((t) => t.name === name)!;

test('21 v1 tasks and 13 LongBench-E tasks, their groups, native lengths, LongBench sample counts and metrics', () => {
  assert.deepEqual(
    longbenchGroups['longbench-qa'],
    ['hotpotqa', '2wikimqa', 'musique', 'narrativeqa', 'qasper', 'multifieldqa_en'].map((d) => `longbench/${d}`),
  );
  assert.deepEqual(
    longbenchGroups['longbench-sum'],
    ['gov_report', 'qmsum', 'multi_news'].map((d) => `longbench/${d}`),
  );
  assert.equal(longbenchGroups.longbench.length, 21);
  assert.deepEqual(
    longbenchTasks.map((t) => t.name),
    [...longbenchGroups.longbench, ...longbenchGroups['longbench-e']],
  );
  assert.deepEqual(
    longbenchGroups['longbench-e'],
    [
      'qasper',
      'multifieldqa_en',
      'hotpotqa',
      '2wikimqa',
      'gov_report',
      'multi_news',
      'trec',
      'triviaqa',
      'samsum',
      'passage_count',
      'passage_retrieval_en',
      'lcc',
      'repobench-p',
    ].map((d) => `longbench/${d}_e`),
  );
  // pred.py's chat-template split: its six raw datasets, and the other fifteen.
  assert.deepEqual(
    longbenchGroups['longbench-raw'],
    ['lsht', 'trec', 'triviaqa', 'samsum', 'lcc', 'repobench-p'].map((d) => `longbench/${d}`),
  );
  assert.equal(longbenchGroups['longbench-chat'].length, 15);
  assert.deepEqual(
    [...longbenchGroups['longbench-chat'], ...longbenchGroups['longbench-raw']].sort(),
    [...longbenchGroups.longbench].sort(),
  );
  assert.deepEqual(longbenchGroups['longbench-zh'].sort(), [
    'longbench/dureader',
    'longbench/lsht',
    'longbench/multifieldqa_zh',
    'longbench/passage_retrieval_zh',
    'longbench/vcsum',
  ]);
  // eval.py's dataset2metric.
  const metric: Record<string, string> = {
    multifieldqa_zh: 'qa_f1_zh',
    dureader: 'rouge_zh',
    vcsum: 'rouge_zh',
    samsum: 'rouge_l_f',
    trec: 'classification',
    lsht: 'classification',
    triviaqa: 'qa_f1',
    passage_count: 'count',
    passage_retrieval_en: 'retrieval',
    passage_retrieval_zh: 'retrieval_zh',
    lcc: 'code_sim',
    'repobench-p': 'code_sim',
  };
  for (const t of longbenchTasks) {
    const d = t.name.slice('longbench/'.length).replace(/_e$/, '');
    assert.equal(t.nativeLengths, true);
    assert.equal(t.acceptsDocCounts, false);
    assert.equal(t.defaultLengths, 'native');
    const size = d === 'multifieldqa_en' ? 150 : d === 'lcc' || d === 'repobench-p' ? 500 : 200;
    assert.equal(t.defaultSamples, t.name.endsWith('_e') ? Number.POSITIVE_INFINITY : size, t.name);
    const expected = metric[d] ?? (longbenchGroups['longbench-qa'].includes(`longbench/${d}`) ? 'qa_f1' : 'rouge_l_f');
    assert.equal(t.metric, expected, t.name);
  }
});

test('the Chinese fixtures run: rows as LongBench ships them, scored with the Chinese metrics', async () => {
  for (const [name, metric] of [
    ['longbench/multifieldqa_zh', 'qa_f1_zh'],
    ['longbench/passage_retrieval_zh', 'retrieval_zh'],
  ] as const) {
    const prepared = await byName(name).prepare({ tokenizer, seed: 42, options: {} });
    assert.equal(prepared.maxSamples(ALL), 3);
    const s = prepared.build(ALL, 0);
    assert.equal(s.metric, metric);
    assert.equal(s.metadata.language, 'zh');
    assert.equal(s.metadata.fixture, true);
    assert.equal(s.metadata.chat_template, true);
    // A row does not say where its evidence lies (no spans, and a note saying so for bench view), except that
    // passage_retrieval's answer names its paragraph (retrieval-evidence.test.ts).
    if (name === 'longbench/passage_retrieval_zh') assert.equal(s.evidence?.length, 1);
    else {
      assert.equal(s.evidence, undefined);
      assert.equal(s.evidenceNote, LONGBENCH_NO_EVIDENCE);
    }
    assert.equal(getMetric(s.metric).score(s.answers[0], s.answers, s.scoring), 1, name);
  }
  const lsht = byName('longbench/lsht');
  assert.equal(lsht.bundled?.().rows, 0);
});

test('LongBench-E tasks read only <dataset>_e.jsonl, score as <dataset>_e, and carry the length bucket', async () => {
  const dir = tempDir({
    'hotpotqa.jsonl': jsonl([row('hotpotqa', 0)]),
    'hotpotqa_e.jsonl': jsonl([row('hotpotqa_e', 0, { length: 5000 }), row('hotpotqa_e', 1, { length: 9000 })]),
  });
  const prepared = await byName('longbench/hotpotqa_e').prepare({ tokenizer, seed: 42, options: { data: dir } });
  assert.equal(prepared.maxSamples(ALL), 2);
  const s = prepared.build(ALL, 1);
  assert.equal(s.scoring?.dataset, 'hotpotqa_e');
  assert.equal(s.metadata.longbench_e_bucket, '8k+');
  assert.equal(s.metadata.longbench_e, true);
  const v1 = await byName('longbench/hotpotqa').prepare({ tokenizer, seed: 42, options: { data: dir } });
  assert.equal(v1.maxSamples(ALL), 1);
  const empty = tempDir({ 'trec.jsonl': jsonl([row('trec', 0)]) });
  await assert.rejects(
    byName('longbench/trec_e').prepare({ tokenizer, seed: 42, options: { data: empty } }),
    (err: unknown) => err instanceof DatasetMissingError && /no trec_e\.jsonl/.test((err as Error).message),
  );
  // Without --data: the v1 fixture, all three buckets.
  const fixture = await byName('longbench/hotpotqa_e').prepare({ tokenizer, seed: 42, options: {} });
  assert.equal(fixture.maxSamples(ALL), 50);
  assert.equal(fixture.build(ALL, 0).scoring?.dataset, 'hotpotqa_e');
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
