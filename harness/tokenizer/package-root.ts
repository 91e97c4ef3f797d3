import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'memagent-bench';
let cached: string | undefined;

/** The folder holding memagent-bench's package.json, found by walking up from this file (works from src and dist/). */
export function packageRoot(): string {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const name = (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name;
      if (name === PACKAGE_NAME) return (cached = dir);
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find the ${PACKAGE_NAME} package root above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}
