// A sample's cutCalls (issue 17 part 7): counted by the runner from each call's finish reason, kept in the sample's
// checkpoint, so a sample resumed mid-way counts the cut calls made before the resume too.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { executeUnit, type ExecEnv, type UnitSpec } from '../../../harness/runner/execute.js';
import { callModel } from '../../../harness/methods/call.js';
import { CheckpointStore } from '../../../harness/run-dir/checkpoints.js';
import { builtinCatalog } from '../../../generators/index.js';
import type { CallRecord, Method, Model, PreparedTask, Tokenizer } from '../../../harness/types.js';

const tokenizer: Tokenizer = {
  id: 'words',
  encode: (t) => new Uint32Array(t.split(/\s+/).filter(Boolean).length),
  decode: () => '',
  count: (t) => t.split(/\s+/).filter(Boolean).length,
};

/** Answers call k (0-based, over the model's life) with finish reason reasons[k]. */
function modelSaying(reasons: string[]): Model {
  let k = 0;
  return {
    id: 'test',
    isReferenceReader: false,
    async generate() {
      const finishReason = reasons[k++] ?? 'stop';
      return {
        text: 'the answer is x',
        usage: { promptTokens: 3, completionTokens: 4 },
        latencyMs: 1,
        finishReason,
        cached: false,
        retries: 0,
      };
    },
  };
}

/** A method of `calls` calls that checkpoints after each; stops (as if killed) after `stopAfter` calls. */
function steps(calls: number, stopAfter = Infinity): Method {
  return {
    name: 'steps',
    async run(sample, ctx) {
      const usage = { promptTokens: 0, completionTokens: 0 };
      for (let step = ctx.resume?.step ?? 0; step < calls; step++) {
        if (step >= stopAfter) throw new Error('killed');
        await callModel(ctx, sample, 'steps', step, 'update', {
          messages: [{ role: 'user', content: 'q' }],
          params: { maxTokens: 4, temperature: 0, topP: 1 },
        });
        ctx.onCheckpoint?.({ step: step + 1, usage, state: {} });
      }
      return { prediction: 'x', rawOutput: 'x', status: 'ok', calls, usage };
    },
  };
}

const prepared: PreparedTask = {
  maxSamples: () => 1,
  build: () => ({
    question: 'q',
    answers: ['x'],
    context: { tokenCount: 1, pieces: () => [], text: () => 'c' },
    metric: 'sub_em',
    metadata: {},
  }),
};
const spec: UnitSpec = {
  task: 't',
  taskVersion: '1',
  length: { kind: 'native', value: 0, label: 'all' },
  index: 0,
  method: 'steps',
  key: 't/all/0#steps',
};

function env(dir: string, model: Model, method: Method): ExecEnv {
  return {
    modelId: 'test',
    prepared: new Map([['t', prepared]]),
    methods: new Map([['steps', method]]),
    model,
    tokenizer,
    checkpoints: new CheckpointStore(dir),
    checkpointEveryCall: true,
    metrics: builtinCatalog().metrics,
  };
}

test('cutCalls counts the calls that ended on "length", and finishReason lands in each call record', async () => {
  const calls: CallRecord[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'bench-cut-'));
  const rec = await executeUnit(env(dir, modelSaying(['length', 'stop', 'length', 'stop']), steps(4)), spec, (c) =>
    calls.push(c),
  );
  assert.equal(rec?.cutCalls, 2);
  assert.deepEqual(
    calls.map((c) => c.finishReason),
    ['length', 'stop', 'length', 'stop'],
  );
});

test('a sample resumed from its checkpoint counts the cut calls made before the resume', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-cut-'));
  // First run: two cut calls, then killed after its second call's checkpoint.
  await assert.rejects(executeUnit(env(dir, modelSaying(['length', 'length']), steps(4, 2)), spec, () => {}));
  assert.equal(new CheckpointStore(dir).load(spec.key)?.cutCalls, 2);
  // The resume makes calls 3 and 4, one of them cut.
  const rec = await executeUnit(env(dir, modelSaying(['stop', 'length']), steps(4)), spec, () => {});
  assert.equal(rec?.cutCalls, 3);
});
