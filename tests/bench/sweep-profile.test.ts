// bench/sweep.ts: CPU-profile samples attributed to the deepest frame in a known part of the harness.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { frameCategory, splitProfile } from '../../bench/sweep.js';

test('frameCategory maps scripts to the sweep categories', () => {
  assert.equal(frameCategory('file:///w/dist/harness/tokenizer/bpe.js'), 'tokenize');
  assert.equal(frameCategory('wasm://wasm/0012abcd'), 'tokenize');
  assert.equal(frameCategory('file:///w/node_modules/tiktoken/lite/tiktoken_bg.cjs'), 'tokenize');
  assert.equal(frameCategory('file:///w/dist/generators/ruler-hqa/pool.js'), 'build');
  assert.equal(frameCategory('file:///w/dist/reference/reader/select.js'), 'read');
  assert.equal(frameCategory('file:///w/dist/harness/scorers/sub-em.js'), 'score');
  assert.equal(frameCategory('file:///w/dist/harness/protocol/answer.js'), 'score');
  assert.equal(frameCategory('file:///w/dist/harness/runner/runner.js'), 'write');
  assert.equal(frameCategory('file:///w/dist/harness/run-dir/jsonl.js'), 'write');
  assert.equal(frameCategory('node:fs'), undefined);
});

test('splitProfile: self time goes to the deepest categorised frame; idle is left out', () => {
  const frame = (id: number, url: string, children: number[] = [], functionName = 'f') => ({
    id,
    callFrame: { functionName, url, lineNumber: 0 },
    children,
  });
  const profile = {
    nodes: [
      frame(1, '', [2, 5, 6], '(root)'),
      frame(2, 'file:///w/dist/generators/ruler-hqa/build.js', [3]),
      frame(3, 'file:///w/dist/harness/tokenizer/bpe.js', [4]),
      frame(4, 'node:buffer'), // native helper under the tokenizer
      frame(5, 'file:///w/dist/harness/run-dir/jsonl.js', [7]),
      frame(6, '', [], '(idle)'),
      frame(7, 'node:fs'),
    ],
    // sample i lasts timeDeltas[i + 1] µs
    samples: [2, 4, 3, 7, 6, 1],
    timeDeltas: [0, 1000, 2000, 3000, 4000, 5000],
    startTime: 0,
    endTime: 15000,
  };
  const s = splitProfile(profile);
  assert.equal(s.byCategory.build, 1);
  assert.equal(s.byCategory.tokenize, 2 + 3);
  assert.equal(s.byCategory.write, 4);
  assert.equal(s.idleMs, 5);
  assert.equal(s.byCategory.other, 0); // the root's last sample has no duration
  assert.equal(s.cpuMs, 10);
  // a second profile adds up
  const twice = splitProfile(profile, s);
  assert.equal(twice.cpuMs, 20);
});
