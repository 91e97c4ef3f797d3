import { test } from 'vitest';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadManifestView } from '../../reports/manifest.js';
import { manifestFixture } from '../helpers/manifest.js';

test('manifest view: task names, one lengths entry per task, flattened versions, unknown fields kept', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-manifest-'));
  writeFileSync(
    join(dir, 'manifest.json'),
    JSON.stringify(
      manifestFixture({
        command: 'bench run ruler-hqa',
        lengths: { 'ruler-hqa': ['docs:50', 'docs:100'] },
        environment: {
          memagent_bench: '0.1.0',
          node: 'v20',
          platform: 'linux-x64',
          packages: { openai: '6.0.0', tiktoken: null },
          git: { commit: null, dirty: null },
        },
        somethingNew: { deep: [1, 2, 3] },
      }),
    ),
  );
  const m = loadManifestView(dir);
  assert.ok(m);
  assert.deepEqual(m.tasks, ['ruler-hqa']);
  assert.deepEqual(m.lengths, ['ruler-hqa: docs:50, docs:100']);
  assert.equal(m.model.isReferenceReader, true);
  assert.deepEqual(m.versions, {
    memagent_bench: '0.1.0',
    node: 'v20',
    platform: 'linux-x64',
    'packages.openai': '6.0.0',
  });
  assert.deepEqual((m.manifest as unknown as Record<string, unknown>).somethingNew, { deep: [1, 2, 3] });
  // A samples.jsonl path finds the manifest beside it.
  assert.equal(loadManifestView(join(dir, 'samples.jsonl'))?.command, 'bench run ruler-hqa');
});

test('manifest view: absent, broken or mis-shaped files give null and a warning naming the file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-manifest-'));
  const warnings: string[] = [];
  assert.equal(
    loadManifestView(dir, (w) => warnings.push(w)),
    null,
  );
  writeFileSync(join(dir, 'manifest.json'), '[1,2');
  assert.equal(
    loadManifestView(dir, (w) => warnings.push(w)),
    null,
  );
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...manifestFixture(), tasks: 'ruler-hqa' }));
  assert.equal(
    loadManifestView(dir, (w) => warnings.push(w)),
    null,
  );
  assert.equal(warnings.length, 3);
  assert.match(warnings[0], /no manifest\.json/);
  assert.match(warnings[1], /manifest\.json is not valid JSON/);
  assert.match(warnings[2], /manifest\.json is not a bench run manifest: 'tasks' must be an array/);
});
