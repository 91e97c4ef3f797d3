// The top-level folders form one stack (README: Layout): harness imports no other folder, and no folder imports one
// above it, so there is no cycle between them.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FOLDER_ORDER, folderEdges, upwardEdges } from './folder-graph.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

test('no top-level folder imports one above it in the stack', () => {
  const up = upwardEdges(folderEdges(root));
  assert.deepEqual(
    up.map((e) => `${e.from} -> ${e.to}: ${e.imports.slice(0, 3).join('; ')}`),
    [],
  );
});

test('harness, the library, imports no other top-level folder', () => {
  const fromHarness = folderEdges(root).filter((e) => e.from === 'harness');
  assert.deepEqual(
    fromHarness.map((e) => e.imports[0]),
    [],
  );
});

test('the check sees an upward import, a dynamic one included', () => {
  const dir = mkdtempSync(join(tmpdir(), 'folders-'));
  for (const f of FOLDER_ORDER) mkdirSync(join(dir, f));
  writeFileSync(join(dir, 'harness', 'a.ts'), "export const x = async () => import('../reports/b.js');\n");
  writeFileSync(join(dir, 'reports', 'b.ts'), "import { x } from '../harness/a.js';\nexport { x };\n");
  const up = upwardEdges(folderEdges(dir));
  assert.deepEqual(
    up.map((e) => `${e.from} -> ${e.to}`),
    ['harness -> reports'],
  );
});
