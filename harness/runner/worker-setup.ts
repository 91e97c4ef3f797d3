// What a worker thread of the runner rebuilds inside itself, since neither can cross a thread: the task catalog
// (tasks hold functions) and the embedded model. The caller names a module by URL (RunHooks.workerSetup) whose
// named exports are a WorkerSetup; the worker imports it dynamically, so the harness imports nothing above it.
import type { Catalog } from '../registry/family.js';
import type { Model, Tokenizer } from '../types.js';

export interface WorkerSetup {
  /** The catalog the main thread planned the run with (the same tasks under the same names). */
  createCatalog(): Catalog | Promise<Catalog>;
  /** The embedded model the main thread would use for `--model local`. */
  createEmbeddedModel(tokenizer: Tokenizer): Model | Promise<Model>;
}

/** Imports the setup module and checks that it exports both functions. */
export async function loadWorkerSetup(url: string): Promise<WorkerSetup> {
  const mod = (await import(url)) as Partial<WorkerSetup>;
  if (typeof mod.createCatalog !== 'function' || typeof mod.createEmbeddedModel !== 'function')
    throw new Error(`worker setup ${url} must export createCatalog() and createEmbeddedModel(tokenizer)`);
  return mod as WorkerSetup;
}
