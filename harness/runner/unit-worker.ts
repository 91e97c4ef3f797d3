// Worker thread for the embedded model: runs whole units (build → method → score) off the main thread. The catalog
// and the embedded model come from the setup module the caller named (worker-setup.ts).
import { parentPort, workerData } from 'node:worker_threads';
import type { RunConfig } from '../config/run-config.js';
import { UserError, errorMessage } from '../errors.js';
import { loadTokenizer } from '../tokenizer/index.js';
import type { CallRecord } from '../types.js';
import type { MemoryTraceLine } from '../memory/trace-line.js';
import { join } from 'node:path';
import { CheckpointStore } from '../run-dir/checkpoints.js';
import { PromptStore } from '../run-dir/prompt-store.js';
import { buildMethods, executeUnit, type ExecEnv, type UnitSpec } from './execute.js';
import { loadWorkerSetup } from './worker-setup.js';

export type ToWorker = { type: 'unit'; spec: UnitSpec } | { type: 'abort' };
export type FromWorker =
  /** Set up (tokenizer, tasks, model): what runs out of memory after this is a unit. */
  | { type: 'ready' }
  | { type: 'calls'; calls: CallRecord[] }
  | { type: 'memory'; lines: MemoryTraceLine[] }
  | { type: 'done'; key: string; record: import('../types.js').SampleRecord | null }
  | { type: 'fail'; key: string; message: string; user: boolean };

export interface UnitWorkerData {
  config: RunConfig;
  runDir: string;
  /** URL of the module exporting the WorkerSetup. */
  setup: string;
}

const { config, runDir, setup: setupUrl } = workerData as UnitWorkerData;
const port = parentPort!;
const controller = new AbortController();

async function setup(): Promise<ExecEnv> {
  const tokenizer = loadTokenizer(config.tokenizer);
  const setup = await loadWorkerSetup(setupUrl);
  const catalog = await setup.createCatalog();
  const prepared = new Map();
  for (const name of config.tasks)
    prepared.set(name, await catalog.task(name).prepare({ tokenizer, seed: config.seed, options: config.options }));
  const model = await setup.createEmbeddedModel(tokenizer);
  return {
    modelId: model.id,
    prepared,
    methods: new Map(buildMethods(config).map((m) => [m.name, m])),
    model,
    tokenizer,
    checkpoints: new CheckpointStore(runDir),
    prompts: config.storePrompts ? new PromptStore(join(runDir, 'prompts')) : undefined,
    checkpointEveryCall: false,
    metrics: catalog.metrics,
    signal: controller.signal,
  };
}

const ready = setup();
// A failed setup is reported by each unit it fails.
ready.then(
  () => port.postMessage({ type: 'ready' } satisfies FromWorker),
  () => {},
);
// Keep the chain of units strictly sequential inside one worker.
let queue: Promise<void> = Promise.resolve();

port.on('message', (msg: ToWorker) => {
  if (msg.type === 'abort') {
    controller.abort();
    return;
  }
  queue = queue.then(async () => {
    const { spec } = msg;
    try {
      const env = await ready;
      let batch: CallRecord[] = [];
      let memory: MemoryTraceLine[] = [];
      // Memory lines go before the calls that follow them, so the main thread writes them in the order they came.
      const flushMemory = () => {
        if (memory.length) port.postMessage({ type: 'memory', lines: memory } satisfies FromWorker);
        memory = [];
      };
      const record = await executeUnit(
        env,
        spec,
        (call) => {
          batch.push(call);
          if (batch.length >= 32) {
            flushMemory();
            port.postMessage({ type: 'calls', calls: batch } satisfies FromWorker);
            batch = [];
          }
        },
        config.memoryTrace === false ? undefined : (line) => memory.push(line),
      );
      flushMemory();
      if (batch.length) port.postMessage({ type: 'calls', calls: batch } satisfies FromWorker);
      port.postMessage({ type: 'done', key: spec.key, record } satisfies FromWorker);
    } catch (err) {
      port.postMessage({
        type: 'fail',
        key: spec.key,
        message: errorMessage(err),
        user: err instanceof UserError,
      } satisfies FromWorker);
    }
  });
});
