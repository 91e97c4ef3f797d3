// `bench run`: Ctrl-C / SIGTERM handling, the model, the runner (handed the catalog, the summary writer and the
// worker setup: cli/run-hooks.ts), and everything the user reads about the run.
import { setMaxListeners } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandIO, CommandOf } from '../../harness/config/commands.js';
import type { CliContext } from '../context.js';
import { runHooks } from '../run-hooks.js';
import { costModel } from '../cost-preset.js';
import { createEmbeddedModel } from '../worker-setup.js';
import { checkOutputDir } from '../../harness/path-checks.js';
import { createModel } from '../../harness/models/factory.js';
import { formatDryRun } from '../../harness/runner/dry-run.js';
import { samplesCappedNote } from '../../harness/runner/plan.js';
import { executeRun, type RunEvent, type RunOutcome } from '../../harness/runner/runner.js';
import type { SampleRecord } from '../../harness/types.js';
import { plural } from '../../harness/util/plural.js';

export function describeEvent(e: RunEvent): string {
  switch (e.type) {
    case 'skipped':
      return `skipping ${e.task}: ${e.reason}`;
    case 'grid':
      return `${e.task}: lengths ${e.lengths.join(', ')} (${plural(e.lengths.length, 'point')})${e.data ? `; ${e.data}` : ''}`;
    case 'resuming':
      return `resuming: ${e.finished} of ${e.total} samples already finished in ${e.dir}`;
    case 'samples-capped':
      return samplesCappedNote(e);
    case 'note':
      return e.message;
  }
}

/** `bench run`'s exit codes (documented in `bench run --help` and the README's "Exit codes"). */
export const EXIT = {
  /** Every sample ended ok (or truncated by design: a context-length rejection). */
  ok: 0,
  /** A harness bug. */
  bug: 1,
  /** Usage or set-up error, including an endpoint that cannot serve the run (the run stops at once), and a run in
   *  which the server rejected every sample as too long before answering any call (its window is too small). */
  usage: 2,
  /** The run finished but some samples ended as errors (rerun with --retry-errors), or a worker thread ran out of
   *  memory and the run stopped (harness/errors.ts WorkerOutOfMemoryError; a rerun resumes). */
  sampleErrors: 3,
  /** Interrupted (Ctrl-C / SIGTERM); rerun to resume. */
  interrupted: 130,
} as const;

/**
 * The lines printed after a run (stdout), its exit code, and for a run with errored samples a closing line for
 * stderr saying how many and how to run them again.
 */
export function describeOutcome(outcome: RunOutcome): { lines: string[]; exitCode: number; errorLine?: string } {
  if (outcome.kind === 'dry-run') return { lines: [formatDryRun(outcome.rows)], exitCode: EXIT.ok };
  const c = outcome.calls;
  const lines = [
    '',
    outcome.summaryTable,
    ...(outcome.shard ? [shardLine(outcome.shard)] : []),
    `this invocation: ${plural(c.calls, 'model call')}, ${plural(c.retries, 'retry', 'retries')}, ${c.cached} from cache, ${c.failed} failed; peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`,
  ];
  if (outcome.referenceReader) lines.push('model: embedded reference reader (lexical, deterministic; not an LLM)');
  lines.push(`results: ${outcome.outDir}`);
  if (outcome.interrupted) {
    lines.push(
      `interrupted: ${outcome.records.length} of ${outcome.units} samples finished; run the same command again to resume`,
    );
    return { lines, exitCode: EXIT.interrupted };
  }
  const rejected = allRejectedAsTooLong(outcome.records);
  if (rejected) return { lines, exitCode: EXIT.usage, errorLine: rejected };
  lines.push(nextLine(outcome.outDir));
  const errored = outcome.records.filter((r) => r.status === 'error');
  if (errored.length > 0) {
    const first = (errored[0].error ?? 'no message').replace(/\s+/g, ' ').slice(0, 300);
    const errorLine =
      `${errored.length} of ${outcome.records.length} samples ended as errors (first: ${first}); ` +
      `results in ${outcome.outDir}; run the same command with --retry-errors to run those samples again`;
    return { lines, exitCode: EXIT.sampleErrors, errorLine };
  }
  return { lines, exitCode: EXIT.ok };
}

/** A path as one shell word: quoted only when it holds a character the shell would read. */
export function shellWord(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}

/** The line after a finished run: what to do with its directory. */
export function nextLine(outDir: string): string {
  return `next: bench report ${shellWord(outDir)}`;
}

type ShardOutcome = NonNullable<Extract<RunOutcome, { kind: 'finished' }>['shard']>;

/** "shard 0/4: this directory holds 4 of the grid's 16 samples per method (2 of 8 at each length); ...". */
export function shardLine(s: ShardOutcome): string {
  const keys = Object.keys(s.grid);
  const held = (k: string) => s.held[k] ?? 0;
  const sum = (f: (k: string) => number) => keys.reduce((n, k) => n + f(k), 0);
  const same = keys.every((k) => held(k) === held(keys[0]) && s.grid[k] === s.grid[keys[0]]);
  const oneTask = new Set(keys.map((k) => k.slice(0, k.lastIndexOf('/')))).size === 1;
  const cells =
    keys.length === 0
      ? ''
      : same
        ? ` (${held(keys[0])} of ${s.grid[keys[0]]} at each ${oneTask ? 'length' : 'task and length'})`
        : ` (${keys.map((k) => `${k}: ${held(k)} of ${s.grid[k]}`).join(', ')})`;
  const total = plural(
    sum((k) => s.grid[k]),
    'sample',
  );
  return (
    `shard ${s.index}/${s.count}: this directory holds ${sum(held)} of the grid's ${total} per method${cells}; ` +
    `bench merge the ${s.count} shards' directories for the whole grid`
  );
}

/** `bench run --json`: the outcome as one JSON document (README "Machine-readable output"). */
export function runJson(outcome: RunOutcome, exitCode: number, errorLine?: string): Record<string, unknown> {
  if (outcome.kind === 'dry-run') {
    const total = { calls: 0, promptTokensMax: 0, completionTokensMax: 0 };
    for (const r of outcome.rows) {
      total.calls += r.calls;
      total.promptTokensMax += r.promptTokensMax;
      total.completionTokensMax += r.completionTokensMax;
    }
    return { command: 'run', dryRun: true, exitCode, rows: outcome.rows, total };
  }
  const summaryFile = join(outcome.outDir, 'summary.json');
  const errors = outcome.records.filter((r) => r.status === 'error').length;
  const status = outcome.interrupted
    ? 'interrupted'
    : exitCode === EXIT.usage
      ? 'rejected'
      : errors > 0
        ? 'errors'
        : 'ok';
  return {
    command: 'run',
    dryRun: false,
    exitCode,
    status,
    outDir: outcome.outDir,
    samples: { finished: outcome.records.length, planned: outcome.units, errors },
    calls: outcome.calls,
    referenceReader: outcome.referenceReader,
    ...(outcome.shard ? { shard: outcome.shard } : {}),
    summary: existsSync(summaryFile) ? (JSON.parse(readFileSync(summaryFile, 'utf8')) as unknown) : null,
    ...(errorLine ? { error: errorLine } : {}),
    next: status === 'ok' || status === 'errors' ? `bench report ${shellWord(outcome.outDir)}` : null,
  };
}

const num = (s: string) => Number(s.replace(/,/g, ''));
const WINDOW_RES = [
  /maximum context length is (\d[\d,]*)/i,
  /context (?:size|window|length) \((\d[\d,]*) tokens\)/i,
  /(?:context (?:window|length|size)|max[_ ]model[_ ]len)(?: is| of|:|=)? (\d[\d,]*)/i,
];
const NEED_RES = [/you requested (\d[\d,]*) tokens/i, /request \((\d[\d,]*) tokens\)/i];
const firstNumber = (res: RegExp[], text: string) => {
  for (const re of res) {
    const m = re.exec(text);
    if (m) return num(m[1]);
  }
  return undefined;
};

/**
 * A run whose every sample the server rejected as too long before answering any of its calls (its context window is
 * below one call of the method, e.g. 4,096 tokens against a MemAgent chunk): one line naming the window and what the
 * method needs, in the server's numbers where it gave them. Undefined for any other run (truncation of some samples
 * is by design).
 */
export function allRejectedAsTooLong(records: SampleRecord[]): string | undefined {
  if (records.length === 0) return undefined;
  if (!records.every((r) => r.status === 'truncated' && r.usage.completionTokens === 0 && r.error)) return undefined;
  const windows = records.map((r) => firstNumber(WINDOW_RES, r.error!)).filter((n) => n !== undefined);
  const needs = records.map((r) => firstNumber(NEED_RES, r.error!)).filter((n) => n !== undefined);
  const methods = [...new Set(records.map((r) => r.method))].join(', ');
  const fmt = (n: number) => n.toLocaleString('en-US');
  const window = windows.length > 0 ? `: its context window is ${fmt(Math.max(...windows))} tokens` : '';
  const need =
    needs.length > 0
      ? `, and ${methods} needs at least ${fmt(Math.min(...needs))} tokens per call (prompt and answer)`
      : `, below what one call of ${methods} needs`;
  const smaller = methods.split(', ').includes('memagent')
    ? 'or make its calls smaller (--chunk-tokens, --memory-tokens)'
    : 'or run a method whose calls fit';
  return (
    `the server rejected every sample (${records.length} of ${records.length}) as too long${window}${need}; ` +
    `nothing was scored: serve the model with a longer context window (vLLM: --max-model-len), ${smaller}`
  );
}

/**
 * What Ctrl-C does: nothing new starts; a sample in flight either finishes (and is saved) or stops at its next model
 * call and is not saved (a MemAgent sample keeps its last checkpoint, so a rerun resumes it mid-document).
 */
export const INTERRUPT_MESSAGE =
  'interrupt: no new samples start; samples in flight finish or stop at their next call ' +
  '(a stopped sample resumes on the next run); finished samples are saved. Press Ctrl-C again to quit now.';

/** The predicted-wall-time line before a run against an endpoint (bench plan's model; reference/plan/preview.ts),
 *  or undefined where none is due or the plan fails (the run then reports its own error). Calls no model. */
async function predictionLine(cmd: CommandOf<'run'>, ctx: CliContext): Promise<string | undefined> {
  if (cmd.noPlan || cmd.config.dryRun || cmd.config.model === 'local') return undefined;
  try {
    const { previewRun, formatPreview } = await import('../../reference/plan/preview.js');
    return formatPreview(await previewRun(cmd.config, await ctx.catalog()));
  } catch {
    return undefined;
  }
}

export async function runCli(cmd: CommandOf<'run'>, io: CommandIO, ctx: CliContext): Promise<number> {
  // With --json, stdout carries only the JSON document; what a person reads goes to stderr.
  const say = cmd.json ? io.err : io.out;
  if (cmd.config.out !== undefined)
    checkOutputDir(cmd.config.out, '--out', 'pass a directory for the run, e.g. --out runs/mine');
  const controller = new AbortController();
  // Every in-flight request listens on this one signal; hundreds in flight are expected, not a leak.
  setMaxListeners(0, controller.signal);
  let interrupts = 0;
  const onSignal = () => {
    interrupts++;
    if (interrupts > 1) process.exit(130);
    io.err(`\n${INTERRUPT_MESSAGE}`);
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const predicted = await predictionLine(cmd, ctx);
    if (predicted) say(predicted);
    const onEvent = (e: RunEvent) =>
      (e.type === 'samples-capped' || e.type === 'note' ? io.err : say)(describeEvent(e));
    const outcome = await executeRun(cmd.config, {
      ...runHooks(await ctx.catalog(), costModel(cmd.costPreset)),
      createModel: (config, tokenizer) => createModel(config, tokenizer, createEmbeddedModel),
      onEvent,
      signal: controller.signal,
    });
    const { lines, exitCode, errorLine } = describeOutcome(outcome);
    for (const l of lines) say(l);
    if (errorLine) io.err(`bench: ${errorLine}`);
    if (cmd.json) io.out(JSON.stringify(runJson(outcome, exitCode, errorLine), null, 2));
    return exitCode;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
