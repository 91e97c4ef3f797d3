import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll as after, describe, it } from 'vitest';
import { formatScoreTable, scoreTarget } from '../../../cli/commands/score.js';
import { UserError } from '../../../harness/errors.js';
import type { SampleRecord } from '../../../harness/types.js';

const root = mkdtempSync(join(tmpdir(), 'scorers-cmd-'));
after(() => rmSync(root, { recursive: true, force: true }));

function dir(...parts: string[]): string {
  const d = join(root, ...parts);
  mkdirSync(d, { recursive: true });
  return d;
}

function jsonl(rows: unknown[], trailing = ''): string {
  return rows.map((r) => JSON.stringify(r)).join('\n') + '\n' + trailing;
}

function rec(over: Partial<SampleRecord>): SampleRecord {
  const lengthLabel = over.lengthLabel ?? '8k';
  const index = over.index ?? 0;
  return {
    id: `${over.task ?? 'hqa'}/${lengthLabel}/${index}`,
    task: 'hqa',
    taskVersion: '1',
    method: 'memagent',
    model: 'm1',
    lengthLabel,
    lengthKind: 'tokens',
    length: lengthLabel === '8k' ? 8192 : 16384,
    index,
    builtTokens: 8000,
    question: 'q',
    answers: ['Paris'],
    prediction: 'Paris',
    rawOutput: 'the answer is Paris',
    metric: 'sub_em',
    score: 1,
    scores: { sub_em: 1 },
    status: 'ok',
    calls: 1,
    usage: { promptTokens: 1, completionTokens: 1 },
    elapsedMs: 1,
    metadata: {},
    ...over,
  };
}

async function userError(p: Promise<unknown>, pattern: RegExp): Promise<void> {
  await assert.rejects(p, (err: unknown) => err instanceof UserError && pattern.test(err.message));
}

describe('scoreTarget on a bench run directory', () => {
  const run = dir('run');
  writeFileSync(
    join(run, 'samples.jsonl'),
    jsonl(
      [
        rec({ lengthLabel: '16k', index: 0, prediction: 'London', score: 0 }),
        rec({ index: 0, prediction: 'Rome', score: 0 }),
        rec({ index: 0, prediction: 'Paris', score: 1 }), // a resumed re-write of the same sample wins
        rec({ index: 1, prediction: 'a', score: 1 }),
        rec({ index: 2, prediction: null, rawOutput: '', status: 'error', error: 'HTTP 500', score: 0 }),
        rec({ index: 3, prediction: 'Paris', status: 'truncated', score: 0 }),
        rec({
          task: 'niah',
          index: 0,
          metric: 'memagent_niah',
          answers: ['1234', '5678'],
          prediction: '1234',
          rawOutput: 'so the answer is 1234',
          score: 0.5,
        }),
      ],
      '{"id": "torn',
    ),
  );

  it('re-scores each record by its metric and groups by task × method × model × length', async () => {
    const table = await scoreTarget(run);
    assert.equal(table.format, 'run');
    assert.deepEqual(
      table.rows.map((r) => [r.task, r.lengthLabel, r.metric, r.n]),
      [
        ['hqa', '8k', 'sub_em', 4],
        ['hqa', '16k', 'sub_em', 1],
        ['niah', '8k', 'memagent_niah', 1],
      ],
    );
    const hqa = table.rows[0];
    assert.equal(hqa.errors, 1);
    assert.equal(hqa.truncated, 1);
    assert.equal(hqa.empty, 1);
    // Paris 1, 'a' 1 (faithful quirk), error 0, truncated 0 even with a prediction
    assert.equal(hqa.mean, 0.5);
    assert.equal(hqa.percent, 50);
    assert.equal(hqa.extras.sub_em_strict, 0.25);
    assert.equal(hqa.extras.empty_norm, 0.25);
    assert.equal(hqa.reference, 50);
    // memagent_niah reads the raw output, not the stored prediction
    assert.equal(table.rows[2].mean, 0.5);
    assert.match(table.warnings.join('\n'), /samples\.jsonl:8: skipped a torn last line/);
  });

  it('formats text and JSON', async () => {
    const table = await scoreTarget(run);
    const text = formatScoreTable(table, false);
    assert.match(text, /task\s+method\s+model\s+length\s+metric\s+n\s+errors\s+trunc\s+empty\s+score\s+ref/);
    assert.match(text, /hqa\s+memagent\s+m1\s+8k\s+sub_em\s+4\s+1\s+1\s+1\s+50\.00\s+50\.00/);
    assert.match(text, /errors and truncated samples count as 0/);
    const parsed = JSON.parse(formatScoreTable(table, true)) as { rows: { percent: number }[] };
    assert.equal(parsed.rows[0].percent, 50);
  });

  it('names the file and line of a malformed record or an unknown metric', async () => {
    const bad = dir('run-bad');
    writeFileSync(join(bad, 'samples.jsonl'), jsonl([rec({})]) + 'not json\n' + jsonl([rec({ index: 5 })]));
    await userError(scoreTarget(bad), /samples\.jsonl:2: not valid JSON/);
    const unknown = dir('run-unknown');
    writeFileSync(join(unknown, 'samples.jsonl'), jsonl([rec({}), rec({ index: 1, metric: 'bleu' })]));
    await userError(scoreTarget(unknown), /samples\.jsonl:2: unknown metric 'bleu'/);
    const missing = dir('run-missing');
    writeFileSync(join(missing, 'samples.jsonl'), jsonl([{ ...rec({}), answers: 'Paris' }]));
    await userError(scoreTarget(missing), /samples\.jsonl:1: not a sample record: 'answers'/);
  });
});

describe('scoreTarget rescoring LongBench run records', () => {
  it('reads the recorded scoring options, and the metadata of records written before them', async () => {
    const run = dir('run-longbench');
    const classes = ['Description', 'Location', 'Entity'];
    // trec: first line only, then classification over all_classes.
    const base = {
      metric: 'classification',
      answers: ['Description'],
      prediction: 'Description\nLocation',
      rawOutput: 'Description\nLocation',
      score: 1,
      scores: { classification: 1 },
    };
    writeFileSync(
      join(run, 'samples.jsonl'),
      jsonl([
        rec({ ...base, task: 'lb-new', scoring: { dataset: 'trec', allClasses: classes }, metadata: {} }),
        rec({ ...base, task: 'lb-old', metadata: { dataset: 'trec', all_classes: classes } }),
        rec({ ...base, task: 'lb-none', metadata: {} }),
      ]),
    );
    const table = await scoreTarget(run);
    assert.deepEqual(
      table.rows.map((r) => [r.task, r.mean]),
      [
        ['lb-new', 1],
        ['lb-none', 0],
        ['lb-old', 1],
      ],
    );
  });
});

describe('scoreTarget on RULER and MemAgent outputs', () => {
  it('scores RULER pred files: string_match_all, string_match_part for qa, length and model from the layout', async () => {
    const pred = dir('ruler', 'llama', 'synthetic', '4096', 'pred');
    const line = (index: number, p: string, outputs: string[]) => ({
      index,
      pred: p,
      input: 'q',
      outputs,
      others: {},
      truncation: -1,
      length: 4000,
    });
    writeFileSync(
      join(pred, 'niah_multivalue.jsonl'),
      jsonl([line(0, ' 1234, 5678\x00', ['1234', '5678', '9999']), line(1, '', ['1'])]),
    );
    writeFileSync(
      join(pred, 'qa_1.jsonl'),
      jsonl([line(0, 'Answer: the Normans', ['Normandy', 'normans']), line(1, 'Rollo', ['France'])]),
    );
    const table = await scoreTarget(pred);
    assert.equal(table.format, 'ruler');
    const [niah, qa] = table.rows;
    assert.deepEqual(
      [niah.task, niah.model, niah.lengthLabel, niah.metric, niah.empty],
      ['niah_multivalue', 'llama', '4k', 'string_match_all', 1],
    );
    assert.equal(niah.mean, (2 / 3 + 0) / 2);
    assert.equal(niah.percent, 33.33);
    assert.deepEqual([qa.metric, qa.mean], ['string_match_part', 0.5]);
  });

  it('scores MemAgent result folders, re-extracting from the response and comparing with judge_sub_em', async () => {
    const results = dir('memagent', 'results');
    const hqa = dir('memagent', 'results', 'ruler_hqa_50');
    writeFileSync(
      join(hqa, 'MemoryAgent-7B.jsonl'),
      jsonl([
        {
          _id: 0,
          answers: ['Paris'],
          response: 'the answer is Paris.',
          answer: 'Paris',
          pred: 'Paris',
          judge_f1: 1,
          judge_em: 1,
          judge_sub_em: 1,
        },
        {
          _id: 1,
          answers: ['Rome'],
          response: 'The answer is Rome.',
          answer: 'Rome',
          pred: null,
          judge_f1: 0,
          judge_em: 0,
          judge_sub_em: 0,
        },
        {
          _id: 2,
          answers: ['Oslo'],
          response: 'the answer is a',
          answer: 'Oslo',
          pred: 'a',
          judge_f1: 0,
          judge_em: 0,
          judge_sub_em: 1,
        },
      ]),
    );
    const niah = dir('memagent', 'results', 'ruler_niah_multivalue_8192');
    writeFileSync(
      join(niah, 'MemoryAgent-7B.jsonl'),
      jsonl([
        {
          _id: 0,
          response: 'the answer is 1234, 5678',
          answer: ['1234', '5678', '42'],
          pred: '1234, 5678',
          judge_sub_em: 0.67,
        },
        { _id: 1, response: 'the answer is 42.', answer: ['42'], pred: '7', judge_sub_em: 0 },
      ]),
    );
    const table = await scoreTarget(results);
    assert.equal(table.format, 'memagent');
    const [h, n] = table.rows;
    assert.deepEqual(
      [h.task, h.lengthLabel, h.metric, h.model, h.n],
      ['ruler_hqa', 'docs:50', 'sub_em', 'MemoryAgent-7B', 3],
    );
    assert.equal(h.mean, 2 / 3);
    assert.equal(h.reference, 66.67);
    assert.equal(h.percent, 66.67);
    assert.deepEqual([n.task, n.lengthLabel, n.metric], ['niah_multivalue', '8k', 'memagent_niah']);
    // our extraction of line 2 gives '42' (1), not the stored '7'
    assert.equal(n.mean, (0.67 + 1) / 2);
    assert.equal(n.reference, toRef((0.67 + 0) / 2));
    const warnings = table.warnings.join('\n');
    assert.match(
      warnings,
      /ruler_niah_multivalue_8192.*differs from the stored pred on 1 of 2 lines \(first at line 2\)/,
    );
    assert.match(warnings, /3 lines; MemAgent's runs have 128 per file/);
  });
});

function toRef(mean: number): number {
  return Math.round(mean * 10000) / 100;
}

describe('scoreTarget input errors', () => {
  it('rejects a missing path, an empty folder and an unknown format with the file and line', async () => {
    await userError(scoreTarget(join(root, 'nope')), /not found/);
    await userError(scoreTarget(dir('empty')), /no \.jsonl files/);
    const odd = join(dir('odd'), 'x.jsonl');
    writeFileSync(odd, '\n' + jsonl([{ foo: 1, bar: 2 }]));
    await userError(scoreTarget(odd), /x\.jsonl:2: unknown format \(fields: foo, bar\)/);
  });

  it('rejects a malformed LongBench line and mixed formats', async () => {
    const lb = dir('lb-bad');
    writeFileSync(
      join(lb, 'hotpotqa.jsonl'),
      jsonl([
        { pred: 'x', answers: ['x'], all_classes: null, length: 1 },
        { pred: 3, answers: ['x'], all_classes: null, length: 1 },
      ]),
    );
    await userError(scoreTarget(lb), /hotpotqa\.jsonl:2: 'pred' must be a string/);
    const mixed = dir('mixed');
    writeFileSync(join(mixed, 'a.jsonl'), jsonl([{ pred: 'x', answers: ['x'], all_classes: null, length: 1 }]));
    writeFileSync(join(mixed, 'b.jsonl'), jsonl([{ index: 0, pred: 'x', outputs: ['x'] }]));
    await userError(scoreTarget(mixed), /b\.jsonl: looks like ruler output, not longbench/);
  });
});

describe('bench score --metric, and the metric chosen from a path said in words', () => {
  // Eight lines as MemAgent's ruler_hqa.py writes them: sub_em (answers[0], both directions) gives 5/8; the NIAH
  // metric (every gold in the answer) 4.5/8, since line 4's answer has one of its two golds.
  const hqaLine = (i: number, answer: string, golds: string[], sub: number) => ({
    input: `q${i}`,
    answers: golds,
    num_docs: 200,
    index: i,
    _id: i,
    response: `Therefore, the answer is ${answer}.`,
    answer: golds[0],
    pred: answer,
    judge_f1: sub,
    judge_em: sub,
    judge_sub_em: sub,
  });
  const upstream = [
    hqaLine(0, 'Paris', ['Paris'], 1),
    hqaLine(1, 'Paris', ['Paris'], 1),
    hqaLine(2, 'Paris', ['Paris'], 1),
    hqaLine(3, 'Paris, France', ['Paris', 'Lyon'], 1),
    hqaLine(4, 'Chief of Protocol', ['Chief of Protocol'], 1),
    hqaLine(5, 'Rome', ['Oslo'], 0),
    hqaLine(6, 'Rome', ['Oslo'], 0),
    hqaLine(7, 'Rome', ['Oslo'], 0),
  ];
  const stripped = upstream.map(({ judge_f1: _f, judge_em: _e, ...rest }) => rest);

  it('an upstream RULER-HQA result file outside a ruler_hqa* folder scores 62.50 with --metric sub_em, 56.25 with the NIAH metric', async () => {
    const file = join(dir('elsewhere'), 'MemoryAgent-14B.jsonl');
    writeFileSync(file, jsonl(upstream));
    const sub = await scoreTarget(file, { metric: 'sub_em' });
    assert.deepEqual([sub.rows[0].metric, sub.rows[0].percent, sub.rows[0].reference], ['sub_em', 62.5, 62.5]);
    assert.match(
      formatScoreTable(sub, false),
      /note: metric sub_em from --metric, in place of the one the files would be scored with/,
    );
    const niah = await scoreTarget(file, { metric: 'memagent_niah' });
    assert.deepEqual([niah.rows[0].metric, niah.rows[0].percent], ['memagent_niah', 56.25]);
    // Without --metric the judge_f1 / judge_em fields (written only for QA tasks) decide: sub_em, and no note.
    const auto = await scoreTarget(file);
    assert.deepEqual([auto.rows[0].metric, auto.rows[0].percent], ['sub_em', 62.5]);
    assert.deepEqual(auto.notes, []);
  });

  it('when only the folder name decides, the output says so in words', async () => {
    const named = join(dir('results-x', 'ruler_hqa_200'), 'MemoryAgent-14B.jsonl');
    writeFileSync(named, jsonl(stripped));
    const table = await scoreTarget(named);
    assert.deepEqual([table.rows[0].metric, table.rows[0].percent], ['sub_em', 62.5]);
    const text = formatScoreTable(table, false);
    assert.match(
      text,
      /note: .*metric sub_em chosen from the folder name 'ruler_hqa_200' \(the lines have no judge_f1\/judge_em to decide it\); pass --metric to override/,
    );
    assert.doesNotMatch(text, /\*/);

    const unnamed = join(dir('elsewhere-2'), 'MemoryAgent-14B.jsonl');
    writeFileSync(unnamed, jsonl(stripped));
    const guessed = await scoreTarget(unnamed);
    assert.deepEqual(
      [guessed.rows[0].metric, guessed.rows[0].percent, guessed.rows[0].reference],
      ['memagent_niah', 56.25, 62.5],
    );
    assert.match(
      formatScoreTable(guessed, false),
      /note: .*metric memagent_niah by default: neither the folder name 'elsewhere-2' .* nor the fields .* decide it; pass --metric sub_em for a RULER-HQA or QA file/,
    );
    assert.equal((await scoreTarget(unnamed, { metric: 'sub_em' })).rows[0].percent, 62.5);
  });

  it('--metric overrides RULER, LongBench and run files too; an unknown metric is refused', async () => {
    const pred = dir('ruler-metric', 'm', 'synthetic', '4096', 'pred');
    writeFileSync(
      join(pred, 'qa_1.jsonl'),
      jsonl([
        {
          index: 0,
          pred: 'Paris and Lyon',
          input: 'q',
          outputs: ['Paris', 'Rome'],
          others: {},
          truncation: -1,
          length: 1,
        },
      ]),
    );
    assert.equal((await scoreTarget(pred)).rows[0].percent, 100);
    assert.equal((await scoreTarget(pred, { metric: 'string_match_all' })).rows[0].percent, 50);
    writeFileSync(
      join(dir('ruler-odd'), 'mytask.jsonl'),
      jsonl([{ index: 0, pred: 'x', input: 'q', outputs: ['x'], others: {}, truncation: -1, length: 1 }]),
    );
    const odd = await scoreTarget(join(root, 'ruler-odd'));
    assert.match(
      odd.notes!.join('\n'),
      /metric string_match_all chosen from the file name 'mytask' \(not one of RULER's tasks/,
    );
    const lb = dir('lb-metric', 'pred', 'm');
    writeFileSync(
      join(lb, 'hotpotqa.jsonl'),
      jsonl([{ pred: 'the Paris', answers: ['Paris'], all_classes: null, length: 10 }]),
    );
    assert.equal((await scoreTarget(lb)).rows[0].metric, 'qa_f1');
    assert.deepEqual(
      (await scoreTarget(lb, { metric: 'em' })).rows.map((r) => [r.metric, r.percent]),
      [['em', 100]],
    );
    const run = dir('run-metric');
    writeFileSync(join(run, 'samples.jsonl'), jsonl([rec({ prediction: 'Paris France', score: 1 })]));
    const rescored = await scoreTarget(run, { metric: 'em' });
    assert.deepEqual(
      [rescored.rows[0].metric, rescored.rows[0].percent, rescored.rows[0].reference],
      ['em', 0, undefined],
    );
    await userError(scoreTarget(run, { metric: 'bleu' }), /unknown metric 'bleu'/);
  });
});

describe('special tokens in peer predictions', () => {
  it('every reader cleans them as bench run does, and one note counts them', async () => {
    // RULER: string_match_all on the cleaned pred; one note for the table.
    const ruler = dir('tok', 'model', 'synthetic', '4096', 'pred');
    writeFileSync(
      join(ruler, 'niah_single_1.jsonl'),
      jsonl([
        { index: 0, pred: '1234<|eot_id|>', outputs: ['1234'] },
        { index: 1, pred: '5678', outputs: ['5678'] },
      ]),
    );
    const r = await scoreTarget(join(ruler, 'niah_single_1.jsonl'));
    assert.equal(r.rows[0].percent, 100);
    assert.deepEqual(
      r.notes
        ?.filter((n) => /special tokens/.test(n))
        .map((n) => n.replace(/ at .*niah_single_1\.jsonl:/, ' at FILE:')),
      [
        '1 prediction held chat-template special tokens (first: <|eot_id|> at FILE:1); removed before scoring, as bench run does',
      ],
    );
    // MemAgent result lines with a stored pred and no response: em sees 'Bob', not 'Bob<|im_end|>'.
    const mem = dir('tok', 'results', 'ruler_hqa_50');
    writeFileSync(
      join(mem, 'cfg.jsonl'),
      jsonl([
        { pred: 'Bob<|im_end|>', answer: ['Bob'], judge_sub_em: 1 },
        { pred: 'Ann<|im_end|><|endoftext|>', answer: ['Ann'], judge_sub_em: 1 },
      ]),
    );
    const m = await scoreTarget(join(mem, 'cfg.jsonl'), { metric: 'em' });
    assert.equal(m.rows[0].percent, 100);
    assert.ok(m.notes?.some((n) => /^2 predictions held chat-template special tokens \(first: <\|im_end\|>/.test(n)));
  });
});
