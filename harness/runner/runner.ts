import { join } from 'node:path';
import type { RunConfig } from '../cli/parse.js';
import { UserError, errorMessage } from '../errors.js';
import { fullContextMethod } from '../methods/full-context.js';
import { memAgentMethod } from '../methods/memagent.js';
import { loadTemplates } from '../methods/templates.js';
import { getTask } from '../tasks.js';
import { loadTokenizer } from '../tokenizer/index.js';
import { parseLengths } from '../cli/lengths.js';
import type { LengthTarget, Method, MethodCheckpoint, Model, SampleRecord, TaskDefinition, Tokenizer } from '../types.js';
import { formatSummaryTable, summarize, writeSummary } from '../../reports/summary.js';
import { environmentInfo } from './manifest.js';
import { createProgress } from './progress.js';
import { RunDir } from './run-dir.js';
import { scoreOutput } from './score.js';
import { approxTokens, scheduleUnits, unitKey, type WorkUnit } from './units.js';

export interface RunHooks {
  log(line: string): void;
  createModel(config: RunConfig, tokenizer: Tokenizer): Promise<Model>;
  signal?: AbortSignal;
}

export function defaultOutDir(config: RunConfig, modelSlug: string): string {
  return join('runs', `${config.tasks.join('+')}__${config.methods.join('+')}__${modelSlug}__seed${config.seed}`);
}

function buildMethods(config: RunConfig): Method[] {
  const templates = loadTemplates(config.templates, config.finalVariant);
  return config.methods.map((name) => {
    switch (name) {
      case 'memagent':
        return memAgentMethod({ chunkTokens: config.chunkTokens, memoryTokens: config.memoryTokens, temperature: config.temperature, topP: config.topP, templates });
      case 'full-context':
        return fullContextMethod({ maxContext: config.maxContext, maxNewTokens: 10000, temperature: config.temperature, topP: config.topP, templates });
      default:
        throw new UserError(`method '${name}' is not available yet in this build; use memagent or full-context`);
    }
  });
}

function gridFor(task: TaskDefinition, config: RunConfig): LengthTarget[] {
  const grid = config.lengths ?? parseLengths(task.defaultLengths);
  if (!task.acceptsDocCounts && grid.some((l) => l.kind === 'docs')) throw new UserError(`task ${task.name} takes token lengths, not docs: counts`);
  return grid;
}

/** Runs every (task, length, sample, method) unit of a run, resuming from what the run directory already holds. */
export async function executeRun(config: RunConfig, hooks: RunHooks): Promise<{ exitCode: number; runDir: string; records: SampleRecord[] }> {
  const tasks = config.tasks.map(getTask);
  const tokenizer = loadTokenizer(config.tokenizer);
  const methods = buildMethods(config);
  const grids = tasks.map((t) => gridFor(t, config));
  for (let i = 0; i < tasks.length; i++) {
    hooks.log(`${tasks[i].name}: lengths ${grids[i].map((l) => l.label).join(', ')} (${grids[i].length} points)`);
  }
  const model = await hooks.createModel(config, tokenizer);
  const modelSlug = model.isReferenceReader ? 'local' : (config.modelName ?? 'model').replace(/[^A-Za-z0-9._-]+/g, '_');
  const outDir = config.out ?? defaultOutDir(config, modelSlug);
  const identity = {
    seed: config.seed, tokenizer: tokenizer.id, model: model.id, chunk_tokens: config.chunkTokens, memory_tokens: config.memoryTokens,
    max_context: config.maxContext, temperature: config.temperature, top_p: config.topP, final_variant: config.finalVariant,
    templates: config.templates ?? null, trial: config.trial, options: config.options,
  };
  const runDir = RunDir.open(outDir, identity);
  try {
    const units: WorkUnit[] = [];
    const prepared = await Promise.all(tasks.map((t) => t.prepare({ tokenizer, seed: config.seed, options: config.options })));
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
    const todo = scheduleUnits(units.filter((u) => !runDir.finished.has(u.key)));
    runDir.writeManifest({
      command: ['bench', 'run', ...process.argv.slice(3)].join(' '),
      tasks: tasks.map((t) => ({ name: t.name, version: t.version, metric: t.metric })),
      methods: config.methods,
      lengths: Object.fromEntries(tasks.map((t, i) => [t.name, grids[i].map((l) => l.label)])),
      samples: config.samples ?? null,
      seed: config.seed,
      tokenizer: tokenizer.id,
      model: { id: model.id, name: config.modelName ?? null, isReferenceReader: model.isReferenceReader, endpoints: config.model === 'local' ? [] : config.model },
      settings: { chunk_tokens: config.chunkTokens, memory_tokens: config.memoryTokens, max_context: config.maxContext, temperature: config.temperature, top_p: config.topP, final_variant: config.finalVariant, concurrency: config.concurrency },
      shard: config.shard ?? null,
      identity,
      environment: environmentInfo(),
      units: units.length,
      resumed: units.length - todo.length,
    });
    if (todo.length < units.length) hooks.log(`resuming: ${units.length - todo.length} of ${units.length} samples already finished in ${outDir}`);
    const methodByName = new Map(methods.map((m) => [m.name, m]));
    const progress = createProgress(todo.reduce((n, u) => n + u.chain, 0), todo.length, config.progress);
    const remoteModel = !model.isReferenceReader;
    let next = 0;
    let failed: unknown;
    const worker = async () => {
      while (next < todo.length && !hooks.signal?.aborted && failed === undefined) {
        const unit = todo[next++];
        try {
          await runUnit(unit);
        } catch (err) {
          failed ??= err;
        }
      }
    };
    const runUnit = async (unit: WorkUnit) => {
      const sample = unit.prepared.build(unit.length, unit.index);
      const method = methodByName.get(unit.method)!;
      const resume = runDir.checkpoints.load(unit.key);
      let lastSave = 0;
      const started = performance.now();
      const output = await method.run(sample, {
        model,
        tokenizer,
        signal: hooks.signal,
        resume,
        onCall(call) {
          runDir.appendCall(call);
          progress.addCalls(1);
        },
        onCheckpoint(cp: MethodCheckpoint) {
          // Remote calls cost money: save after every one. Embedded calls take ~1 ms: save at most once a second.
          const now = performance.now();
          if (remoteModel || now - lastSave > 1000) {
            runDir.checkpoints.save(unit.key, cp);
            lastSave = now;
          }
        },
      });
      if (hooks.signal?.aborted && output.status !== 'ok') return; // interrupted: leave the checkpoint for the rerun
      const { score, scores } = scoreOutput(sample, output);
      const record: SampleRecord = {
        id: sample.id, task: sample.task, taskVersion: sample.taskVersion, method: unit.method, model: model.id,
        lengthLabel: sample.length.label, lengthKind: sample.length.kind, length: sample.length.value, index: sample.index,
        builtTokens: sample.context.tokenCount, question: sample.question, answers: sample.answers,
        prediction: output.prediction, rawOutput: output.rawOutput, metric: sample.metric, score, scores,
        status: output.status, ...(output.error ? { error: output.error } : {}), calls: output.calls, usage: output.usage,
        elapsedMs: Math.round(performance.now() - started), metadata: { ...sample.metadata, ...(output.extra ?? {}) },
      };
      runDir.appendSample(unit.key, record);
      progress.sampleDone(output.status === 'ok');
    };
    await Promise.all(Array.from({ length: Math.min(config.concurrency, Math.max(1, todo.length)) }, worker));
    progress.stop();
    if (failed !== undefined) throw failed;
    const records = units.map((u) => runDir.finished.get(u.key)).filter((r): r is SampleRecord => r !== undefined);
    const rows = summarize(records);
    writeSummary(outDir, rows);
    hooks.log('');
    hooks.log(formatSummaryTable(rows));
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
