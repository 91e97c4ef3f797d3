import { test } from 'vitest';
import assert from 'node:assert/strict';
import { modelRecordKey, recordKey } from '../../../harness/run-dir/record-key.js';
import { unitKey } from '../../../harness/runner/units.js';

test('the record key is id#method; the runner names its units with the same key', () => {
  assert.equal(recordKey({ id: 'ruler-hqa/32k/7', method: 'memagent' }), 'ruler-hqa/32k/7#memagent');
  assert.equal(
    unitKey('ruler-hqa', { kind: 'tokens', value: 32768, label: '32k' }, 7, 'memagent'),
    'ruler-hqa/32k/7#memagent',
  );
  assert.equal(
    unitKey('longbench/qasper', { kind: 'native', value: 0, label: 'all' }, 0, 'rag'),
    recordKey({ id: 'longbench/qasper/all/0', method: 'rag' }),
  );
});

test('the model-qualified key tells two models apart and nothing else', () => {
  const r = { id: 'niah_single_1/8k/0', method: 'full-context' };
  assert.notEqual(modelRecordKey({ ...r, model: 'a' }), modelRecordKey({ ...r, model: 'b' }));
  assert.equal(modelRecordKey({ ...r, model: 'a' }), `a\u0000${recordKey(r)}`);
});
