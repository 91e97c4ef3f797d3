// The reference reader on RULER-HQA-style contexts built from the bundled HotpotQA subset, driven through a
// MemAgent-style loop (20,000-character windows stand in for 5,000-token windows).

import { test } from 'vitest';
import assert from 'node:assert/strict';
import { buildSample, holdsSentence, loadHotpot, memAgentLoop, normalize, subEm } from './fixture.js';

const N = 60;
const CONTEXT_CHARS = 130_000;
const MEMORY_CHAR_LIMIT = Math.floor(1024 * 3.5);

const records = loadHotpot();
const runs = Array.from({ length: N }, (_, i) => {
  const sample = buildSample(records, i, CONTEXT_CHARS, 1);
  return { sample, result: memAgentLoop(sample.record.question, sample.context) };
});

test('contexts are RULER-HQA sized and chunked into several updates', () => {
  for (const { sample, result } of runs) {
    assert.ok(sample.context.length >= CONTEXT_CHARS * 0.95, 'context shorter than requested');
    assert.ok(result.calls >= 7, `expected at least 6 updates + 1 answer, got ${result.calls}`);
  }
});

test('sub-EM is clearly above the always-yes / always-no baselines', () => {
  let sub = 0;
  let yes = 0;
  let no = 0;
  for (const { sample, result } of runs) {
    sub += subEm(result.prediction, sample.record.answer);
    yes += subEm('yes', sample.record.answer);
    no += subEm('no', sample.record.answer);
  }
  const baseline = Math.max(yes, no) / N;
  const score = sub / N;
  console.log(
    `reader sub-EM ${score.toFixed(3)} on ${N} questions; always-yes ${(yes / N).toFixed(3)}, always-no ${(no / N).toFixed(3)}`,
  );
  assert.ok(score >= baseline + 0.12, `sub-EM ${score} not clearly above the trivial baseline ${baseline}`);
  assert.ok(score >= 0.2, `sub-EM ${score} below 0.2`);
});

test('the final memory keeps gold supporting sentences', () => {
  let any = 0;
  let all = 0;
  for (const { sample, result } of runs) {
    const held = sample.gold.filter((g) => holdsSentence(result.memory, g)).length;
    if (held > 0) any++;
    if (held === sample.gold.length) all++;
  }
  console.log(`memory holds a gold sentence for ${any}/${N}, all gold sentences for ${all}/${N}`);
  assert.ok(any / N >= 0.85, `only ${any}/${N} memories hold a gold supporting sentence`);
  assert.ok(all / N >= 0.5, `only ${all}/${N} memories hold all gold supporting sentences`);
});

test('every memory stays within the character budget and carries provenance', () => {
  for (const { result } of runs) {
    for (const m of result.memories) {
      assert.ok(m.length <= MEMORY_CHAR_LIMIT, `memory of ${m.length} chars exceeds ${MEMORY_CHAR_LIMIT}`);
    }
    assert.match(result.memory, /^\[[^\]\n]+\]$/m, 'memory has no document title lines');
    assert.match(result.memory, /^#\d+ /m, 'memory has no numbered sentence lines');
  }
});

test('answers are short spans in the phrase format, never whole sentences', () => {
  for (const { sample, result } of runs) {
    assert.ok(result.raw.includes('the answer is'), `no "the answer is" in ${JSON.stringify(result.raw)}`);
    assert.ok(
      result.prediction !== null && normalize(result.prediction).length > 0,
      `empty prediction for ${sample.record.question}`,
    );
    const words = (result.prediction ?? '').split(/\s+/).length;
    assert.ok(words <= 8, `answer of ${words} words: ${result.prediction}`);
  }
});

test('outputs are identical across two runs', () => {
  for (const { sample, result } of runs.slice(0, 8)) {
    const again = memAgentLoop(sample.record.question, sample.context);
    assert.deepEqual(again.memories, result.memories);
    assert.equal(again.raw, result.raw);
  }
});
