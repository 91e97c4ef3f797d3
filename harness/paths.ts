import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/** The memagent-bench package root, found from this file whether it runs from source or from dist/. */
export function packageRoot(): string {
  if (root) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        if (JSON.parse(readFileSync(pkg, 'utf8')).name === 'memagent-bench') return (root = dir);
      } catch {
        // not our package.json; keep walking up
      }
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('memagent-bench package root not found');
    dir = parent;
  }
}

export function datasetPath(...parts: string[]): string {
  return join(packageRoot(), 'datasets', ...parts);
}

export function packageVersion(): string {
  return JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')).version as string;
}
