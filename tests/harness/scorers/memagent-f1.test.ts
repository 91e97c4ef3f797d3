// MemAgent-mode F1 as MemAgent's driver averages it (docs/PROTOCOLS.md §a.7, D8): ruler_hqa.py stores
// judge_f1 = calc_metrics([pred], [answer])['f1'], which is round(f1 / 1, 2), and prints round(sum(v) * 100 / len(v), 2)
// over those rounded values. Hand-computed case: F1 = 2/3, 0.4 and 2/7 →
//   driver:    (0.67 + 0.40 + 0.29) / 3 = 0.45333… → 45.33
//   unrounded: (0.66667 + 0.4 + 0.28571) / 3 = 0.45079… → 45.08
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'vitest';
import { formatScoreTable, scoreTarget } from '../../../cli/commands/score.js';
import { scorePercent } from '../../../harness/protocol/round.js';
import { scoreAll } from './catalog-metrics.js';
import { answerF1 } from '../../../harness/scorers/qa.js';

// [prediction, gold, exact F1]: p = r = 2/3; p = 1/4, r = 1; p = 1/6, r = 1.
const CASES: Array<[string, string, number]> = [
  ['big red barn', 'the big red house', 2 / 3],
  ['alpha beta gamma delta', 'alpha', 0.4],
  ['one two three four five six', 'one', 2 / 7],
];

test("the sub_em metric's f1 is each sample's F1 rounded to 2 decimals; the f1 metric stays unrounded", () => {
  const rounded = [0.67, 0.4, 0.29];
  CASES.forEach(([pred, gold, f1], i) => {
    assert.ok(Math.abs(answerF1(pred, [gold]) - f1) < 1e-12);
    assert.equal(scoreAll('sub_em', pred, [gold]).scores.f1, rounded[i]);
    assert.equal(scoreAll('f1', pred, [gold]).score, answerF1(pred, [gold]));
  });
});

test('bench score --format memagent averages the rounded per-sample F1: 45.33, not 45.08', async () => {
  const root = mkdtempSync(join(tmpdir(), 'memagent-f1-'));
  const folder = join(root, 'results', 'ruler_hqa_50');
  mkdirSync(folder, { recursive: true });
  const lines = CASES.map(([pred, gold], i) => ({
    _id: i,
    index: i,
    input: `q${i}`,
    answers: [gold],
    response: `Therefore, the answer is ${pred}`,
    answer: gold,
    pred,
    judge_f1: [0.67, 0.4, 0.29][i],
    judge_em: 0,
    judge_sub_em: 1,
  }));
  writeFileSync(join(folder, 'MemoryAgent-14B.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  const table = await scoreTarget(join(root, 'results'), { format: 'memagent' });
  const [row] = table.rows;
  assert.equal(row.extras.f1, (0.67 + 0.4 + 0.29) / 3);
  assert.equal(scorePercent('mean', row.extras.f1), 45.33);
  assert.notEqual(
    scorePercent('mean', CASES.reduce((s, c) => s + c[2], 0) / 3),
    45.33,
    'the unrounded mean would give 45.08',
  );
  assert.equal(scorePercent('mean', CASES.reduce((s, c) => s + c[2], 0) / 3), 45.08);
  assert.match(formatScoreTable(table, false), /f1=45\.33/);
});
