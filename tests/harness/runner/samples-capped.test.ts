import { test } from 'vitest';
import assert from 'node:assert/strict';
import { samplesCappedNote } from '../../../harness/runner/plan.js';

test('the --samples cap note names the task, the lengths, what runs and what was asked', () => {
  assert.equal(
    samplesCappedNote({
      task: 'ruler-hqa',
      requested: 1_000_000_000,
      lengths: [
        { label: '8k', available: 1580 },
        { label: '16k', available: 1580 },
      ],
    }),
    'note: ruler-hqa has only 1,580 samples at 8k, 16k: running 1,580 there (--samples 1000000000)',
  );
  assert.equal(
    samplesCappedNote({ task: 'longbench/multi_news', requested: 20, lengths: [{ label: 'all', available: 5 }] }),
    'note: longbench/multi_news has only 5 samples: running 5 (--samples 20)',
  );
  assert.equal(
    samplesCappedNote({
      task: 't',
      requested: 9,
      lengths: [
        { label: '8k', available: 1 },
        { label: '16k', available: 2 },
      ],
    }),
    'note: t has fewer samples than asked at 8k (1), 16k (2): running those (--samples 9)',
  );
});
