// bench plan: parsing, the planned workload from real samples, and the prediction on simulated hardware.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { parseCli } from '../../../cli/parse.js';
import { planCli, simulateSpecOf } from '../../../cli/commands/plan.js';
import {
  DEFAULT_OUTPUTS,
  expectedCalls,
  formatOutputTokens,
  parseOutputTokens,
} from '../../../reference/plan/chains.js';
import { predict, sweepConcurrencies } from '../../../reference/plan/predict.js';
import { UserError } from '../../../harness/errors.js';
import { memAgentPlan } from '../../../harness/methods/memagent.js';
import { rngFor } from '../../../harness/util/rng.js';
import { gpuParams, parseSimulateSpec } from '../../../reference/simulator/gpu-params.js';
import { simulateSweep } from '../../../reference/simulator/sweep.js';
import { memagentSweep } from '../../../reference/simulator/workload.js';
import { RULER_HQA_LENGTHS } from '../../../generators/ruler-hqa/sweep-grid.js';
import { longestChainFirst } from '../../../harness/runner/schedule-policy.js';
import { executeRun } from '../../../harness/runner/runner.js';
import { runHooks } from '../../../cli/run-hooks.js';
import { cliContext } from '../../../cli/context.js';
import { builtinCatalog } from '../../../generators/index.js';

async function plan(argv: string[]): Promise<{ code: number; out: string[] }> {
  const cmd = parseCli(['plan', ...argv], {});
  assert.equal(cmd.command, 'plan');
  const out: string[] = [];
  const code = await planCli(
    cmd as Extract<typeof cmd, { command: 'plan' }>,
    { out: (l) => out.push(l), err: (l) => out.push(l) },
    cliContext(),
  );
  return { code, out };
}

test('bench plan takes a bench run command line plus --simulate, --output-tokens, --calibrate, --time-scale, --json', () => {
  const cmd = parseCli(
    [
      'plan',
      'ruler-hqa',
      '--lengths',
      'docs:50..25600',
      '--method',
      'memagent',
      '--concurrency',
      '256',
      '--simulate',
      'qwen2.5-14b-8xh100,max-batch=32',
      '--json',
    ],
    {},
  );
  assert.ok(cmd.command === 'plan');
  assert.equal(cmd.config?.concurrency, 256);
  assert.equal(cmd.config?.lengths?.length, 10);
  assert.equal(cmd.simulate, 'qwen2.5-14b-8xh100,max-batch=32');
  assert.equal(cmd.json, true);
  const cal = parseCli(['plan', '--calibrate', 'runs/x', '--time-scale', '50'], {});
  assert.ok(cal.command === 'plan');
  assert.equal(cal.config, undefined);
  assert.equal(cal.calibrate, 'runs/x');
  const usage = (argv: string[], re: RegExp) =>
    assert.throws(
      () => parseCli(argv, {}),
      (e: unknown) => e instanceof UserError && re.test(e.message),
      argv.join(' '),
    );
  usage(['plan'], /needs a task .* or --calibrate RUN_DIR/);
  usage(['plan', 'ruler-hqa', '--bogus'], /bench plan: .*bogus/);
  usage(['plan', 'ruler-hqa', '--shard', 'auto'], /no job index/);
});

test('--output-tokens: KIND=MEDIAN[:SIGMA] on top of the defaults; the printed form parses back', () => {
  const o = parseOutputTokens('update=800:0.1,final=9');
  assert.equal(o.update.median, 800);
  assert.equal(o.update.sigma, 0.1);
  assert.equal(o.final.sigma, 0);
  assert.deepEqual(o.answer, DEFAULT_OUTPUTS.answer);
  assert.deepEqual(parseOutputTokens(formatOutputTokens(o)).update.median, 800);
  assert.throws(() => parseOutputTokens('update=lots'), /KIND=MEDIAN/);
  assert.throws(() => parseOutputTokens('update=0'), /MEDIAN >= 1/);
});

test("a sample's expected calls follow its plan: updates carry the previous output as memory, clamped to max_tokens", () => {
  const planned = memAgentPlan({ contextTokens: 12_000 }, { chunkTokens: 5000, memoryTokens: 1024 });
  const calls = expectedCalls(planned, parseOutputTokens('update=700,final=20'), rngFor('t'));
  assert.deepEqual(
    calls.map((c) => c.output),
    [700, 700, 700, 20],
  );
  assert.deepEqual(
    calls.map((c) => c.prompt),
    [150 + 3 + 5000, 150 + 700 + 5000, 150 + 700 + 2000, 115 + 700],
  );
  const clamped = expectedCalls(planned, parseOutputTokens('update=5000'), rngFor('t'));
  assert.equal(clamped[0].output, 1024);
});

test('predict: the harness schedule is simulateSweep over the given order; the sweep finds a concurrency at the bound', () => {
  const params = gpuParams('qwen2.5-14b-h100');
  const chains = memagentSweep({ samples: 32, lengths: RULER_HQA_LENGTHS.slice(0, 3) });
  const order = longestChainFirst(chains, (c) => c.calls.length);
  const phases = [0, 1, 2].map((g) => chains.slice(g * 32, (g + 1) * 32));
  const p = predict(params, order, phases, { concurrency: 32 });
  assert.equal(
    p.harness.makespanS,
    simulateSweep(params, { kind: 'ordered', name: 'x', order, concurrency: 32 }).makespanS,
  );
  assert.equal(
    p.byLength.makespanS,
    simulateSweep(params, { kind: 'phased', name: 'x', phases, concurrency: 32 }).makespanS,
  );
  assert.ok(p.harness.makespanS >= p.bound.strictS);
  // `reaching` is the smallest concurrency within 2% of min(bound, fastest simulated), or none
  const target = Math.min(p.bound.boundS, p.best.makespanS) * 1.02;
  const within = p.sweep.filter((s) => s.makespanS <= target);
  assert.deepEqual(p.reaching, within[0], JSON.stringify({ sweep: p.sweep, bound: p.bound.boundS }));
  assert.equal(p.best.makespanS, Math.min(...p.sweep.map((s) => s.makespanS)));
  // a sweep whose fastest point beats the (not strict) bound: the fastest is the target, so some point reaches it
  const small = memagentSweep({ samples: 4, lengths: RULER_HQA_LENGTHS.slice(0, 3) });
  const q = predict(
    gpuParams('qwen2.5-7b-h100'),
    longestChainFirst(small, (c) => c.calls.length),
    [small],
    { concurrency: 4 },
  );
  assert.ok(q.best.makespanS < q.bound.boundS && q.reaching !== undefined, JSON.stringify(q.sweep));
  assert.ok(p.sweep.every((s, i) => i === 0 || s.concurrency > p.sweep[i - 1].concurrency));
  assert.deepEqual(sweepConcurrencies(96, 28), [2, 4, 8, 16, 32, 64, 96]);
  assert.deepEqual(sweepConcurrencies(3, 224), [3]);
});

test('bench plan prints calls and tokens from the dry-run rows, the longest chain, wall time and GPU-hours', async () => {
  const args = [
    'ruler-hqa',
    '--lengths',
    'docs:50..100',
    '--samples',
    '4',
    '--concurrency',
    '8',
    '--simulate',
    'qwen2.5-14b-8xh100',
  ];
  const { code, out } = await plan([...args, '--json']);
  assert.equal(code, 0);
  const j = JSON.parse(out.join('\n')).plan;
  // every 50-document sample is 5.8K-8.4K tokens: 2 windows + the final call; 100 documents: 3 + 1
  assert.equal(j.longestChain.calls, 4);
  assert.equal(j.hardware.replicas, 8);
  assert.ok(Math.abs(j.harness.gpuHours - (j.harness.makespanS / 3600) * 8) < 1e-3);
  assert.ok(j.harness.makespanS >= j.bound.strictS - 1e-6);
  assert.ok(j.sweep.some((s: { concurrency: number }) => s.concurrency === j.reachingConcurrency));
  const text = (await plan(args)).out.join('\n');
  assert.match(text, /total: \d+ calls, at most [\d,]+ prompt and [\d,]+ completion tokens/);
  assert.match(
    text,
    /expected tokens: [\d,]+ prompt, [\d,]+ completion, with completions assumed update=400:0.5,final=60:0.6/,
  );
  assert.match(text, /longest chain: 4 sequential calls/);
  assert.match(
    text,
    /hardware: qwen2\.5-14b-8xh100: prefill 12,500 tok\/s, step 12 ms \+ 0\.55 ms\/seq, max batch 28 × 8 replicas/,
  );
  assert.match(text, /harness: longest chain first, 8 in flight +\d/);
  assert.match(text, /length by length, 8 in flight/);
  assert.match(text, /concurrency reaching the bound: --concurrency \d+/);
  assert.doesNotMatch(text, /dry run: no model was called/);
});

test("bench plan's rows are bench run --dry-run's", async () => {
  const argv = [
    'ruler-hqa,niah_single_1',
    '--lengths',
    '8k,16k',
    '--samples',
    '3',
    '--method',
    'memagent,full-context',
  ];
  const { out } = await plan([...argv, '--json']);
  const rows = JSON.parse(out.join('\n')).plan.rows;
  const run = parseCli(['run', ...argv, '--dry-run'], {});
  assert.ok(run.command === 'run');
  const dry = await executeRun(run.config, {
    ...runHooks(builtinCatalog()),
    createModel: () => Promise.reject(new Error('no model in a dry run')),
  });
  assert.ok(dry.kind === 'dry-run');
  assert.deepEqual(rows, dry.rows);
  assert.equal(rows.length, 8);
});

test('--time-scale without --calibrate is refused; a --simulate value prints back as a reusable spec', async () => {
  await assert.rejects(plan(['ruler-hqa', '--time-scale', '5']), /--time-scale only applies with --calibrate/);
  await assert.rejects(plan(['ruler-hqa', '--simulate', 'h100-magic']), /unknown --simulate preset/);
  const p = { ...gpuParams('qwen2.5-14b-8xh100'), prefillTokensPerS: 12345.678, maxBatch: 32 };
  const spec = simulateSpecOf('qwen2.5-14b-8xh100', p);
  assert.equal(spec, 'qwen2.5-14b-8xh100,prefill-tps=12350,max-batch=32');
  assert.equal(parseSimulateSpec(spec).maxBatch, 32);
});
