// What cli/main.ts hands every command besides its arguments and output: the built-in catalog, built once and only
// for the commands that ask for it (loading every family is not paid by `bench serve` or `bench report`).
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
