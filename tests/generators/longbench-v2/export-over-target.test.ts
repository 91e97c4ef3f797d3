// `bench export --format longbench-v2` of an over-target sample: the run scores it, so result.py must read its reply
// (D45), while a failed sample still goes out empty.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { longbenchV2ExportLayout } from '../../../generators/longbench-v2/export.js';
import { LONGBENCH_V2_TASK } from '../../../generators/longbench-v2/index.js';
import { builtinCatalog } from '../../../generators/index.js';
import type { SampleRecord } from '../../../harness/types.js';
import { record } from '../../reports/fixtures.js';

const v2 = (status: SampleRecord['status']) =>
  record({
    task: LONGBENCH_V2_TASK,
    lengthKind: 'native',
    status,
    answers: ['C'],
    rawOutput: '  The correct answer is (C)  ',
    metric: 'longbench_v2_acc',
    metadata: { _id: 'x1', domain: 'd', difficulty: 'easy', length: 'short', v2_prompt: '0shot' },
  });

const fields = (status: SampleRecord['status']) => {
  const placed = longbenchV2ExportLayout.place(v2(status), builtinCatalog().metrics);
  return Object.fromEntries(placed.row);
};

test('an over-target sample is exported like an ok one: its reply, its letter, judged', () => {
  const ok = fields('ok');
  assert.equal(ok.pred, 'C');
  assert.equal(ok.judge, true);
  assert.deepEqual(fields('over-target'), ok);
});

test('a failed sample is still exported empty: no letter, judged wrong', () => {
  const failed = fields('error');
  assert.equal(failed.response, '');
  assert.equal(failed.pred, null);
  assert.equal(failed.judge, false);
});
