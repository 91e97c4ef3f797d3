// What cli/main.ts hands every command besides its arguments and output: the built-in catalog, built once and only
// for the commands that ask for it. (The families' modules load with cli/parse.ts for every command: their task
// options and --format names are part of parsing.)
import type { Catalog } from '../harness/registry/family.js';

export interface CliContext {
  catalog(): Promise<Catalog>;
}

export function cliContext(): CliContext {
  let catalog: Promise<Catalog> | undefined;
  return {
    catalog: () => (catalog ??= import('./worker-setup.js').then((m) => m.createCatalog())),
  };
}
