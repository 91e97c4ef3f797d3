import { test } from 'vitest';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readManifest } from '../../reports/manifest.js';

test('manifest: the runner\'s shape and unknown fields are read gracefully', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-manifest-'));
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({
    command: 'bench run ruler-hqa', tasks: [{ name: 'ruler-hqa', version: '1' }], methods: ['memagent'],
    lengths: { 'ruler-hqa': ['docs:50', 'docs:100'] }, seed: 42, tokenizer: 'qwen2.5',
    model: { id: 'local:reference-reader', isReferenceReader: true }, environment: { node: 'v20', packages: { openai: '6.0.0' }, git: null },
    somethingNew: { deep: [1, 2, 3] },
  }));
  const m = readManifest(dir);
  assert.ok(m);
  assert.deepEqual(m.tasks, ['ruler-hqa']);
  assert.deepEqual(m.lengths, ['ruler-hqa: docs:50, docs:100']);
  assert.equal(m.model?.isReferenceReader, true);
  assert.deepEqual(m.versions, { node: 'v20', 'packages.openai': '6.0.0' });
  assert.deepEqual(m.raw.somethingNew, { deep: [1, 2, 3] });
});

test('manifest: absent or broken files give null and a warning', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-manifest-'));
  const warnings: string[] = [];
  assert.equal(readManifest(dir, (w) => warnings.push(w)), null);
  writeFileSync(join(dir, 'manifest.json'), '[1,2');
  assert.equal(readManifest(dir, (w) => warnings.push(w)), null);
  assert.equal(warnings.length, 2);
});
