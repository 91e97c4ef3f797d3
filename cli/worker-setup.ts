// The catalog and the embedded model of `bench run`, in one module: the main thread uses them (cli/run-hooks.ts,
// cli/commands/run.ts) and every worker thread imports this module by URL (harness/runner/worker-setup.ts) to rebuild
// the same ones, so both sides run the same tasks on the same model.
import type { Catalog } from '../harness/registry/family.js';
import type { Model, Tokenizer } from '../harness/types.js';
import { builtinCatalog } from '../generators/index.js';
import { createLocalModel } from '../reference/local-model.js';

export function createCatalog(): Catalog {
  return builtinCatalog();
}

/** The embedded reference reader (`--model local`), knowing the catalog's families' prompts (Family.readerSkills). */
export function createEmbeddedModel(tokenizer: Tokenizer): Model {
  return createLocalModel(tokenizer, { readerSkills: createCatalog().readerSkills.all() });
}
