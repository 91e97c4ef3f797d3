// The per-method checkpoint is generic ({step, usage, state}; MemAgent's state is {memory}), stored by the real
// CheckpointStore; a checkpoint written before `state` existed ({step, memory, usage}) still resumes MemAgent.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { test } from 'vitest';
import { textContext } from '../../../harness/context.js';
import { memAgentMethod } from '../../../harness/methods/memagent.js';
import { defaultTemplates } from '../../../harness/methods/templates.js';
import { CheckpointStore, readCheckpoint } from '../../../harness/run-dir/checkpoints.js';
import { loadTokenizer } from '../../../harness/tokenizer/index.js';
import type { MethodCheckpoint, Model, ModelRequest, Sample } from '../../../harness/types.js';
import { createLocalModel } from '../../../reference/local-model.js';

const tokenizer = loadTokenizer('qwen2.5');

function recording(inner: Model) {
  const prompts: string[] = [];
  const model: Model = {
    id: inner.id,
    isReferenceReader: true,
    generate(request: ModelRequest, signal) {
      prompts.push(request.messages[0].content);
      return inner.generate(request, signal);
    },
  };
  return { model, prompts };
}

const filler = Array.from(
  { length: 300 },
  (_, i) => `Document ${i + 1}:\nPlace ${i}\nThe town of Place ${i} lies on a river and has a small market square.`,
).join('\n\n');

const sample: Sample = {
  id: 't/1/0',
  task: 't',
  taskVersion: '1',
  length: { kind: 'tokens', value: 1, label: '1' },
  index: 0,
  question: 'In which city was Marie Vell born?',
  answers: ['Dornbach'],
  context: textContext(`${filler}\n\nMarie Vell was born in the city of Dornbach in 1911.\n\n${filler}`, tokenizer),
  metric: 'sub_em',
  metadata: {},
};

const method = memAgentMethod({
  chunkTokens: 3000,
  memoryTokens: 256,
  temperature: 0.7,
  topP: 0.95,
  templates: defaultTemplates('phrase'),
});

test('MemAgent saves {step, usage, state: {memory}}; the stored checkpoint resumes with the remaining calls only', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-cp-'));
  const store = new CheckpointStore(dir);
  const full = recording(createLocalModel(tokenizer));
  const saved: MethodCheckpoint[] = [];
  const whole = await method.run(sample, { model: full.model, tokenizer, onCheckpoint: (cp) => saved.push(cp) });
  assert.ok(saved.length >= 3, `only ${saved.length} checkpoints`);
  store.save('unit-a', saved[1]);
  const [file] = readdirSync(join(dir, 'checkpoints'));
  const onDisk = JSON.parse(readFileSync(join(dir, 'checkpoints', file), 'utf8')).checkpoint;
  assert.deepEqual(Object.keys(onDisk).sort(), ['state', 'step', 'usage']);
  assert.equal(onDisk.state.memory, full.prompts[2].match(/<memory>\n([\s\S]*)\n<\/memory>/)![1]);

  const resumed = recording(createLocalModel(tokenizer));
  const out = await method.run(sample, { model: resumed.model, tokenizer, resume: store.load('unit-a') });
  assert.deepEqual(resumed.prompts, full.prompts.slice(2), 'the same prompts as the uninterrupted run, from call 3');
  assert.equal(out.calls, whole.calls);
  assert.equal(out.prediction, whole.prediction);
  assert.deepEqual(out.usage, whole.usage);
});

test('a checkpoint in the old {step, memory, usage} form is read as state {memory} and resumes MemAgent', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-cp-old-'));
  const store = new CheckpointStore(dir);
  const full = recording(createLocalModel(tokenizer));
  const saved: MethodCheckpoint[] = [];
  const whole = await method.run(sample, { model: full.model, tokenizer, onCheckpoint: (cp) => saved.push(cp) });
  // Written as bench did before: the memory beside step and usage. The file name is the store's own (save + rewrite).
  const { step, usage, state } = saved[0] as MethodCheckpoint<{ memory: string }>;
  store.save('unit-b', saved[0]);
  const [file] = readdirSync(join(dir, 'checkpoints'));
  writeFileSync(
    join(dir, 'checkpoints', file),
    JSON.stringify({ key: 'unit-b', checkpoint: { step, memory: state.memory, usage } }),
  );
  const loaded = store.load('unit-b');
  assert.deepEqual(loaded, { step, usage, state: { memory: state.memory } });

  const resumed = recording(createLocalModel(tokenizer));
  const out = await method.run(sample, { model: resumed.model, tokenizer, resume: loaded });
  assert.deepEqual(resumed.prompts, full.prompts.slice(1));
  assert.equal(out.prediction, whole.prediction);
  assert.deepEqual(out.usage, whole.usage);
});

test('readCheckpoint: keeps a new-form state as it is; refuses what is not a checkpoint', () => {
  const usage = { promptTokens: 1, completionTokens: 2 };
  assert.deepEqual(readCheckpoint({ step: 2, usage, state: [1, 2] }), { step: 2, usage, state: [1, 2] });
  assert.deepEqual(readCheckpoint({ step: 2, usage, state: null }), { step: 2, usage, state: null });
  assert.equal(readCheckpoint({ memory: 'x' }), undefined);
  assert.equal(readCheckpoint('nope'), undefined);
});

test('a state MemAgent cannot read restarts the sample from the first window', async () => {
  const full = recording(createLocalModel(tokenizer));
  await method.run(sample, { model: full.model, tokenizer });
  const again = recording(createLocalModel(tokenizer));
  const usage = { promptTokens: 5, completionTokens: 5 };
  await method.run(sample, { model: again.model, tokenizer, resume: { step: 2, usage, state: { notes: 'x' } } });
  assert.deepEqual(again.prompts, full.prompts);
});
