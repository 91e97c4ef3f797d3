// RULER's rows of vt, cwe, fwe, qa_1 and qa_2 (validation.jsonl) and MemAgent's eval files of them through
// `bench run <task> --data`: the generate → run --data round trip in both layouts gives back the generator's samples
// (question, context, one-shot template, answer prefix, metric); rows of another task or of no task we know, and a
// --flavour the data contradicts, are refused in one line; qa's own SQuAD / HotpotQA --data still reaches the task.
import { asRun } from '../../helpers/identity.js';
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../../../harness/errors.js';
import { parseLengths } from '../../../harness/config/lengths.js';
import { datasetPath } from '../../../harness/paths.js';
import { loadTokenizer } from '../../../harness/tokenizer/index.js';
import { writeJsonRow } from '../../../harness/cache/dataset-cache.js';
import { rulerGenerateLayout } from '../../../generators/ruler/generate.js';
import { memagentGenerateLayout } from '../../../generators/ruler-hqa/generate.js';
import { builtinCatalog } from '../../../generators/index.js';
import { BUNDLED_SQUAD } from '../../../generators/ruler/qa-data.js';
import { rulerKindOf, splitSyntheticInput } from '../../../generators/ruler/ruler-rows.js';
import type { GenerateLayout } from '../../../harness/formats/generate-layout.js';
import { jsonl, tempDir, write } from './helpers.js';

const catalog = builtinCatalog();
const tokenizer = loadTokenizer('qwen2.5');
const TASKS = ['vt', 'cwe', 'fwe', 'qa_1', 'qa_2'];
const [L8k] = parseLengths('8k');

async function roundTrip(name: string, flavour: 'ruler' | 'memagent', layout: GenerateLayout) {
  const gen = await catalog.task(name).prepare({ tokenizer, seed: 7, options: { flavour } });
  const dir = tempDir(`synthetic-${flavour}`);
  const file = layout.path(dir, name, L8k);
  write(file, '');
  const fd = openSync(file, 'w');
  const samples = [0, 1].map((i) => asRun(catalog.task(name), gen.build(L8k, i), L8k, i));
  for (const s of samples) writeJsonRow([fd], layout.row(s, tokenizer));
  closeSync(fd);
  // A directory in the peer's layout (RULER: {tokens}/data/{task}/validation.jsonl; MemAgent: eval_{task}_{tokens}.json).
  const read = await catalog.task(name).prepare({ tokenizer, seed: 0, options: { data: dir } });
  return { samples, read, file, dir };
}

test("RULER's rows give back the generator's RULER-flavour samples: template, context, question, prefix, metric", async () => {
  for (const name of TASKS) {
    const { samples, read } = await roundTrip(name, 'ruler', rulerGenerateLayout);
    assert.deepEqual(read.lengths, [L8k]);
    assert.equal(read.flavour, 'ruler');
    assert.equal(read.data?.format, 'ruler-niah');
    samples.forEach((s, i) => {
      const back = read.build(L8k, i);
      assert.equal(back.question, s.question, name);
      assert.equal(back.context.text(), s.context.text(), name);
      assert.equal(back.prompt?.nativeTemplate, s.prompt?.nativeTemplate, name);
      assert.equal(back.prompt?.fullContext, s.prompt?.fullContext, name);
      assert.equal(back.prompt?.answerFormat, 'raw');
      assert.equal(back.prompt?.answerPrefix, s.prompt?.answerPrefix, name);
      assert.equal(back.prompt?.maxNewTokens, s.prompt?.maxNewTokens, name);
      assert.deepEqual(back.answers, s.answers);
      assert.equal(back.metric, s.metric, name);
    });
  }
});

test("MemAgent's files give back the generator's MemAgent-flavour samples", async () => {
  for (const name of TASKS) {
    const { samples, read, file } = await roundTrip(name, 'memagent', memagentGenerateLayout);
    assert.match(file, new RegExp(`eval_${name}_8192\\.json$`));
    assert.equal(read.data?.format, 'memagent-ruler');
    samples.forEach((s, i) => {
      const back = read.build(L8k, i);
      assert.equal(back.question, s.question, name);
      assert.equal(back.context.text(), s.context.text(), name);
      assert.equal(back.prompt?.answerPrefix, s.prompt?.answerPrefix, name);
      assert.deepEqual(back.answers, s.answers);
      assert.equal(back.metric, s.metric, name);
    });
  }
});

test('each row is told by its template; unknown and other tasks, and a contradicting --flavour, get one line', async () => {
  const { file: vtFile } = await roundTrip('vt', 'ruler', rulerGenerateLayout);
  const { file: cweFile } = await roundTrip('cwe', 'ruler', rulerGenerateLayout);
  const [vtRow] = (await import('node:fs'))
    .readFileSync(vtFile, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  // vt's in-context example holds vt's template too: the task's own is the last one.
  assert.equal(rulerKindOf(vtRow.input), 'vt');
  const split = splitSyntheticInput(vtRow.input, 'vt');
  assert.ok(typeof split !== 'string' && /^\d{5}$/.test(split.query) && split.before.includes('Answer: According'));
  assert.equal(rulerKindOf('Summarise this text: lorem ipsum'), null);

  const prepare = (task: string, file: string, options: Record<string, string> = {}) =>
    catalog.task(task).prepare({ tokenizer, seed: 0, options: { data: file, ...options } });
  const refused = async (p: Promise<unknown>, pattern: RegExp) =>
    assert.rejects(p, (e: unknown) => e instanceof UserError && pattern.test(e.message) && !e.message.includes('\n'));
  const dir = tempDir('synthetic-bad');
  const unknown = write(
    join(dir, 'rows.jsonl'),
    jsonl([{ index: 0, input: 'Summarise this text: lorem ipsum', outputs: ['x'], length: 3000 }]),
  );
  await refused(prepare('fwe', unknown), /line 1: field "input": it is a row of a RULER task we do not know/);
  const cweRows = write(join(dir, 'mixed.jsonl'), readFileSync(cweFile));
  await refused(prepare('fwe', cweRows), /it is RULER's cwe row, not fwe's: run `bench run cwe --data/);
  await refused(prepare('cwe', vtFile), /is RULER's vt data, not cwe: run `bench run vt --data/);
  const vtRows = write(join(dir, 'some.jsonl'), readFileSync(vtFile));
  await refused(prepare('niah_single_1', vtRows), /line 1: field "input": it is RULER's vt row, not niah_single_1's/);
  await refused(
    prepare('vt', vtFile, { flavour: 'memagent' }),
    /--flavour memagent does not fit vt's --data: RULER's rows/,
  );
  await refused(
    prepare('vt', datasetPath(BUNDLED_SQUAD)),
    /vt reads RULER's rows .* or MemAgent's eval_vt_\{tokens\}\.json/,
  );
  // qa_1's own --data, the SQuAD v2 dev file, still builds the task's samples.
  const squadCopy = write(join(dir, 'dev-v2.0.json'), readFileSync(datasetPath(BUNDLED_SQUAD)));
  const squad = await prepare('qa_1', squadCopy);
  assert.equal(squad.data?.format, 'squad-v2');
});
