import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { scoreTarget } from '../../../cli/commands/score.js';
import { Group, numpySum } from '../../../harness/scorers/aggregate.js';
import { getMetric } from './catalog-metrics.js';
import { classification, codeSim, count, firstLine, retrieval } from '../../../generators/longbench/metrics.js';

const PRED_DIR = fileURLToPath(new URL('./fixtures/longbench-pred-llama2-7b-chat-4k', import.meta.url));

describe('LongBench parity with eval.py', () => {
  it('reproduces every score in result.json to 2 decimals', async () => {
    const expected = JSON.parse(readFileSync(join(PRED_DIR, 'result.json'), 'utf8')) as Record<string, number>;
    const table = await scoreTarget(PRED_DIR, { format: 'longbench' });
    assert.equal(table.format, 'longbench');
    assert.deepEqual(table.rows.map((r) => r.task).sort(), Object.keys(expected).sort());
    for (const row of table.rows) {
      assert.equal(
        row.percent,
        expected[row.task],
        `${row.task}: ours ${row.percent}, LongBench ${expected[row.task]}`,
      );
      assert.equal(row.reference, expected[row.task]);
      assert.equal(row.metric, ['gov_report', 'qmsum'].includes(row.task) ? 'rouge_l_f' : 'qa_f1');
      assert.equal(row.n, row.task === 'multifieldqa_en' ? 150 : 200);
    }
  });

  it('detects the format by itself', async () => {
    assert.equal((await scoreTarget(PRED_DIR)).format, 'longbench');
  });

  it('reproduces LongBench-E buckets (numpy mean and rounding), switching on a bucketed result.json', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scorers-lbe-'));
    try {
      for (const f of ['2wikimqa.jsonl', 'hotpotqa.jsonl', 'qmsum.jsonl']) cpSync(join(PRED_DIR, f), join(dir, f));
      cpSync(fileURLToPath(new URL('./fixtures/longbench-e-result.json', import.meta.url)), join(dir, 'result.json'));
      const expected = JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8')) as Record<
        string,
        Record<string, number>
      >;
      const table = await scoreTarget(dir);
      assert.equal(table.rows.length, 9);
      for (const row of table.rows)
        assert.equal(row.percent, expected[row.task][row.lengthLabel], `${row.task} ${row.lengthLabel}`);
      assert.equal(
        table.rows.filter((r) => r.task === 'hotpotqa').reduce((n, r) => n + r.n, 0),
        200,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('numpy pairwise summation differs from a running sum where it should', () => {
    // 306 F1-like fractions k/101: 306 splits into blocks 72+80 and 72+82 (recursion, 8-way unrolled blocks of
    // at most 128, a remainder loop), and the rounding differs from a left-to-right sum in the last bits.
    const values = Array.from({ length: 306 }, (_, i) => ((i * 7919) % 101) / 101);
    // Computed with numpy 2.4.6: python3 -c "import numpy as np; v=np.array([((i*7919)%101)/101 for i in range(306)]);
    // print(repr(float(v.sum())), repr(float(v.mean())))"
    const NUMPY_SUM = 151.21782178217825;
    const NUMPY_MEAN = 0.4941758881770531;
    // The plain loop (Python: s = 0.0; for x in v: s += x), also from python3.
    const RUNNING_SUM = 151.21782178217816;
    let running = 0;
    for (const v of values) running += v;
    assert.equal(running, RUNNING_SUM);
    assert.equal(numpySum(values), NUMPY_SUM);
    assert.notEqual(numpySum(values), running);
    // bench score's numpy mean (LongBench-E's np.mean) against the sequential one (Python's sum / n).
    const group = new Group({ task: 't', method: 'm', model: 'x', lengthLabel: '0-4k', metric: 'qa_f1' });
    for (const v of values) group.add(v, {}, 'ok', 'p');
    assert.equal(group.row({ rule: 'numpy-mean' }).mean, NUMPY_MEAN);
    assert.equal(group.row().mean, RUNNING_SUM / 306);
    assert.notEqual(NUMPY_MEAN, RUNNING_SUM / 306);
    // Under 8 values numpy adds left to right too.
    assert.equal(numpySum([0.1, 0.2, 0.3]), 0.1 + 0.2 + 0.3);
  });
});

describe('LongBench metrics', () => {
  it('qa_f1 takes the max over golds and applies the first-line rule only to trec/triviaqa/samsum/lsht', () => {
    const qa = getMetric('qa_f1');
    assert.equal(qa.score('London', ['Paris', 'London']), 1);
    assert.equal(qa.score('\n\nParis\nExplanation: not London', ['Paris'], { dataset: 'triviaqa' }), 1);
    assert.equal(qa.score('\n\nParis\nExplanation: not London', ['Paris'], { dataset: 'triviaqa_e' }), 1);
    assert.ok(qa.score('\n\nParis\nExplanation: not London', ['Paris'], { dataset: 'hotpotqa' }) < 1);
    assert.equal(qa.score('yes', ['no']), 0);
    assert.equal(qa.score(null, ['no']), 0);
    assert.equal(firstLine('\n\nA\nB'), 'A');
  });

  it('classification reproduces the remove-while-iterating skip', () => {
    assert.equal(classification('AB', 'AB', ['A', 'AB', 'B']), 1);
    // [A, B, AB]: removing A makes the loop skip B, so B stays and the score is 1/2
    assert.equal(classification('A B AB', 'AB', ['A', 'B', 'AB']), 0.5);
    assert.equal(classification('Location', 'Description', ['Location', 'Description']), 0);
    assert.equal(
      getMetric('classification').score('\nLocation\nDescription', ['Location'], {
        dataset: 'trec',
        allClasses: ['Location', 'Description'],
      }),
      1,
    );
  });

  it('retrieval and count score the share of matching numbers', () => {
    assert.equal(retrieval('Paragraph 12 and 3', 'Paragraph 12'), 0.5);
    assert.equal(retrieval('none', 'Paragraph 12'), 0);
    assert.equal(retrieval('段落3', '段落3', 'zh'), 1);
    assert.equal(count('There are 7 unique paragraphs out of 30', '7'), 0.5);
    assert.equal(count('seven', '7'), 0);
  });

  it('code_sim scores the first code line with difflib, rounded to whole percent', () => {
    assert.equal(codeSim('```python\n# comment\nx = foo(1)\n', 'x = foo(2)'), 0.9);
    assert.equal(codeSim('x = foo(2)', 'x = foo(2)'), 1);
    assert.equal(codeSim('# only comments\n// here', 'x = 1'), 0);
    assert.equal(codeSim('', ''), 1);
  });
});
