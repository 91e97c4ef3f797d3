// The cost chart's Pareto front: the points no other point is both cheaper and more accurate than, cheapest first.
import assert from 'node:assert/strict';
import { test } from 'vitest';
import { costPoints, paretoFront } from '../../reports/charts/cost.js';
import type { SummaryRow } from '../../reports/summary.js';

const row = (method: string, lengthLabel: string, score: number, gpu: number | null): SummaryRow =>
  ({
    task: 't',
    method,
    model: 'm',
    lengthKind: 'tokens',
    lengthLabel,
    length: 1,
    score,
    cost: {
      callsPerSample: 1,
      promptTokensPerSample: 1,
      completionTokensPerSample: 1,
      longestChain: 1,
      estGpuSecondsPerSample: gpu,
      costPreset: 'p',
      wallSecondsPerSample: null,
    },
  }) as SummaryRow;

test('paretoFront keeps the cheapest point and each later one that is more accurate', () => {
  const rows = [
    row('a', '8k', 0.5, 1),
    row('b', '8k', 0.4, 2),
    row('c', '8k', 0.7, 3),
    row('d', '8k', 0.7, 4),
    row('e', '8k', 0.9, 10),
    row('f', '8k', 1, null),
  ];
  const points = costPoints(rows, 't');
  assert.equal(points.length, 5, 'a row without an estimate is left out');
  assert.deepEqual(
    paretoFront(points).map((p) => p.row.method),
    ['a', 'c', 'e'],
  );
  assert.deepEqual(paretoFront([]), []);
});
