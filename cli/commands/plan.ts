// `bench plan`: what a `bench run` command line would cost, without running anything: calls and tokens (the dry-run
// rows), the longest chain, and the predicted wall time and GPU-hours on simulated hardware for the harness's own
// schedule and for one length after another, plus the concurrency that reaches the lower bound.
// `bench plan --calibrate RUN_DIR` fits the hardware to a finished run's calls.jsonl and prints it as a --simulate value.
//
// Dependency edge: this command (and reference/plan/) imports reference/simulator, as `bench serve` does; the timing
// model and its presets live there (docs/SIMULATION.md).
import { UserError } from '../../harness/errors.js';
import type { CommandIO, CommandOf } from '../../harness/config/commands.js';
import type { RunConfig } from '../../harness/config/run-config.js';
import { formatDryRun, type DryRunRow } from '../../harness/runner/dry-run.js';
import { planRun } from '../../harness/runner/plan.js';
import { checkWindow, enforceWindow } from '../../harness/runner/preflight.js';
import type { Catalog } from '../../harness/registry/family.js';
import type { CliContext } from '../context.js';
import { loadTokenizer } from '../../harness/tokenizer/index.js';
import {
  DEFAULT_OUTPUTS,
  formatOutputTokens,
  parseOutputTokens,
  plannedWorkload,
  type OutputAssumption,
} from '../../reference/plan/chains.js';
import { fitCalibration, fittedOutputs, readTimedCalls, type CalibrationFit } from '../../reference/plan/calibrate.js';
import { formatDuration, gpuHours, predict, REACH_TOLERANCE, type Prediction } from '../../reference/plan/predict.js';
import {
  DEFAULT_PRESET,
  GPU_PRESETS,
  parseSimulateSpec,
  parseTimeScale,
  serverSlots,
  type GpuParams,
} from '../../reference/simulator/gpu-params.js';
import { plural } from '../../harness/util/plural.js';
import { loadManifestView } from '../../reports/manifest.js';

/** The preset a --simulate value starts from. */
function presetName(spec: string | undefined): string {
  return spec?.split(',')[0].trim() || DEFAULT_PRESET;
}

const SPEC_KEYS: [keyof GpuParams, string][] = [
  ['prefillTokensPerS', 'prefill-tps'],
  ['stepBaseMs', 'step-ms'],
  ['stepPerSeqMs', 'step-per-seq-ms'],
  ['maxBatch', 'max-batch'],
  ['prefillChunkTokens', 'prefill-chunk'],
  ['replicas', 'replicas'],
];

/** Parameters as a reusable --simulate value: the preset plus every key that differs from it (4 significant digits). */
export function simulateSpecOf(preset: string, p: GpuParams): string {
  const base = GPU_PRESETS[preset];
  const parts = [preset];
  for (const [key, flag] of SPEC_KEYS) {
    const v = p[key] ?? (key === 'replicas' ? 1 : undefined);
    const b = base?.[key] ?? (key === 'replicas' ? 1 : undefined);
    if (typeof v === 'number' && v !== b) parts.push(`${flag}=${Number(v.toPrecision(4))}`);
  }
  return parts.join(',');
}

function describeParams(p: GpuParams): string {
  const r = p.replicas ?? 1;
  return `${p.name}: prefill ${Math.round(p.prefillTokensPerS).toLocaleString('en-US')} tok/s, step ${Number(p.stepBaseMs.toPrecision(4))} ms + ${Number(p.stepPerSeqMs.toPrecision(4))} ms/seq, max batch ${p.maxBatch}${r > 1 ? ` × ${r} replicas` : ''}`;
}

function table(rows: string[][]): string[] {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows.map((r) =>
    r
      .map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c])))
      .join('  ')
      .trimEnd(),
  );
}

interface Calibrated {
  fit: CalibrationFit;
  params: GpuParams;
  spec: string;
  runDir: string;
  timeScale: number;
}

/** The embedded model's id when `runDir` ran on it (its manifest says so), else undefined. */
function embeddedModelOf(runDir: string): string | undefined {
  const model = loadManifestView(runDir)?.model;
  return model?.isReferenceReader ? model.id : undefined;
}

function calibrate(
  runDir: string,
  spec: string | undefined,
  rawScale: string | undefined,
  warn: (line: string) => void,
): Calibrated {
  const base = parseSimulateSpec(spec ?? DEFAULT_PRESET);
  const timeScale = parseTimeScale(rawScale);
  const { calls } = readTimedCalls(runDir, timeScale);
  // The embedded model answers in this process: its latencies are CPU time, with no server queue or batch in them.
  const embedded = embeddedModelOf(runDir);
  let fit: CalibrationFit;
  try {
    fit = fitCalibration(calls, base);
  } catch (err) {
    if (embedded === undefined || !(err instanceof UserError)) throw err;
    throw new UserError(
      `--calibrate: ${runDir} ran on the embedded model (${embedded}), which answers in this process, so its calls.jsonl holds no server timing to fit; calibrate on a run against an endpoint (your server, or bench serve --simulate PRESET)`,
    );
  }
  if (embedded !== undefined)
    warn(
      `warning: ${runDir} ran on the embedded model (${embedded}): its call times are this machine's CPU time, not a server's, so the fit describes no GPU server`,
    );
  const preset = presetName(spec);
  const params = {
    ...base,
    prefillTokensPerS: fit.prefillTokensPerS,
    stepBaseMs: fit.stepBaseMs,
    stepPerSeqMs: fit.stepPerSeqMs,
    name: `${preset}+calibrated`,
  };
  return { fit, params, spec: simulateSpecOf(preset, params), runDir, timeScale };
}

function calibrationLines(c: Calibrated, base: GpuParams): string[] {
  const f = c.fit;
  const lines = [
    `calibrated on ${c.runDir}/calls.jsonl: ${plural(f.fitted, 'call')} fitted (left out but counted as load: ${f.warmup} sent before the first call finished, ${f.skipped} failed, retried or without tokens)` +
      `${c.timeScale !== 1 ? `, times ×${c.timeScale} (bench serve --time-scale)` : ''}`,
    ...table([
      ['parameter', 'fitted', `preset ${presetName(base.name.split('+')[0])}`],
      [
        'prefill-tps',
        Math.round(f.prefillTokensPerS).toLocaleString('en-US'),
        base.prefillTokensPerS.toLocaleString('en-US'),
      ],
      ['step-ms', f.stepBaseMs.toFixed(3), String(base.stepBaseMs)],
      ['step-per-seq-ms', f.stepPerSeqMs.toFixed(4), String(base.stepPerSeqMs)],
    ]).map((l) => `  ${l}`),
    `  per-call overhead ${(f.overheadS * 1000).toFixed(1)} ms${c.timeScale !== 1 ? ` (${((f.overheadS * 1000) / c.timeScale).toFixed(1)} ms of wall time)` : ''}: network, tokenization, client, not part of the preset; rms residual ${(f.rmsRelative * 100).toFixed(1)}% of the mean latency`,
    `  calls in flight: mean ${f.meanInFlight.toFixed(1)}, peak ${f.peakInFlight}; max-batch ${base.maxBatch}, prefill-chunk ${base.prefillChunkTokens} and replicas ${base.replicas ?? 1} are the preset's (latencies do not determine them)`,
    f.method === 'closed form (queue-free)'
      ? "  fit: robust least squares on latency = overhead + prefill (own and overlapping calls') + steps × step time(batch), batch and overlap from the recorded start times"
      : '  fit: the recorded arrivals replayed through the simulator (calls queued beyond the slots), Nelder–Mead on the latencies',
    `  output lengths (median:sigma of a log-normal, per call kind): ${formatOutputTokens(f.outputs)}`,
    `--simulate ${c.spec}`,
    `--output-tokens ${formatOutputTokens(f.outputs)}`,
  ];
  if (f.peakInFlight > serverSlots(base))
    lines.splice(
      lines.length - 2,
      0,
      `  note: up to ${f.peakInFlight} calls were in flight, above the preset's ${serverSlots(base)} slots: queueing is modelled by the replay with the preset's max-batch`,
    );
  return lines;
}

interface PlanResult {
  config: RunConfig;
  rows: DryRunRow[];
  promptTokens: number;
  completionTokens: number;
  longest: { key: string; calls: number };
  outputs: OutputAssumption;
  prediction: Prediction;
  skipped: { task: string; reason: string }[];
  grids: { task: string; lengths: string[] }[];
}

async function planCommand(
  config: RunConfig,
  params: GpuParams,
  outputs: OutputAssumption,
  catalog: Catalog,
  warn: (line: string) => void,
): Promise<PlanResult> {
  const tokenizer = loadTokenizer(config.tokenizer);
  const plan = await planRun(config, tokenizer, catalog);
  // The run's window preflight, on --max-model-len (a plan asks no endpoint): the same line and exit 2 as bench run.
  enforceWindow(checkWindow(plan, config, undefined), config, warn);
  const work = plannedWorkload(plan, config, outputs);
  if (work.order.length === 0)
    throw new UserError('bench plan: the run has no samples to plan (check --samples and --shard)');
  const longest = work.order.reduce((a, b) => (b.calls.length > a.calls.length ? b : a));
  const prediction = predict(params, work.order, work.phases, {
    concurrency: config.concurrency,
    gate: config.serverBatch,
  });
  return {
    config,
    rows: work.rows,
    promptTokens: work.promptTokens,
    completionTokens: work.completionTokens,
    longest: { key: longest.key, calls: longest.calls.length },
    outputs,
    prediction,
    skipped: plan.skipped,
    grids: plan.tasks.map((t, i) => ({ task: t.name, lengths: plan.grids[i].map((l) => l.label) })),
  };
}

const n = (x: number) => Math.round(x).toLocaleString('en-US');

function planLines(r: PlanResult): string[] {
  const p = r.prediction;
  const params = p.params;
  const b = p.bound;
  const c = r.config;
  const ratio = (s: number) => (s / b.boundS).toFixed(3);
  const pct = Math.round((REACH_TOLERANCE - 1) * 100);
  const gh = (s: number) => {
    const h = gpuHours(s, params);
    return h >= 100 ? h.toFixed(0) : h.toPrecision(3);
  };
  const sched = `${c.concurrency} in flight${c.serverBatch ? `, --server-batch ${c.serverBatch}` : ''}`;
  const lines = [
    ...r.skipped.map((s) => `skipping ${s.task}: ${s.reason}`),
    ...r.grids.map(
      (g) =>
        `${g.task}: lengths ${g.lengths.join(', ')} (${plural(g.lengths.length, 'point')})${c.shard ? `, shard ${c.shard.index}/${c.shard.count}` : ''}`,
    ),
    formatDryRun(r.rows).replace(/ \(dry run: no model was called\)$/, ''),
    `expected tokens: ${n(r.promptTokens)} prompt, ${n(r.completionTokens)} completion, with completions assumed ${formatOutputTokens(r.outputs)}`,
    "  (median:sigma of a log-normal per call kind, clamped to each call's max_tokens; set with --output-tokens or measure with --calibrate)",
    `longest chain: ${r.longest.calls} sequential calls (${r.longest.key}); at full-batch latency ${formatDuration(b.chainS)}, alone on the server ${formatDuration(b.chainAloneS)}`,
    '',
    `hardware: ${describeParams(params)}`,
    ...table([
      ['schedule', 'wall time', 'GPU-hours', 'ratio to bound'],
      [
        `harness: longest chain first, ${sched}`,
        formatDuration(p.harness.makespanS),
        gh(p.harness.makespanS),
        ratio(p.harness.makespanS),
      ],
      [
        `length by length, ${c.concurrency} in flight`,
        formatDuration(p.byLength.makespanS),
        gh(p.byLength.makespanS),
        ratio(p.byLength.makespanS),
      ],
      ['lower bound', formatDuration(b.boundS), gh(b.boundS), '1.000'],
    ]),
    `  lower bound = max(work ÷ capacity ${formatDuration(b.workS)}, longest chain at full-batch latency ${formatDuration(b.chainS)}); no schedule beats ${formatDuration(b.strictS)}`,
    `  GPU-hours = wall time × ${p.replicas} GPU${p.replicas > 1 ? 's' : ''} (one per replica); mean decode batch ${p.harness.meanBatch.toFixed(1)} of ${params.maxBatch}`,
    p.best.makespanS < b.boundS
      ? `concurrency reaching the bound: --concurrency ${p.reaching!.concurrency} → ${formatDuration(p.reaching!.makespanS)}, within ${pct}% of the fastest simulated (${formatDuration(p.best.makespanS)}, below the bound: the longest chains set the pace, and they run faster in a smaller batch)`
      : `concurrency reaching the bound: ${p.reaching ? `--concurrency ${p.reaching.concurrency} → ${formatDuration(p.reaching.makespanS)}, within ${pct}% of the lower bound` : `none within ${pct}%; fastest --concurrency ${p.best.concurrency} → ${formatDuration(p.best.makespanS)}`}`,
    `  tried ${p.sweep.map((s) => `${s.concurrency}: ${formatDuration(s.makespanS)}`).join(', ')}`,
    'predicted by the simulated server (docs/SIMULATION.md): excludes client CPU, sample building, network and retries; nothing was run',
  ];
  return lines;
}

function planJson(r: PlanResult) {
  const p = r.prediction;
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return {
    grids: r.grids,
    skipped: r.skipped,
    rows: r.rows,
    expectedTokens: { prompt: r.promptTokens, completion: r.completionTokens },
    outputTokens: formatOutputTokens(r.outputs),
    longestChain: r.longest,
    hardware: p.params,
    bound: Object.fromEntries(Object.entries(p.bound).map(([k, v]) => [k, typeof v === 'number' ? round(v) : v])),
    harness: {
      concurrency: r.config.concurrency,
      serverBatch: r.config.serverBatch ?? null,
      makespanS: round(p.harness.makespanS),
      gpuHours: round(gpuHours(p.harness.makespanS, p.params)),
      meanBatch: round(p.harness.meanBatch),
    },
    lengthByLength: {
      concurrency: r.config.concurrency,
      makespanS: round(p.byLength.makespanS),
      gpuHours: round(gpuHours(p.byLength.makespanS, p.params)),
    },
    sweep: p.sweep.map((s) => ({ concurrency: s.concurrency, makespanS: round(s.makespanS) })),
    reachingConcurrency: p.reaching?.concurrency ?? null,
    best: { concurrency: p.best.concurrency, makespanS: round(p.best.makespanS) },
  };
}

export async function planCli(cmd: CommandOf<'plan'>, io: CommandIO, ctx: CliContext): Promise<number> {
  if (cmd.timeScale !== undefined && cmd.calibrate === undefined)
    throw new UserError("--time-scale only applies with --calibrate (the run's server was bench serve --time-scale X)");
  const given = parseSimulateSpec(cmd.simulate ?? DEFAULT_PRESET);
  const out: Record<string, unknown> = {};
  let params = given;
  let outputs = DEFAULT_OUTPUTS;
  if (cmd.calibrate !== undefined) {
    const c = calibrate(cmd.calibrate, cmd.simulate, cmd.timeScale, io.err);
    params = c.params;
    outputs = fittedOutputs(c.fit, DEFAULT_OUTPUTS);
    if (cmd.json)
      out.calibration = {
        simulate: c.spec,
        outputTokens: formatOutputTokens(c.fit.outputs),
        timeScale: c.timeScale,
        fit: c.fit,
      };
    else for (const l of calibrationLines(c, given)) io.out(l);
  }
  outputs = parseOutputTokens(cmd.outputTokens, outputs);
  if (cmd.config) {
    const r = await planCommand(cmd.config, params, outputs, await ctx.catalog(), io.err);
    if (cmd.json) out.plan = planJson(r);
    else {
      if (cmd.calibrate !== undefined) io.out('');
      for (const l of planLines(r)) io.out(l);
    }
  }
  if (cmd.json) io.out(JSON.stringify(out, null, 2));
  return 0;
}
