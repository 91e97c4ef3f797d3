// Every rival method resumes in the middle of a sample: from a saved checkpoint it sends exactly the requests the
// uninterrupted run sent after that point and ends with the same answer, calls and usage (the embedded reader).
import assert from 'node:assert/strict';
import { test } from 'vitest';
import { textContext } from '../../../harness/context.js';
import { methods, type MethodFlagValues } from '../../../harness/methods/index.js';
import { loadTokenizer } from '../../../harness/tokenizer/index.js';
import type { MethodCheckpoint, Model, ModelRequest, Sample } from '../../../harness/types.js';
import { createLocalModel } from '../../../reference/local-model.js';

const tokenizer = loadTokenizer('qwen2.5');

function recording(inner: Model) {
  const requests: string[] = [];
  const model: Model = {
    id: inner.id,
    isReferenceReader: true,
    generate(request: ModelRequest, signal) {
      requests.push(JSON.stringify({ m: request.messages, p: request.prompt, t: request.params.maxTokens }));
      return inner.generate(request, signal);
    },
  };
  return { model, requests };
}

const filler = (from: number) =>
  Array.from(
    { length: 120 },
    (_, i) =>
      `Document ${from + i}:\nPlace ${from + i}\nThe town of Place ${from + i} lies on a river and has a small market square.`,
  ).join('\n\n');
const sample: Sample = {
  id: 't/1/0',
  task: 't',
  taskVersion: '1',
  length: { kind: 'tokens', value: 1, label: '1' },
  index: 0,
  question: 'In which city was Marie Vell born?',
  answers: ['Dornbach'],
  context: textContext(
    `${filler(1)}\n\nDocument 500:\nMarie Vell\nMarie Vell was born in the city of Dornbach in 1911.\n\n${filler(200)}`,
    tokenizer,
  ),
  metric: 'sub_em',
  metadata: {},
};

const values: MethodFlagValues = {
  ...Object.fromEntries(methods.options().map((o) => [o.flag, o.default])),
  'chunk-tokens': 1200,
  'memory-tokens': 256,
  'compress-words': 400,
  'map-reduce-token-max': 400,
};

test.each(['infmem', 'rememr1', 'chain-of-agents', 'refine', 'map-reduce', 'compress'])(
  '%s resumes mid-sample with the remaining requests only',
  async (name) => {
    const method = methods.get(name).create(values);
    const full = recording(createLocalModel(tokenizer));
    const saved: MethodCheckpoint[] = [];
    const whole = await method.run(sample, { model: full.model, tokenizer, onCheckpoint: (cp) => saved.push(cp) });
    assert.equal(whole.status, 'ok', whole.error);
    assert.ok(saved.length >= 3, `${name}: ${saved.length} checkpoints`);
    assert.equal(whole.calls, full.requests.length);
    for (const at of [1, Math.floor(saved.length / 2), saved.length - 1]) {
      const cp = JSON.parse(JSON.stringify(saved[at])) as MethodCheckpoint;
      const resumed = recording(createLocalModel(tokenizer));
      const out = await method.run(sample, { model: resumed.model, tokenizer, resume: cp });
      assert.deepEqual(resumed.requests, full.requests.slice(cp.step), `${name} from checkpoint ${at}`);
      assert.equal(out.prediction, whole.prediction);
      assert.equal(out.calls, whole.calls);
      assert.deepEqual(out.usage, whole.usage);
    }
    // A state the method cannot read restarts the sample.
    const again = recording(createLocalModel(tokenizer));
    await method.run(sample, {
      model: again.model,
      tokenizer,
      resume: { step: 2, usage: whole.usage, state: { x: 1 } },
    });
    assert.deepEqual(again.requests, full.requests);
  },
  120_000,
);
