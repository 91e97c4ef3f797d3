// Decoding per protocol (docs/PROTOCOLS.md §a.5, §c.8, §e.6): MemAgent's driver samples at 0.7 / 0.95 on its tasks
// (ruler_hqa.py and ruler_general.py: async_query_llm(..., temperature=0.7, top_p=0.95)), LongBench's pred.py decodes
// greedily (num_beams=1, do_sample=False). The task sets the default, --temperature / --top-p override it, and the
// run identity records what each task used.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { test } from 'vitest';
import { parseCli } from '../../../cli/parse.js';
import type { RunConfig } from '../../../harness/config/run-config.js';
import { textContext } from '../../../harness/context.js';
import { UserError } from '../../../harness/errors.js';
import { fullContextMethod } from '../../../harness/methods/full-context.js';
import { memAgentMethod } from '../../../harness/methods/memagent.js';
import { ragMethod } from '../../../harness/methods/rag.js';
import { defaultTemplates } from '../../../harness/methods/templates.js';
import { createLocalModel } from '../../../reference/local-model.js';
import { MEMAGENT_DECODING, resolveDecoding } from '../../../harness/protocol/decoding.js';
import { LONGBENCH_DECODING } from '../../../generators/longbench/protocol.js';
import { executeRun } from '../../../harness/runner/runner.js';
import { loadTokenizer } from '../../../harness/tokenizer/index.js';
import type { Decoding, Method, Model, ModelRequest, Sample } from '../../../harness/types.js';
import { builtinCatalog } from '../../../generators/index.js';
import { runHooks } from '../../../cli/run-hooks.js';

const catalog = builtinCatalog();

const tokenizer = loadTokenizer('qwen2.5');

test('the task default applies unless --temperature / --top-p are given, each on its own', () => {
  assert.deepEqual(MEMAGENT_DECODING, { temperature: 0.7, topP: 0.95 });
  assert.deepEqual(LONGBENCH_DECODING, { temperature: 0, topP: 1 });
  assert.deepEqual(resolveDecoding({}, LONGBENCH_DECODING), { temperature: 0, topP: 1 });
  assert.deepEqual(resolveDecoding({}, undefined), MEMAGENT_DECODING, "a task without its own decoding is MemAgent's");
  assert.deepEqual(resolveDecoding({ temperature: 0.3 }, LONGBENCH_DECODING), { temperature: 0.3, topP: 1 });
  assert.deepEqual(resolveDecoding({ topP: 0.5 }, MEMAGENT_DECODING), { temperature: 0.7, topP: 0.5 });
  assert.deepEqual(resolveDecoding({ temperature: 0, topP: 1 }, MEMAGENT_DECODING), { temperature: 0, topP: 1 });
});

function recorder(reply: string): { model: Model; seen: ModelRequest[] } {
  const seen: ModelRequest[] = [];
  const model: Model = {
    id: 'rec',
    isReferenceReader: false,
    async generate(request) {
      seen.push(request);
      return {
        text: reply,
        usage: { promptTokens: 1, completionTokens: 1 },
        latencyMs: 0,
        finishReason: 'stop',
        cached: false,
        retries: 0,
      };
    },
  };
  return { model, seen };
}

function sample(decoding: Decoding | undefined): Sample {
  return {
    id: 't/1/0',
    task: 't',
    taskVersion: '1',
    length: { kind: 'native', value: 0, label: 'all' },
    index: 0,
    question: 'Where?',
    answers: ['x'],
    context: textContext('The key is in the box. '.repeat(400), tokenizer),
    metric: 'sub_em',
    metadata: {},
    ...(decoding ? { prompt: { decoding } } : {}),
  };
}

test("every call of every method uses the sample's task decoding, or the override", async () => {
  const templates = defaultTemplates('phrase');
  const make = (o: { temperature?: number; topP?: number }): Method[] => [
    memAgentMethod({ chunkTokens: 1000, memoryTokens: 64, templates, ...o }),
    fullContextMethod({ maxContext: 120000, maxNewTokens: 64, templates, ...o }),
    ragMethod({ maxContext: 4000, maxNewTokens: 64, templates, ...o }),
  ];
  const cases: Array<[{ temperature?: number; topP?: number }, Decoding | undefined, Decoding]> = [
    [{}, LONGBENCH_DECODING, { temperature: 0, topP: 1 }],
    [{}, undefined, { temperature: 0.7, topP: 0.95 }],
    [{}, MEMAGENT_DECODING, { temperature: 0.7, topP: 0.95 }],
    [{ temperature: 0.2 }, LONGBENCH_DECODING, { temperature: 0.2, topP: 1 }],
    [{ temperature: 0, topP: 1 }, MEMAGENT_DECODING, { temperature: 0, topP: 1 }],
  ];
  for (const [override, task, expected] of cases) {
    for (const method of make(override)) {
      const { model, seen } = recorder('Therefore, the answer is x');
      const out = await method.run(sample(task), { model, tokenizer });
      assert.equal(out.status, 'ok');
      assert.ok(seen.length >= 1);
      for (const r of seen) {
        assert.deepEqual(
          { temperature: r.params.temperature, topP: r.params.topP },
          expected,
          `${method.name} ${JSON.stringify(override)} ${JSON.stringify(task)}`,
        );
      }
    }
  }
});

test("tasks carry their protocol's decoding on the definition and on every sample", async () => {
  const lb = catalog.task('longbench/hotpotqa');
  assert.deepEqual(lb.decoding, LONGBENCH_DECODING);
  const lbSample = (await lb.prepare({ tokenizer, seed: 42, options: {} })).build(
    { kind: 'native', value: 0, label: 'all' },
    0,
  );
  assert.deepEqual(lbSample.prompt?.decoding, lb.decoding);

  const niah = catalog.task('niah_single_1');
  assert.deepEqual(
    niah.decoding,
    MEMAGENT_DECODING,
    'MemAgent runs RULER NIAH at its own 0.7 / 0.95 (ruler_general.py)',
  );
  const niahSample = (await niah.prepare({ tokenizer, seed: 42, options: {} })).build(
    { kind: 'tokens', value: 8192, label: '8k' },
    0,
  );
  assert.deepEqual(niahSample.prompt?.decoding, niah.decoding);

  // RULER-HQA keeps the default, MemAgent's.
  assert.deepEqual(resolveDecoding({}, catalog.task('ruler-hqa').decoding), MEMAGENT_DECODING);
});

function config(task: string, args: string[]): RunConfig {
  const cmd = parseCli([
    'run',
    task,
    '--samples',
    '1',
    '--method',
    'full-context',
    '--workers',
    '1',
    '--no-progress',
    '--no-cache',
    ...args,
  ]);
  assert.equal(cmd.command, 'run');
  return (cmd as { config: RunConfig }).config;
}

const run = (task: string, args: string[]) =>
  executeRun(config(task, args), { ...runHooks(catalog), createModel: async (_c, t) => createLocalModel(t) });

test("the manifest records each task's decoding in the run identity; another decoding is refused on resume", async () => {
  const root = mkdtempSync(join(tmpdir(), 'bench-decoding-'));
  const identity = (dir: string) => JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')).identity;

  await run('longbench/hotpotqa', ['--out', join(root, 'lb')]);
  const lb = identity(join(root, 'lb'));
  assert.equal(lb.methods['full-context'].temperature, null, 'no --temperature: the task decides');
  assert.deepEqual(lb.decoding, { 'longbench/hotpotqa': { temperature: 0, top_p: 1 } });

  await run('niah_single_1', ['--lengths', '8k', '--out', join(root, 'niah')]);
  assert.deepEqual(identity(join(root, 'niah')).decoding, { niah_single_1: { temperature: 0.7, top_p: 0.95 } });

  await run('niah_single_1', ['--lengths', '8k', '--temperature', '0', '--out', join(root, 'greedy')]);
  assert.deepEqual(identity(join(root, 'greedy')).decoding, { niah_single_1: { temperature: 0, top_p: 0.95 } });

  await assert.rejects(
    run('niah_single_1', ['--lengths', '8k', '--top-p', '0.5', '--out', join(root, 'niah')]),
    (e: unknown) => {
      assert.ok(e instanceof UserError);
      assert.match(
        e.message,
        /decoding of niah_single_1 \(was temperature 0\.7 top_p 0\.95, now temperature 0\.7 top_p 0\.5\)/,
      );
      assert.match(e.message, /--top-p of full-context \(was unset, now 0\.5\)/);
      return true;
    },
  );
});
