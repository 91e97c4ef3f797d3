import { join } from 'node:path';
import type { RunConfig } from '../cli/parse.js';
import { DatasetMissingError, UserError, errorMessage } from '../errors.js';
import { availableParallelism } from 'node:os';
import { expandTaskNames, getTask } from '../tasks.js';
import { loadTokenizer } from '../tokenizer/index.js';
import { parseLengths } from '../config/lengths.js';
import type { CallRecord, LengthTarget, Model, SampleRecord, TaskDefinition, Tokenizer } from '../types.js';
import { formatSummaryTable, summarize, writeSummary } from '../../reports/summary.js';
import { environmentInfo } from '../run-dir/environment.js';
import { createProgress } from './progress.js';
import { PromptStore } from '../run-dir/prompt-store.js';
import { dryRunRows, formatDryRun } from './dry-run.js';
import { RunDir } from '../run-dir/run-dir.js';
import { buildMethods, executeUnit, type ExecEnv } from './execute.js';
import { createWorkerPool, type UnitRunner } from './worker-pool.js';
import { CallGate, gatedModel } from './schedule-policy.js';
import { approxTokens, scheduleUnits, unitKey, type WorkUnit } from './units.js';

export interface RunHooks {
  log(line: string): void;
  createModel(config: RunConfig, tokenizer: Tokenizer): Promise<Model>;
  signal?: AbortSignal;
}

export function defaultOutDir(config: RunConfig, modelSlug: string): string {
  return join('runs', `${config.tasks.join('+')}__${config.methods.join('+')}__${modelSlug}__seed${config.seed}`);
}

/** Prepares each task; a missing dataset is reported once and its task skipped (all missing: a usage error). */
async function prepareTasks(names: string[], config: RunConfig, tokenizer: Tokenizer, log: (l: string) => void) {
  const tasks: TaskDefinition[] = [];
  const prepared = [];
  for (const name of names) {
    const task = getTask(name);
    try {
      prepared.push(await task.prepare({ tokenizer, seed: config.seed, options: config.options }));
      tasks.push(task);
    } catch (err) {
      if (!(err instanceof DatasetMissingError)) throw err;
      log(`skipping ${name}: ${err.message}`);
    }
  }
  if (tasks.length === 0) throw new UserError(`none of the tasks could be prepared (${names.join(', ')}): check --data`);
  return { tasks, prepared };
}

export const NATIVE_LENGTH: LengthTarget = { kind: 'native', value: 0, label: 'all' };

function gridFor(task: TaskDefinition, config: RunConfig): LengthTarget[] {
  if (task.nativeLengths) {
    if (config.lengths) throw new UserError(`task ${task.name} uses its documents' own lengths; drop --lengths`);
    return [NATIVE_LENGTH];
  }
  const grid = config.lengths ?? parseLengths(task.defaultLengths);
  if (!task.acceptsDocCounts && grid.some((l) => l.kind === 'docs')) throw new UserError(`task ${task.name} takes token lengths, not docs: counts`);
  return grid;
}

/** Runs every (task, length, sample, method) unit of a run, resuming from what the run directory already holds. */
export async function executeRun(config: RunConfig, hooks: RunHooks): Promise<{ exitCode: number; runDir: string; records: SampleRecord[] }> {
  const tokenizer = loadTokenizer(config.tokenizer);
  const { tasks, prepared } = await prepareTasks(expandTaskNames(config.tasks), config, tokenizer, hooks.log);
  config = { ...config, tasks: tasks.map((t) => t.name) };
  const methods = buildMethods(config);
  const grids = tasks.map((t) => gridFor(t, config));
  for (let i = 0; i < tasks.length; i++) {
    hooks.log(`${tasks[i].name}: lengths ${grids[i].map((l) => l.label).join(', ')} (${grids[i].length} points)`);
  }
  if (config.dryRun) {
    hooks.log(formatDryRun(dryRunRows(tasks, prepared, grids, config)));
    return { exitCode: 0, runDir: '', records: [] };
  }
  const model = await hooks.createModel(config, tokenizer);
  const modelId = model.isReferenceReader ? model.id : config.modelName ?? model.id;
  const modelSlug = model.isReferenceReader ? 'local' : modelId.replace(/[^A-Za-z0-9._-]+/g, '_');
  const outDir = config.out ?? defaultOutDir(config, modelSlug);
  const identity = {
    seed: config.seed, tokenizer: tokenizer.id, model: modelId, chunk_tokens: config.chunkTokens, memory_tokens: config.memoryTokens,
    max_context: config.maxContext, temperature: config.temperature, top_p: config.topP, final_variant: config.finalVariant,
    templates: config.templates ?? null, trial: config.trial, options: config.options,
  };
  const runDir = RunDir.open(outDir, identity);
  try {
    const units: WorkUnit[] = [];
    for (let t = 0; t < tasks.length; t++) {
      for (const length of grids[t]) {
        const n = Math.min(config.samples ?? tasks[t].defaultSamples, prepared[t].maxSamples(length));
        for (let index = 0; index < n; index++) {
          if (config.shard && index % config.shard.count !== config.shard.index) continue;
          for (const m of methods) {
            const chain = m.name === 'memagent' ? Math.ceil(approxTokens(length) / config.chunkTokens) + 1 : 1;
            units.push({ task: tasks[t], prepared: prepared[t], length, index, method: m.name, key: unitKey(tasks[t].name, length, index, m.name), chain });
          }
        }
      }
    }
    for (const u of units) {
      const done = runDir.finished.get(u.key);
      if (done && done.taskVersion !== u.task.version) {
        throw new UserError(`${outDir} holds ${u.task.name} results of task version ${done.taskVersion}; this build generates version ${u.task.version}: use another --out`);
      }
    }
    const isDone = (u: WorkUnit) => {
      const done = runDir.finished.get(u.key);
      return done !== undefined && !(config.retryErrors && done.status === 'error');
    };
    const todo = scheduleUnits(units.filter((u) => !isDone(u)));
    runDir.writeManifest({
      command: ['bench', 'run', ...process.argv.slice(3)].join(' '),
      tasks: tasks.map((t) => ({ name: t.name, version: t.version, metric: t.metric })),
      methods: config.methods,
      lengths: Object.fromEntries(tasks.map((t, i) => [t.name, grids[i].map((l) => l.label)])),
      samples: config.samples ?? null,
      seed: config.seed,
      tokenizer: tokenizer.id,
      model: { id: modelId, client: model.id, name: config.modelName ?? null, isReferenceReader: model.isReferenceReader, endpoints: config.model === 'local' ? [] : config.model },
      settings: { chunk_tokens: config.chunkTokens, memory_tokens: config.memoryTokens, max_context: config.maxContext, temperature: config.temperature, top_p: config.topP, final_variant: config.finalVariant, concurrency: config.concurrency },
      shard: config.shard ?? null,
      identity,
      environment: environmentInfo(),
      units: units.length,
      resumed: units.length - todo.length,
    });
    if (todo.length < units.length) hooks.log(`resuming: ${units.length - todo.length} of ${units.length} samples already finished in ${outDir}`);
    const workers = model.isReferenceReader ? Math.min(config.workers ?? availableParallelism(), Math.max(1, todo.length)) : 1;
    const env: ExecEnv = {
      modelId,
      prepared: new Map(tasks.map((t, i) => [t.name, prepared[i]])),
      methods: new Map(methods.map((m) => [m.name, m])),
      model, tokenizer, checkpoints: runDir.checkpoints, checkpointEveryCall: !model.isReferenceReader, signal: hooks.signal,
      prompts: config.storePrompts ? new PromptStore(join(outDir, 'prompts')) : undefined,
    };
    // With --server-batch, calls pass a gate sized to the server's batch, longest remaining chain first, so more
    // samples than the batch can be in flight without the server's FIFO queue undoing the schedule.
    const gate = config.serverBatch && !model.isReferenceReader ? new CallGate(config.serverBatch) : undefined;
    const chainOf = new Map(todo.map((u) => [u.key, u.chain]));
    const runInProcess: UnitRunner['run'] = async (spec, onCalls) => {
      if (!gate) return executeUnit(env, spec, (c) => onCalls([c]));
      let made = runDir.checkpoints.load(spec.key)?.step ?? 0;
      const unitEnv = { ...env, model: gatedModel(env.model, gate, () => (chainOf.get(spec.key) ?? 1) - made) };
      return executeUnit(unitEnv, spec, (c) => {
        made++;
        onCalls([c]);
      });
    };
    const runner: UnitRunner = workers > 1
      ? createWorkerPool(workers, config, outDir)
      : { run: runInProcess, abort() {}, async close() {} };
    const onAbort = () => runner.abort();
    hooks.signal?.addEventListener('abort', onAbort);
    const progress = createProgress(todo.reduce((n, u) => n + u.chain, 0), todo.length, config.progress);
    const callStats = { calls: 0, retries: 0, cached: 0, failed: 0 };
    const inFlight = workers > 1 ? workers : config.concurrency;
    let next = 0;
    let failed: unknown;
    const lane = async () => {
      while (next < todo.length && !hooks.signal?.aborted && failed === undefined) {
        const unit = todo[next++];
        try {
          const record = await runner.run(
            { task: unit.task.name, length: unit.length, index: unit.index, method: unit.method, key: unit.key },
            (calls: CallRecord[]) => {
              for (const c of calls) {
                runDir.appendCall(c);
                callStats.calls++;
                callStats.retries += c.retries;
                if (c.cached) callStats.cached++;
                if (c.status === 'error') callStats.failed++;
              }
              progress.addCalls(calls.length);
            },
          );
          if (record) {
            runDir.appendSample(unit.key, record);
            progress.sampleDone(record.status === 'ok');
          }
        } catch (err) {
          failed ??= err;
        }
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(inFlight, Math.max(1, todo.length)) }, lane));
    } finally {
      hooks.signal?.removeEventListener('abort', onAbort);
      await runner.close();
    }
    progress.stop();
    if (failed !== undefined) throw failed;
    const records = units.map((u) => runDir.finished.get(u.key)).filter((r): r is SampleRecord => r !== undefined);
    const rows = summarize(records);
    writeSummary(outDir, rows);
    hooks.log('');
    hooks.log(formatSummaryTable(rows));
    hooks.log(`this invocation: ${callStats.calls} model calls, ${callStats.retries} retries, ${callStats.cached} from cache, ${callStats.failed} failed; peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);
    if (model.isReferenceReader) hooks.log('model: embedded reference reader (lexical, deterministic; not an LLM)');
    hooks.log(`results: ${outDir}`);
    if (hooks.signal?.aborted) {
      hooks.log(`interrupted: ${records.length} of ${units.length} samples finished; run the same command again to resume`);
      return { exitCode: 130, runDir: outDir, records };
    }
    return { exitCode: 0, runDir: outDir, records };
  } catch (err) {
    throw err instanceof UserError ? err : new Error(errorMessage(err));
  } finally {
    runDir.close();
    await model.close?.();
  }
}
