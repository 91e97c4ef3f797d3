// No method may put the gold answers (or generator metadata) into a prompt. A task wraps real RULER-HQA samples,
// swaps their answers for a sentinel that occurs nowhere in the context, and every registered method runs through
// the real runner; every request the model receives is checked for the sentinel.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'vitest';
import { FAMILIES } from '../../../generators/index.js';
import { summaryWriter } from '../../../cli/run-hooks.js';
import { Catalog } from '../../../harness/registry/family.js';
import { parseCli } from '../../../cli/parse.js';
import type { RunConfig } from '../../../harness/config/run-config.js';
import { methods } from '../../../harness/methods/index.js';
import { createLocalModel } from '../../../reference/local-model.js';
import { executeRun } from '../../../harness/runner/runner.js';
import type { Model, TaskDefinition } from '../../../harness/types.js';

const SENTINEL = 'Zqxjv Plorbington-7731';

const builtin = new Catalog(FAMILIES);

const leakProbe: TaskDefinition = {
  ...builtin.task('ruler-hqa'),
  name: 'gold-leak-probe',
  description: 'RULER-HQA samples whose gold answer is a sentinel absent from the context',
  async prepare(env) {
    const inner = await builtin.task('ruler-hqa').prepare(env);
    return {
      maxSamples: (length) => inner.maxSamples(length),
      build(length, index) {
        const s = inner.build(length, index);
        assert.ok(!s.context.text().includes(SENTINEL) && !s.question.includes(SENTINEL));
        return {
          ...s,
          answers: [SENTINEL, `${SENTINEL} Jr.`],
          metadata: { ...s.metadata, gold: SENTINEL },
        };
      },
    };
  },
};

test('no registered method sends the gold answers or the sample metadata to the model', async () => {
  const requests: string[] = [];
  const names = methods.names();
  const cmd = parseCli([
    'run',
    'gold-leak-probe',
    '--lengths',
    '8k',
    '--samples',
    '3',
    '--method',
    names.join(','),
    '--workers',
    '1',
    '--no-progress',
    '--no-cache',
    '--chunk-tokens',
    '2000',
    '--out',
    join(mkdtempSync(join(tmpdir(), 'bench-leak-')), 'run'),
  ]);
  const outcome = await executeRun((cmd as { config: RunConfig }).config, {
    catalog: new Catalog([...FAMILIES, { name: 'probe', tasks: [leakProbe] }]),
    writeSummary: summaryWriter([]),
    createModel: async (_c, tokenizer) => {
      const inner = createLocalModel(tokenizer);
      const recording: Model = {
        id: inner.id,
        isReferenceReader: true,
        generate(request, signal) {
          for (const m of request.messages) requests.push(m.content);
          return inner.generate(request, signal);
        },
      };
      return recording;
    },
  });
  assert.equal(outcome.kind, 'finished');
  if (outcome.kind !== 'finished') return;
  assert.deepEqual([...new Set(outcome.records.map((r) => r.method))].sort(), [...names].sort(), 'every method ran');
  assert.ok(outcome.records.every((r) => r.status === 'ok'));
  // MemAgent at 8k with 2,000-token windows makes several calls per sample: many prompts were checked.
  assert.ok(requests.length >= 3 * (names.length + 4), `only ${requests.length} requests`);
  const leaked = requests.filter((p) => p.includes(SENTINEL) || p.includes('Plorbington'));
  assert.equal(leaked.length, 0, `the gold answer reached ${leaked.length} prompts`);
});
