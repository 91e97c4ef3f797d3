// A run directory's grid: what a run adds to it (gridAdditions), the union manifest with its history (unionManifest),
// and the schema check of history (older manifests without it still read).
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UserError } from '../../../harness/errors.js';
import {
  gridAdditions,
  manifestGrid,
  manifestProblem,
  unionManifest,
  type ManifestHistoryEntry,
} from '../../../harness/run-dir/manifest.js';
import { RunDir } from '../../../harness/run-dir/run-dir.js';
import { manifestFixture } from '../../helpers/manifest.js';
import { expectedFor, expectedSources, missingCells } from '../../../reports/completeness.js';
import type { ManifestView } from '../../../reports/manifest.js';
import type { SummaryRow } from '../../../reports/summary.js';

const held = { tasks: ['ruler-hqa'], lengths: { 'ruler-hqa': ['8k', '16k'] }, methods: ['memagent'] };

test('gridAdditions names new tasks, lengths and methods; a subset adds nothing', () => {
  assert.deepEqual(gridAdditions(held, { ...held, lengths: { 'ruler-hqa': ['8k'] } }), []);
  assert.deepEqual(
    gridAdditions(held, {
      tasks: ['ruler-hqa', 'niah_single_1'],
      lengths: { 'ruler-hqa': ['8k', '32k', '64k'], niah_single_1: ['1k'] },
      methods: ['memagent', 'rag', 'full-context'],
    }),
    ['lengths 32k, 64k of ruler-hqa', 'task niah_single_1 (1k)', 'methods rag, full-context'],
  );
});

const entry = (over: Partial<ManifestHistoryEntry> = {}): ManifestHistoryEntry => ({
  command: 'bench run x',
  time: '2026-01-01T00:00:00.000Z',
  grid: held,
  extended: false,
  units: 1,
  ...over,
});

test('unionManifest: tasks, lengths, methods, expected and identity are unions; history is appended', () => {
  const first = manifestFixture({ expected: { 'ruler-hqa/8k': 4 } });
  const a = unionManifest(null, first, entry());
  assert.equal(a.history?.length, 1);
  const second = manifestFixture({
    tasks: [{ name: 'niah_single_1', version: '1.2', metric: 'memagent_niah' }],
    methods: ['rag'],
    lengths: { niah_single_1: ['1k'] },
    expected: { 'niah_single_1/1k': 2, 'ruler-hqa/8k': 2 },
    identity: { ...first.identity, methods: { rag: { 'rag-top-k': 5 } } },
  });
  const b = unionManifest(a, second, entry({ extended: true, command: 'bench run y' }));
  assert.deepEqual(
    b.tasks.map((t) => t.name),
    ['ruler-hqa', 'niah_single_1'],
  );
  assert.deepEqual(b.lengths, { 'ruler-hqa': ['8k'], niah_single_1: ['1k'] });
  assert.deepEqual(b.methods, ['memagent', 'rag']);
  assert.deepEqual(b.expected, { 'ruler-hqa/8k': 4, 'niah_single_1/1k': 2 });
  assert.deepEqual(Object.keys(b.identity.methods), ['memagent', 'rag']);
  assert.deepEqual(
    b.history?.map((h) => [h.command, h.extended]),
    [
      ['bench run x', false],
      ['bench run y', true],
    ],
  );
  assert.equal(manifestProblem(b), null);
  // An older manifest without history: its own fields become the first entry.
  const legacy = unionManifest(first, second, entry());
  assert.equal(legacy.history?.length, 2);
  assert.deepEqual(legacy.history?.[0].grid, manifestGrid(first));
  assert.equal(manifestProblem(first), null, 'a manifest without history is valid');
  assert.match(String(manifestProblem({ ...b, history: [{ command: 1 }] })), /'history' must be/);
});

test('RunDir.open refuses a grid that adds cells unless extend, and exposes the previous manifest', () => {
  const dir = join(mkdtempSync(join(tmpdir(), 'bench-grid-')), 'run');
  const m = manifestFixture();
  const rd = RunDir.open(dir, { ...m.identity }, { grid: manifestGrid(m) });
  assert.equal(rd.previous, null);
  rd.writeManifest(m);
  rd.close();
  const wider = { ...manifestGrid(m), methods: ['memagent', 'rag'] };
  assert.throws(
    () => RunDir.open(dir, { ...m.identity }, { grid: wider }),
    (e: unknown) => e instanceof UserError && /adds method rag: pass --extend/.test(e.message),
  );
  const again = RunDir.open(dir, { ...m.identity }, { grid: wider, extend: true });
  assert.deepEqual(again.previous, m);
  again.close();
});

test('expectedSources: a method added at one length is not expected at the others', () => {
  const m = manifestFixture({
    methods: ['memagent', 'rag'],
    lengths: { 'ruler-hqa': ['8k', '16k'] },
    expected: { 'ruler-hqa/8k': 2, 'ruler-hqa/16k': 2 },
    history: [
      entry({ grid: { ...held, methods: ['memagent'] }, expected: { 'ruler-hqa/8k': 2, 'ruler-hqa/16k': 2 } }),
      entry({
        grid: { tasks: ['ruler-hqa'], lengths: { 'ruler-hqa': ['8k'] }, methods: ['rag'] },
        extended: true,
        expected: { 'ruler-hqa/8k': 2 },
      }),
    ],
  });
  const view = { manifest: m, methods: m.methods, model: { id: 'local:reference-reader', isReferenceReader: true } };
  const sources = expectedSources(view as unknown as ManifestView);
  assert.equal(sources.length, 2);
  const row = (method: string, lengthLabel: string) => ({
    task: 'ruler-hqa',
    method,
    model: 'local:reference-reader',
    lengthLabel,
  });
  assert.equal(expectedFor(row('rag', '8k'), sources), 2);
  assert.equal(expectedFor(row('rag', '16k'), sources), null);
  assert.equal(expectedFor(row('memagent', '16k'), sources), 2);
  const rows = [row('memagent', '8k'), row('memagent', '16k'), row('rag', '8k')] as unknown as SummaryRow[];
  assert.deepEqual(missingCells(rows, sources), []);
  // Without history (an older run) the top-level counts are the one source.
  assert.equal(
    expectedSources({ ...view, manifest: { ...m, history: undefined } } as unknown as ManifestView).length,
    1,
  );
});
