// The runner owns sample identity: a task whose generator names its samples in a format of its own (`vt:1k:0`)
// still resumes. Run twice into the same directory through the real runner on the embedded model, the second run
// finds every finished sample: no model call, not one line added to samples.jsonl.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'vitest';
import { parseCli } from '../../../cli/parse.js';
import { summaryWriter } from '../../../cli/run-hooks.js';
import { FAMILIES } from '../../../generators/index.js';
import type { RunConfig } from '../../../harness/config/run-config.js';
import { Catalog } from '../../../harness/registry/family.js';
import { executeRun, type RunOutcome } from '../../../harness/runner/runner.js';
import type { Model, SampleRecord, TaskDefinition } from '../../../harness/types.js';
import { createLocalModel } from '../../../reference/local-model.js';

const niah = new Catalog(FAMILIES).task('niah_single_1');

/** niah_single_1's samples under another name, with ids as `vt:<length>:<index>` and a task field of their own. */
const oddIds: TaskDefinition = {
  ...niah,
  name: 'odd-ids',
  description: 'NIAH samples whose generator ids them vt:<length>:<index>',
  async prepare(env) {
    const inner = await niah.prepare(env);
    return {
      ...inner,
      build(length, index) {
        return { ...inner.build(length, index), id: `vt:${length.label}:${index}`, task: 'vt-generator' };
      },
    };
  },
};

const catalog = new Catalog([...FAMILIES, { name: 'odd-ids', tasks: [oddIds] }]);

const lines = (file: string): SampleRecord[] =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as SampleRecord);

test('a task with its own id format resumes: the second run makes no model call and appends nothing', async () => {
  const out = join(mkdtempSync(join(tmpdir(), 'bench-identity-')), 'run');
  const cmd = parseCli([
    'run',
    'odd-ids',
    '--lengths',
    '1k,2k',
    '--samples',
    '3',
    '--method',
    'memagent,full-context',
    '--workers',
    '1',
    '--no-progress',
    '--no-cache',
    '--out',
    out,
  ]);
  assert.equal(cmd.command, 'run');
  let modelCalls = 0;
  const run = (): Promise<RunOutcome> =>
    executeRun((cmd as { config: RunConfig }).config, {
      catalog,
      writeSummary: summaryWriter(catalog.reportFacets.all()),
      createModel: async (_c, tokenizer) => {
        const inner = createLocalModel(tokenizer);
        const counting: Model = {
          ...inner,
          generate(request, signal) {
            modelCalls++;
            return inner.generate(request, signal);
          },
        };
        return counting;
      },
    });

  const first = await run();
  assert.ok(first.kind === 'finished');
  const written = lines(join(out, 'samples.jsonl'));
  assert.equal(written.length, 2 * 3 * 2, 'lengths × samples × methods');
  assert.ok(written.every((r) => r.status === 'ok'));
  const callsFirst = modelCalls;
  assert.ok(callsFirst >= written.length, `only ${callsFirst} model calls`);

  const second = await run();
  assert.ok(second.kind === 'finished');
  assert.equal(modelCalls, callsFirst, 'the second run called the model');
  assert.equal(second.calls.calls, 0);
  assert.equal(lines(join(out, 'samples.jsonl')).length, written.length, 'the second run appended samples');
  assert.equal(second.records.length, written.length);
  // The records carry the runner's identity, not the generator's (resume looks them up by it).
  assert.deepEqual([...new Set(written.map((r) => r.id))].sort(), [
    'odd-ids/1k/0',
    'odd-ids/1k/1',
    'odd-ids/1k/2',
    'odd-ids/2k/0',
    'odd-ids/2k/1',
    'odd-ids/2k/2',
  ]);
  assert.ok(written.every((r) => r.task === 'odd-ids' && r.taskVersion === niah.version));
});
