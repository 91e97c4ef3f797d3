// One rounding rule for every shown score (harness/protocol/round.ts scorePercent): LongBench's tasks as its eval.py,
// round(100 * total / n, 2) with Python's round, every other task round(100 * mean, 2); summaries, `bench score`,
// the report tables and gate messages agree.
import { describe, it } from 'vitest';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { percentOfScores, percentRuleOf, scorePercent } from '../../harness/protocol/round.js';
import { formatSummaryTable, summarize, writeSummary } from '../../reports/summary.js';
import { fmtScore } from '../../reports/format.js';
import { baselineFromRows, evaluateGate, formatGate } from '../../reports/regression.js';
import { summaryMarkdown } from '../../reports/markdown.js';
import type { SampleRecord } from '../../harness/types.js';
import { runBench } from '../helpers/cli.js';
import { FACETS, record, runDir } from './fixtures.js';

/** What a half-up rounding of the decimal text would give (JS toFixed on an exact tie rounds up). */
const halfUp = (x: number) => Number(x.toFixed(2));

describe('scorePercent', () => {
  it('matches CPython at ties of the binary value, where half-up rounding differs', () => {
    // CPython 3: round(100 * 49 / 160, 2) == 30.62 (30.625 exactly, ties to even); 100 * (49 / 160) is 30.625000000000004.
    assert.equal(scorePercent('total', 49 / 160, 160, 49), 30.62);
    assert.equal(halfUp((100 * 49) / 160), 30.63);
    assert.equal(scorePercent('mean', 49 / 160), 30.63);
    // round(100 * 23 / 160, 2) == 14.38 (14.375 exactly: to even); 100 * (23 / 160) is 14.374999999999998 → 14.37.
    assert.equal(scorePercent('total', 23 / 160, 160, 23), 14.38);
    assert.equal(scorePercent('mean', 23 / 160), 14.37);
    // Seven 0.15s and 33 zeros summed in order: total 1.05 (1.0500000000000000444); round(100 * 1.05 / 40, 2) == 2.62
    // (2.6249999999999996 in binary), which half-up on the decimal 2.625 would make 2.63.
    const scores = [...Array<number>(7).fill(0.15), ...Array<number>(33).fill(0)];
    assert.equal(percentOfScores('total', scores), 2.62);
    assert.equal(halfUp(2.625), 2.63);
    assert.equal(percentOfScores('mean', scores), 2.63);
  });

  it("picks LongBench's rule for LongBench's tasks only", () => {
    assert.equal(percentRuleOf('longbench/hotpotqa'), 'total');
    assert.equal(percentRuleOf('longbench/hotpotqa_e'), 'total');
    assert.equal(percentRuleOf('longbench/hotpotqa_e', true), 'numpy-mean');
    assert.equal(percentRuleOf('longbench-v2'), 'total');
    for (const task of ['ruler-hqa', 'niah_single_1', 'qa1', 'jsonl', 'longbench-qa-like'])
      assert.equal(percentRuleOf(task), 'mean');
  });
});

/** 160 samples, 49 right: 0/1 scores whose two rules round the same tie apart (30.62 vs 30.63). */
function records(task: string, metric: string, right: string, wrong: string): SampleRecord[] {
  return Array.from({ length: 160 }, (_, index) => {
    const ok = index % 160 < 49;
    return record({
      task,
      index,
      lengthKind: 'native',
      lengthLabel: 'all',
      length: 0,
      metric,
      answers: [right],
      prediction: ok ? right : wrong,
      rawOutput: ok ? right : wrong,
      score: ok ? 1 : 0,
      scores: { [metric]: ok ? 1 : 0 },
    });
  });
}

const CASES = [
  {
    task: 'longbench/passage_retrieval_en',
    metric: 'retrieval',
    right: 'Paragraph 3',
    wrong: 'Paragraph 4',
    shown: '30.62',
  },
  { task: 'ruler-hqa', metric: 'sub_em', right: 'Alice', wrong: 'Bob', shown: '30.63' },
];

describe('every table shows a group score by its task rule', () => {
  for (const c of CASES)
    it(`${c.task}: summary, bench score, report and gate show ${c.shown}`, async () => {
      const recs = records(c.task, c.metric, c.right, c.wrong);
      const dir = runDir(recs);
      const rows = summarize(recs, FACETS);
      assert.equal(rows.length, 1);
      assert.equal(rows[0].score, 49 / 160);
      assert.equal(rows[0].scoreX100, Number(c.shown));
      writeSummary(dir, rows);
      const csv = readFileSync(join(dir, 'summary.csv'), 'utf8').split('\n');
      assert.equal(csv[1].split(',')[csv[0].split(',').indexOf('score_x100')], c.shown);
      const json = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));
      assert.equal(json.rows[0].scoreX100, Number(c.shown));
      assert.match(formatSummaryTable(rows, FACETS), new RegExp(`all\\s+160\\s+${c.shown}\\s`));
      assert.ok(summaryMarkdown(rows, FACETS).includes(`| ${c.shown} |`));
      // bench score re-scores the run's samples (the real binary): the same percentage, and the recorded scores agree.
      const scored = await runBench(['score', dir, '--json']);
      assert.equal(scored.code, 0, scored.stderr);
      const [row] = JSON.parse(scored.stdout).rows;
      assert.equal(row.percent, Number(c.shown));
      assert.equal(row.reference, Number(c.shown));
      // A gate message shows the baseline entry (mean and n only) and the run alike.
      const moved = summarize(
        recs.map((r) => (r.index === 100 ? { ...r, prediction: c.right, rawOutput: c.right, score: 1 } : r)),
        FACETS,
      );
      const gate = evaluateGate(baselineFromRows(rows), moved, { exact: true });
      assert.equal(fmtScore(baselineFromRows(rows).entries[0]), c.shown);
      assert.match(
        gate.checks[0].message,
        new RegExp(`^changed: ${c.shown} \\(n=160\\) → ${fmtScore(moved[0])} \\(n=160\\)`),
      );
      assert.match(formatGate(gate, { exact: true }), new RegExp(`${c.shown} \\(n=160\\)`));
    });
});
