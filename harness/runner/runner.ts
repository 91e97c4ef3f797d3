// `bench run` as four steps: plan (tasks, grids, units), open the run directory (identity check, what is already
// done), run the units, finish (summary files). The runner prints nothing: it reports events and returns an outcome
// that cli/commands/run.ts shows. What lives above the harness comes in through RunHooks: the task catalog, the
// model, the summary writer (reports/) and the module worker threads rebuild the catalog and embedded model from.
import { setMaxListeners } from 'node:events';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import pLimit from 'p-limit';
import type { RunConfig } from '../config/run-config.js';
import {
  RunStoppedError,
  UserError,
  WorkerOutOfMemoryError,
  errorMessage,
  isFatalModelError,
  type ModelCallError,
} from '../errors.js';
import { loadTokenizer } from '../tokenizer/index.js';
import type { CallRecord, Model, SampleRecord, Tokenizer } from '../types.js';
import type { MemoryTraceLine } from '../memory/trace-line.js';
import type { MetricRegistry } from '../scorers/metric.js';
import { environmentInfo } from '../run-dir/environment.js';
import { PromptStore } from '../run-dir/prompt-store.js';
import { RunDir } from '../run-dir/run-dir.js';
import { guardIO, RunDirIOError } from '../run-dir/io-errors.js';
import { gridAdditions, manifestGrid, unionManifest, type RunManifest } from '../run-dir/manifest.js';
import { expectedCounts, type ExpectedCounts } from '../run-dir/expected.js';
import { dryRunRows, type DryRunRow } from './dry-run.js';
import { defaultOutDir } from './default-out-dir.js';
import { buildMethods, executeUnit, type ExecEnv } from './execute.js';
import { runIdentity } from '../run-dir/identity.js';
import { gridCounts, planRun, type RunPlan, type SamplesCapped } from './plan.js';
import { createProgress } from './progress.js';
import { CallGate, gatedModel } from './schedule-policy.js';
import { scheduleUnits, type WorkUnit } from './units.js';
import { dataChanges, describeData, manifestData, refuseChangedData, unionData } from '../data/describe.js';
import type { Catalog } from '../registry/family.js';
import { createWorkerPool, type UnitRunner } from './worker-pool.js';
import { checkWindow, enforceWindow, windowRecord } from './preflight.js';
import { checkRulerTasks } from '../protocol/ruler-native.js';
import { requestFingerprint } from '../run-dir/request-fingerprint.js';

export type RunEvent =
  | { type: 'skipped'; task: string; reason: string }
  | {
      type: 'grid';
      task: string;
      lengths: string[];
      /** Where --data samples come from (format, file, rows, sha256). */ data?: string;
    }
  | { type: 'resuming'; finished: number; total: number; dir: string }
  /** Something the user should know that does not stop the run (a stale lock taken over): one line for stderr. */
  | { type: 'note'; message: string }
  /** --samples asked for more samples than a task has (a note for stderr; the run goes on with what there is). */
  | ({ type: 'samples-capped' } & SamplesCapped);

/** A finished run as the summary writer sees it: every unit's latest record, and what this invocation planned. */
export interface FinishedRun {
  outDir: string;
  records: SampleRecord[];
  /** Samples per method planned per task/length (the manifest's `expected`), for these methods and this model. */
  expected: ExpectedCounts;
  methods: string[];
  model: string;
  /** The whole run directory: every finished sample it holds (earlier invocations' cells included) and its manifest,
   *  whose history plans them. The summary files describe this, as `bench report DIR` does. */
  directory: { records: SampleRecord[]; manifest: RunManifest };
}

/** Writes a finished run's summary files into its directory and returns the table printed after the run. */
export type SummaryWriter = (run: FinishedRun) => string;

export interface RunHooks {
  /** The tasks (and task groups) the run's names are looked up in. */
  catalog: Catalog;
  createModel(config: RunConfig, tokenizer: Tokenizer): Promise<Model>;
  writeSummary: SummaryWriter;
  /** URL of a module whose exports are a WorkerSetup (worker-setup.ts): with it the embedded model runs in worker
   *  threads (--workers); without it, on this thread. It must rebuild the same catalog as `catalog`. */
  workerSetup?: string;
  onEvent?(event: RunEvent): void;
  signal?: AbortSignal;
}

export interface CallStats {
  calls: number;
  retries: number;
  cached: number;
  failed: number;
}

export type RunOutcome =
  | { kind: 'dry-run'; rows: DryRunRow[] }
  | {
      kind: 'finished';
      outDir: string;
      /** Every unit's latest record in this directory (earlier invocations included). */
      records: SampleRecord[];
      /** What the summary writer returned: the table to print. */
      summaryTable: string;
      units: number;
      interrupted: boolean;
      /** This invocation's calls. */
      calls: CallStats;
      referenceReader: boolean;
      /** With --shard: this shard's samples per task/length (per method) and the whole grid's. */
      shard?: { index: number; count: number; held: ExpectedCounts; grid: ExpectedCounts };
    };

export { defaultOutDir } from './default-out-dir.js';

interface OpenRun {
  runDir: RunDir;
  outDir: string;
  modelId: string;
  /** Units still to run, longest chain first. */
  todo: WorkUnit[];
  /** The manifest written for this invocation (the union over the directory's invocations). */
  manifest: RunManifest;
}

/** Opens (or resumes) the run directory: refuses other settings or task versions, records the manifest. */
function openRun(
  config: RunConfig,
  plan: RunPlan,
  model: Model,
  tokenizer: Tokenizer,
  onEvent: (e: RunEvent) => void,
  recorded: Pick<RunManifest, 'window' | 'requests'> = {},
): OpenRun {
  const modelId = model.isReferenceReader ? model.id : (config.modelName ?? model.id);
  const modelSlug = model.isReferenceReader ? 'local' : modelId.replace(/[^A-Za-z0-9._-]+/g, '_');
  const identity = runIdentity(config, tokenizer.id, modelId, plan.tasks);
  const grid = {
    tasks: plan.tasks.map((t) => t.name),
    lengths: Object.fromEntries(plan.tasks.map((t, i) => [t.name, plan.grids[i].map((l) => l.label)])),
    methods: config.methods,
  };
  const data = manifestData(plan.tasks, plan.prepared);
  const outDir = config.out ?? defaultOutDir(config, modelSlug, { identity, lengths: grid.lengths, data });
  const runDir = RunDir.open(outDir, identity, {
    grid,
    extend: config.extend,
    onNote: (message) => onEvent({ type: 'note', message }),
  });
  try {
    for (const u of plan.units) {
      const done = runDir.finished.get(u.key);
      if (done && done.taskVersion !== u.task.version) {
        throw new UserError(
          `${outDir} holds ${u.task.name} results of task version ${done.taskVersion}; this build generates version ${u.task.version}: use another --out`,
        );
      }
    }
    const isDone = (u: WorkUnit) => {
      const done = runDir.finished.get(u.key);
      return done !== undefined && !(config.retryErrors && done.status === 'error');
    };
    // Finished samples made from another version of a --data file are never mixed with the new file's rows.
    const finishedOf = (task: string) => [...runDir.finished.values()].filter((r) => r.task === task).length;
    refuseChangedData(outDir, dataChanges(runDir.previous?.data, data), finishedOf, config.extend);
    const todo = scheduleUnits(plan.units.filter((u) => !isDone(u)));
    // memory.jsonl keeps each update once: a unit to run keeps the chunks its checkpoint has done (none when it starts
    // over), any other unit all of its lines (harness/run-dir/memory-trace.ts).
    const toRun = new Set(todo.map((u) => u.key));
    runDir.openMemoryTrace(
      (key) => (toRun.has(key) ? (runDir.checkpoints.load(key)?.step ?? 0) : Infinity),
      config.memoryTrace !== false,
    );
    const command = ['bench', 'run', ...process.argv.slice(3)].join(' ');
    const expected = expectedCounts(plan.units);
    const resumed = plan.units.length - todo.length;
    const skipped = plan.skipped.length > 0 ? { skipped: plan.skipped } : {};
    const manifest: RunManifest = {
      command,
      tasks: plan.tasks.map((t, i) => ({
        name: t.name,
        version: t.version,
        metric: plan.prepared[i].metric ?? t.metric,
        ...(plan.prepared[i].flavour !== undefined ? { flavour: plan.prepared[i].flavour } : {}),
      })),
      methods: config.methods,
      lengths: grid.lengths,
      samples: config.samples ?? null,
      seed: config.seed,
      tokenizer: tokenizer.id,
      model: {
        id: modelId,
        client: model.id,
        name: config.modelName ?? null,
        isReferenceReader: model.isReferenceReader,
        endpoints: config.model === 'local' ? [] : config.model,
      },
      settings: { ...config.methodSettings, concurrency: config.concurrency },
      shard: config.shard ?? null,
      identity,
      environment: environmentInfo(),
      units: plan.units.length,
      // Samples per method planned for each task/length: reports flag a cell with fewer as incomplete ("n of N").
      expected,
      resumed,
      data: unionData(runDir.previous?.data, data),
      ...skipped,
      ...recorded,
    };
    // The directory's manifest describes every invocation's cells (the union); history lists each invocation.
    const previous = runDir.previous;
    const extended = previous !== null && gridAdditions(manifestGrid(previous), grid).length > 0;
    const union = unionManifest(previous, manifest, {
      command,
      time: new Date().toISOString(),
      grid,
      extended,
      units: plan.units.length,
      resumed,
      expected,
      ...skipped,
    });
    runDir.writeManifest(union);
    if (todo.length < plan.units.length)
      onEvent({ type: 'resuming', finished: plan.units.length - todo.length, total: plan.units.length, dir: outDir });
    return { runDir, outDir, modelId, todo, manifest: union };
  } catch (err) {
    runDir.close();
    throw err;
  }
}

/** Runs the units still to do; every finished sample and call is appended to the run directory as it ends. */
async function runUnits(
  config: RunConfig,
  plan: RunPlan,
  open: OpenRun,
  model: Model,
  tokenizer: Tokenizer,
  metrics: MetricRegistry,
  workerSetup: string | undefined,
  signal?: AbortSignal,
): Promise<CallStats> {
  const { runDir, outDir, todo } = open;
  // The run stops on the user's interrupt, or at once when an endpoint fails fatally (key rejected, model or route
  // missing, not a chat API, never answering): samples cut off by that are not recorded, so the same command resumes.
  const stop = new AbortController();
  setMaxListeners(0, stop.signal);
  const forward = () => stop.abort(signal!.reason);
  if (signal?.aborted) forward();
  else signal?.addEventListener('abort', forward, { once: true });
  let fatal: ModelCallError | undefined;
  const watched: Model = model.isReferenceReader
    ? model
    : {
        ...model,
        async generate(request, callSignal) {
          try {
            return await model.generate(request, callSignal);
          } catch (err) {
            if (isFatalModelError(err) && !fatal) {
              fatal = err;
              stop.abort(new RunStoppedError(err));
            }
            throw err;
          }
        },
      };
  const workers =
    model.isReferenceReader && workerSetup !== undefined
      ? Math.min(config.workers ?? availableParallelism(), Math.max(1, todo.length))
      : 1;
  const methods = buildMethods(config);
  const env: ExecEnv = {
    modelId: open.modelId,
    prepared: new Map(plan.tasks.map((t, i) => [t.name, plan.prepared[i]])),
    methods: new Map(methods.map((m) => [m.name, m])),
    model: watched,
    tokenizer,
    checkpoints: runDir.checkpoints,
    checkpointEveryCall: !model.isReferenceReader,
    metrics,
    signal: stop.signal,
    prompts: config.storePrompts ? new PromptStore(join(outDir, 'prompts')) : undefined,
  };
  // With --server-batch, calls pass a gate sized to the server's batch, longest remaining chain first, so more
  // samples than the batch can be in flight without the server's FIFO queue undoing the schedule.
  const gate = config.serverBatch && !model.isReferenceReader ? new CallGate(config.serverBatch) : undefined;
  const chainOf = new Map(todo.map((u) => [u.key, u.chain]));
  const runInProcess: UnitRunner['run'] = async (spec, onCalls, onMemory) => {
    const memory = (line: MemoryTraceLine) => onMemory([line]);
    if (!gate) return executeUnit(env, spec, (c) => onCalls([c]), memory);
    let made = runDir.checkpoints.load(spec.key)?.step ?? 0;
    const unitEnv = { ...env, model: gatedModel(env.model, gate, () => (chainOf.get(spec.key) ?? 1) - made) };
    return executeUnit(
      unitEnv,
      spec,
      (c) => {
        made++;
        onCalls([c]);
      },
      memory,
    );
  };
  const runner: UnitRunner =
    workers > 1 && workerSetup !== undefined
      ? createWorkerPool(workers, config, outDir, workerSetup)
      : { run: runInProcess, abort() {}, async close() {} };
  const onAbort = () => runner.abort();
  stop.signal.addEventListener('abort', onAbort);
  const progress = createProgress(
    todo.reduce((n, u) => n + u.chain, 0),
    todo.length,
    config.progress,
  );
  const stats: CallStats = { calls: 0, retries: 0, cached: 0, failed: 0 };
  let failed: unknown;
  // A write that fails in the run directory (a full disk) or a worker out of its heap stops the run at once: samples
  // in flight stop at their next call, nothing more is written, and what was written stays for a rerun to resume.
  const fail = (err: unknown) => {
    failed ??= err;
    const stops = err instanceof RunDirIOError || err instanceof WorkerOutOfMemoryError;
    if (stops && !stop.signal.aborted) stop.abort(err);
  };
  const onCalls = (calls: CallRecord[]) => {
    if (failed instanceof RunDirIOError) return;
    try {
      // A worker's batch in one write: one system call per batch, not per call.
      runDir.appendCalls(calls);
    } catch (err) {
      fail(err); // not rethrown: this runs in a worker's message handler; the abort stops the sample
      return;
    }
    for (const c of calls) {
      stats.calls++;
      stats.retries += c.retries;
      if (c.cached) stats.cached++;
      if (c.status === 'error') stats.failed++;
    }
    progress.addCalls(calls.length);
  };
  const onMemory = (lines: MemoryTraceLine[]) => {
    if (failed instanceof RunDirIOError) return;
    try {
      runDir.appendMemory(lines);
    } catch (err) {
      fail(err);
    }
  };
  // Units start in schedule order (p-limit queues FIFO); after an abort or a failure the rest are skipped.
  const limit = pLimit(Math.max(1, workers > 1 ? workers : config.concurrency));
  const runOne = async (unit: WorkUnit) => {
    if (stop.signal.aborted || failed !== undefined) return;
    try {
      const record = await runner.run(
        {
          task: unit.task.name,
          taskVersion: unit.task.version,
          length: unit.length,
          index: unit.index,
          method: unit.method,
          key: unit.key,
        },
        onCalls,
        onMemory,
      );
      if (record) {
        runDir.appendSample(unit.key, record);
        progress.sampleDone(record.status === 'ok' || record.status === 'over-target');
      }
    } catch (err) {
      fail(err);
    }
  };
  try {
    await Promise.all(todo.map((unit) => limit(() => runOne(unit))));
  } finally {
    stop.signal.removeEventListener('abort', onAbort);
    signal?.removeEventListener('abort', forward);
    await runner.close();
    progress.stop();
  }
  if (fatal) {
    const done = plan.units.filter((u) => runDir.finished.has(u.key));
    // Samples that failed before the stop (a long run of failed calls) are saved as errors: --retry-errors reruns them.
    const errors = done.filter((u) => runDir.finished.get(u.key)?.status === 'error').length;
    const saved = errors > 0 ? ` (${errors} of them as errors)` : '';
    const rerun = errors > 0 ? 'the same command with --retry-errors' : 'the same command again';
    throw new UserError(
      `${fatal.message}; run stopped: ${done.length} of ${plan.units.length} samples finished and saved in ${outDir}${saved}; once fixed, run ${rerun} to resume`,
    );
  }
  if (failed instanceof WorkerOutOfMemoryError) {
    const finished = plan.units.filter((u) => runDir.finished.has(u.key)).length;
    throw failed.stoppedAt({ finished, planned: plan.units.length, dir: outDir });
  }
  if (failed !== undefined) throw failed;
  return stats;
}

/** Runs every (task, length, sample, method) unit of a run, resuming from what the run directory already holds. */
export async function executeRun(config: RunConfig, hooks: RunHooks): Promise<RunOutcome> {
  const onEvent = hooks.onEvent ?? (() => {});
  hooks.catalog.expandTaskNames(config.tasks); // an unknown task name is refused before the tokenizer loads
  const tokenizer = loadTokenizer(config.tokenizer);
  const plan = await planRun(config, tokenizer, hooks.catalog);
  for (const s of plan.skipped) onEvent({ type: 'skipped', ...s });
  for (const c of plan.capped) onEvent({ type: 'samples-capped', ...c });
  for (const message of plan.notes) onEvent({ type: 'note', message });
  config = { ...config, tasks: plan.tasks.map((t) => t.name) };
  if (config.protocol === 'ruler')
    checkRulerTasks(plan.tasks.map((t, i) => ({ name: t.name, flavour: plan.prepared[i].flavour })));
  plan.tasks.forEach((t, i) => {
    const data = plan.prepared[i].data;
    onEvent({
      type: 'grid',
      task: t.name,
      lengths: plan.grids[i].map((l) => l.label),
      ...(data ? { data: describeData(data) } : {}),
    });
  });
  if (config.dryRun) return { kind: 'dry-run', rows: dryRunRows(plan.tasks, plan.prepared, plan.grids, config) };
  const model = await hooks.createModel(config, tokenizer);
  try {
    // Before any sample: a method whose largest call does not fit the endpoint's window stops the run here (exit 2).
    const preflight = checkWindow(plan, config, model.contextWindow);
    enforceWindow(preflight, config, (message) => onEvent({ type: 'note', message }));
    const open = openRun(config, plan, model, tokenizer, onEvent, {
      ...(preflight ? { window: windowRecord(preflight, config) } : {}),
      requests: requestFingerprint(plan, config),
    });
    try {
      const calls = await runUnits(
        config,
        plan,
        open,
        model,
        tokenizer,
        hooks.catalog.metrics,
        hooks.workerSetup,
        hooks.signal,
      );
      const records = plan.units
        .map((u) => open.runDir.finished.get(u.key))
        .filter((r): r is SampleRecord => r !== undefined);
      const finished: FinishedRun = {
        outDir: open.outDir,
        records,
        expected: expectedCounts(plan.units),
        methods: config.methods,
        model: open.modelId,
        directory: { records: [...open.runDir.finished.values()], manifest: open.manifest },
      };
      const summaryTable = guardIO('writing', join(open.outDir, 'summary.csv'), () => hooks.writeSummary(finished));
      return {
        kind: 'finished',
        outDir: open.outDir,
        records,
        summaryTable,
        units: plan.units.length,
        interrupted: hooks.signal?.aborted ?? false,
        calls,
        referenceReader: model.isReferenceReader,
        ...(config.shard
          ? { shard: { ...config.shard, held: finished.expected, grid: gridCounts(plan, config) } }
          : {}),
      };
    } finally {
      open.runDir.close();
    }
  } catch (err) {
    throw err instanceof UserError ? err : new Error(errorMessage(err));
  } finally {
    await model.close?.();
  }
}
