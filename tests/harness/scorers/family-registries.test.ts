// A family plugs a metric, a `bench score` reader and a --data layout in through its Family, with no edit elsewhere;
// the built-in families' messages are assembled from their registrations, word for word as before.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll as after, describe, it } from 'vitest';
import { FAMILIES, builtinCatalog } from '../../../generators/index.js';
import { detectFile, wrongTask, type DataFormat } from '../../../harness/data/format.js';
import { UserError } from '../../../harness/errors.js';
import { Catalog, type Family } from '../../../harness/registry/family.js';
import { Group } from '../../../harness/scorers/aggregate.js';
import { getMetric, type Metric } from '../../../harness/scorers/metric.js';
import { scoreSample } from '../../../harness/scorers/score-sample.js';
import type { ScoreSource } from '../../../harness/scorers/sources/source.js';
import { checkFormat, formatHint, scoreTargetWith } from '../../../harness/scorers/sources/target.js';
import type { PreparedTask, TaskDefinition } from '../../../harness/types.js';

const root = mkdtempSync(join(tmpdir(), 'family-registries-'));
after(() => rmSync(root, { recursive: true, force: true }));

function file(name: string, rows: unknown[]): string {
  const path = join(root, name);
  writeFileSync(path, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  return path;
}

// A metric reading its own option from Sample.scoring: the prediction must equal the gold in the given case.
const caseMatch: Metric = {
  name: 'case_match',
  description: 'exact match, case-insensitive unless scoring.caseSensitive',
  score: (p, a, opts = {}) => {
    const fold = (s: string) => (opts.caseSensitive === true ? s : s.toLowerCase());
    return p !== null && a.some((g) => fold(g) === fold(p)) ? 1 : 0;
  },
};

const toyScores: ScoreSource = {
  name: 'toy',
  files: 'toy result files (guess, truth)',
  detect: (v) => 'guess' in v && 'truth' in v,
  score: (files, ctx) =>
    files.map(() => {
      const metric = getMetric(ctx.metrics, ctx.metric ?? 'case_match');
      const g = new Group({ task: 'toy', method: 'toy-pred', model: '-', lengthLabel: 'all', metric: metric.name });
      g.add(metric.score('Paris', ['paris']), {}, 'ok', 'Paris');
      return g.row();
    }),
};

const toyRows: DataFormat = {
  name: 'toy-rows',
  title: 'toy rows',
  expected: 'toy {puzzle, solution}',
  matches: (r) => 'puzzle' in r && 'solution' in r,
  command: (d) => `bench run toy --data ${d.path}`,
  reader: {
    tasks: (name) => name === 'toy',
    read: (env) =>
      env.options.data === undefined ? undefined : ({ read: env.options.data } as unknown as PreparedTask),
  },
};

const toyTask: TaskDefinition = {
  name: 'toy',
  version: '1',
  description: 'a toy task',
  metric: 'case_match',
  defaultSamples: 1,
  defaultLengths: 'all',
  acceptsDocCounts: false,
  prepare: async () => ({ own: true }) as unknown as PreparedTask,
};

const toyFamily: Family = {
  name: 'toy',
  tasks: [toyTask],
  metrics: [caseMatch],
  scoreSources: [toyScores],
  dataFormats: [toyRows],
};

describe('a family plugs into the metric, score-source and data-format registries', () => {
  const catalog = new Catalog([...FAMILIES, toyFamily]);

  it('scores with its metric, reading its own scoring options; the shared QA metrics are there too', () => {
    const sample = {
      metric: 'case_match',
      status: 'ok' as const,
      prediction: 'Paris',
      rawOutput: '',
      answers: ['paris'],
    };
    assert.equal(scoreSample(sample, catalog.metrics).score, 1);
    assert.equal(scoreSample({ ...sample, scoring: { caseSensitive: true } }, catalog.metrics).score, 0);
    assert.equal(getMetric(catalog.metrics, 'sub_em').name, 'sub_em');
    assert.throws(
      () => scoreSample(sample, builtinCatalog().metrics),
      (e: unknown) => e instanceof UserError && /^unknown metric 'case_match'; known metrics: sub_em, /.test(e.message),
    );
  });

  it('bench score detects its files, accepts --format toy, and names it in messages', () => {
    const toy = file('toy.jsonl', [{ guess: 'Paris', truth: 'paris' }]);
    const table = scoreTargetWith(toy, {}, catalog);
    assert.equal(table.format, 'toy');
    assert.equal(table.rows[0].mean, 1);
    assert.equal(scoreTargetWith(toy, { format: 'toy', metric: 'em' }, catalog).rows[0].metric, 'em');
    assert.doesNotThrow(() => checkFormat('toy', catalog.scoreSources));
    assert.throws(
      () => checkFormat('toy', builtinCatalog().scoreSources),
      /--format must be memagent, ruler, longbench or babilong, got 'toy'/,
    );
    assert.match(
      formatHint(catalog.scoreSources),
      /^expected a bench run directory \(samples\.jsonl\), toy result files/,
    );
  });

  it('--data: its layout is detected, its reader prepares its task, other tasks name its command', async () => {
    const rows = file('toy-data.jsonl', [{ puzzle: 'p', solution: 's' }]);
    const d = detectFile(rows, catalog.dataFormats);
    assert.equal(d.format, 'toy-rows');
    const prepare = (task: string, options: Record<string, string>) =>
      catalog.task(task).prepare({ tokenizer: undefined as never, seed: 1, options });
    assert.deepEqual(await prepare('toy', { data: rows }), { read: rows });
    assert.deepEqual(await prepare('toy', {}), { own: true }, 'without --data the task prepares itself');
    await assert.rejects(
      prepare('niah_single_1', { data: rows }),
      (e: unknown) =>
        e instanceof UserError &&
        e.message ===
          `${rows} holds toy rows, which task niah_single_1 does not read: run \`bench run toy --data ${rows}\``,
    );
    assert.equal(
      wrongTask('jsonl', d).message,
      `${rows} holds toy rows, which task jsonl does not read: run \`bench run toy --data ${rows}\``,
    );
  });
});

describe('the built-in registrations give the messages word for word', () => {
  const catalog = builtinCatalog();

  it("bench score's expected-files hint and --format choices", () => {
    assert.equal(
      formatHint(catalog.scoreSources),
      'expected a bench run directory (samples.jsonl), BABILong prediction CSVs (<org>/<model>/qa*_<length>_<cfg>.csv: ' +
        'target, output, question), LongBench pred files (pred, answers, all_classes, length), ' +
        'RULER pred files (index, pred, outputs) or MemAgent result files (response, pred, judge_sub_em)',
    );
    assert.throws(
      () => checkFormat('csv', catalog.scoreSources),
      (e: unknown) =>
        e instanceof UserError && e.message === "--format must be memagent, ruler, longbench or babilong, got 'csv'",
    );
  });

  it("--data's expected layouts, in the order they were listed before", () => {
    const odd = file('odd.jsonl', [{ foo: 1 }]);
    assert.throws(
      () => detectFile(odd, catalog.dataFormats),
      (e: unknown) =>
        e instanceof UserError &&
        e.message ===
          `${odd}: line 1: fields {foo} match no known layout; expected MemAgent's RULER-HQA {context, input, answers, num_docs, index}, ` +
            "RULER's {index, input, outputs, length, ...}, MemAgent's RULER {index, input, context, outputs, answer_prefix, length}, " +
            'LongBench {input, context, answers, length, dataset, language, all_classes, _id}, ' +
            'LongBench v2 {_id, domain, sub_domain, difficulty, length, question, choice_A..D, answer, context}, ' +
            'generic {context, question, answers, id?, metric?}, ' +
            "bench generate's native {id, task, task_version, length, index, question, answers, metric, prompt, metadata, context}, " +
            'or HotpotQA dev records',
    );
  });

  it('detects each layout from its first row; the generic one only when no other matches', () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ _id: 'x', question: 'q', answer: 'a', supporting_facts: [], context: [] }, 'hotpotqa-dev'],
      [{ context: 'c', input: 'q', answers: ['a'], num_docs: 2, index: 0 }, 'memagent-hqa'],
      [{ input: 'q', context: 'c', answers: ['a'], length: 1, dataset: 'trec', all_classes: null }, 'longbench'],
      [{ index: 0, input: 'q', outputs: ['a'], length: 1 }, 'ruler-niah'],
      [{ index: 0, input: 'q', context: 'c', outputs: ['a'], answer_prefix: ' A:', length: 1 }, 'memagent-ruler'],
      [{ context: 'c', question: 'q', answers: ['a'] }, 'jsonl'],
      [
        {
          _id: 'x',
          domain: 'd',
          sub_domain: 's',
          difficulty: 'easy',
          question: 'q',
          choice_A: 'a',
          choice_D: 'd',
          context: 'c',
        },
        'longbench-v2',
      ],
      [{ index: 0, input: 'q', context: 'c', outputs: ['a'], length: 1 }, 'memagent-ruler'],
      [{ task: 't', task_version: '1', length: {}, question: 'q', answers: ['a'], context: 'c' }, 'native'],
    ];
    cases.forEach(([row, format], k) =>
      assert.equal(detectFile(file(`row${k}.jsonl`, [row]), catalog.dataFormats).format, format),
    );
  });
});
