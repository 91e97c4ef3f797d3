import { afterAll as after, beforeAll as before, test } from 'vitest';
import assert from 'node:assert/strict';
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCli } from '../../../cli/parse.js';
import { mergeCommand } from '../../../cli/commands/merge.js';
import { UserError } from '../../../harness/errors.js';
import { createLocalModel } from '../../../reference/local-model.js';
import { executeRun } from '../../../harness/runner/runner.js';
import { runHooks } from '../../../cli/run-hooks.js';
import { builtinCatalog } from '../../../generators/index.js';
import type { SampleRecord } from '../../../harness/types.js';

let root: string;
let runs: { s0: string; s1: string; all: string };
let scratch = 0;

async function run(out: string, shard?: string): Promise<void> {
  const cmd = parseCli([
    'run',
    'ruler-hqa',
    '--lengths',
    '8k',
    '--samples',
    '5',
    '--method',
    'memagent,full-context',
    '--no-progress',
    '--workers',
    '1',
    '--out',
    out,
    ...(shard ? ['--shard', shard] : []),
  ]);
  assert.equal(cmd.command, 'run');
  if (cmd.command !== 'run') return;
  const result = await executeRun(cmd.config, {
    ...runHooks(builtinCatalog()),
    createModel: async (_c, tokenizer) => createLocalModel(tokenizer),
  });
  assert.ok(result.kind === 'finished' && !result.interrupted);
}

before(async () => {
  root = mkdtempSync(join(tmpdir(), 'bench-merge-'));
  runs = { s0: join(root, 'shard0'), s1: join(root, 'shard1'), all: join(root, 'all') };
  await run(runs.s0, '0/2');
  await run(runs.s1, '1/2');
  await run(runs.all);
});

after(() => rmSync(root, { recursive: true, force: true }));

/** A fresh copy of a run directory, to edit. */
function copy(dir: string): string {
  const to = join(root, `copy-${++scratch}`);
  cpSync(dir, to, { recursive: true });
  return to;
}

function fresh(): string {
  return join(root, `out-${++scratch}`);
}

interface EditableManifest {
  identity: Record<string, unknown>;
  [field: string]: unknown;
}

function editManifest(dir: string, edit: (m: EditableManifest) => void): void {
  const file = join(dir, 'manifest.json');
  const m = JSON.parse(readFileSync(file, 'utf8')) as EditableManifest;
  edit(m);
  writeFileSync(file, JSON.stringify(m, null, 2));
}

function lines(file: string): string[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '');
}

function samples(dir: string): SampleRecord[] {
  return lines(join(dir, 'samples.jsonl')).map((l) => JSON.parse(l) as SampleRecord);
}

/** A sample without its timing, which differs between runs. */
function comparable(r: SampleRecord): Omit<SampleRecord, 'elapsedMs'> {
  const { elapsedMs: _e, ...rest } = r;
  return rest;
}

async function refuses(opts: { shardDirs: string[]; out: string }, message: RegExp): Promise<void> {
  const lockFree = opts.shardDirs.filter((d) => existsSync(d));
  await assert.rejects(mergeCommand(opts), (e: unknown) => {
    assert.ok(e instanceof UserError, `not a UserError: ${e}`);
    assert.match(e.message, message);
    assert.ok(!e.message.includes('\n'), 'more than one line');
    return true;
  });
  for (const d of lockFree)
    assert.ok(
      !existsSync(join(d, 'run.lock')) || readFileSync(join(d, 'run.lock'), 'utf8') !== `${hostname()} ${process.pid}`,
      `lock left in ${d}`,
    );
  assert.deepEqual(
    readdirSync(root).filter((f) => f.endsWith('.tmp')),
    [],
    'staging left behind',
  );
}

test('merged shards hold exactly the samples of an unsharded run, calls concatenated, manifest marked merged', async () => {
  const out = fresh();
  const result = await mergeCommand({ shardDirs: [runs.s1, runs.s0], out });
  const expected = samples(runs.all);
  assert.equal(expected.length, 10);
  assert.equal(result.samples, 10);
  assert.equal(result.duplicates, 0);
  assert.equal(result.units, 10);
  const merged = samples(out);
  const key = (r: SampleRecord) => `${r.id}#${r.method}`;
  assert.equal(new Set(merged.map(key)).size, merged.length);
  const byKey = new Map(merged.map((r) => [key(r), r]));
  for (const r of expected) assert.deepEqual(comparable(byKey.get(key(r))!), comparable(r), key(r));
  // Shard 0 first (sorted by index, whatever the argument order).
  assert.deepEqual(merged.map(key), [...samples(runs.s0), ...samples(runs.s1)].map(key));

  const calls = lines(join(out, 'calls.jsonl'));
  assert.deepEqual(calls, [...lines(join(runs.s0, 'calls.jsonl')), ...lines(join(runs.s1, 'calls.jsonl'))]);
  assert.equal(result.calls, calls.length);
  assert.equal(calls.length, lines(join(runs.all, 'calls.jsonl')).length);

  const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
  const original = JSON.parse(readFileSync(join(runs.all, 'manifest.json'), 'utf8'));
  assert.equal(manifest.shard, null);
  assert.deepEqual(manifest.identity, original.identity);
  assert.deepEqual(manifest.methods, original.methods);
  assert.equal(manifest.units, original.units);
  assert.deepEqual(
    manifest.merged_from.map((m: { shard: unknown }) => m.shard),
    [
      { index: 0, count: 2 },
      { index: 1, count: 2 },
    ],
  );
  assert.deepEqual(
    manifest.merged_from.map((m: { dir: string }) => m.dir),
    [runs.s0, runs.s1],
  );
  assert.equal(existsSync(join(out, 'run.lock')), false);
  assert.equal(existsSync(join(runs.s0, 'run.lock')), false);

  // Merging again into the same directory replaces the earlier merge.
  const again = await mergeCommand({ shardDirs: [runs.s0, runs.s1], out });
  assert.equal(again.samples, 10);
  assert.deepEqual(samples(out).map(key), merged.map(key));
});

test('planned counts (manifest expected): each shard its own share, the merge their sum, equal to the unsharded run', async () => {
  const expectedOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')).expected;
  // 5 samples: shard 0/2 has indices 0, 2, 4; shard 1/2 has 1, 3 (per method).
  assert.deepEqual(expectedOf(runs.s0), { 'ruler-hqa/8k': 3 });
  assert.deepEqual(expectedOf(runs.s1), { 'ruler-hqa/8k': 2 });
  assert.deepEqual(expectedOf(runs.all), { 'ruler-hqa/8k': 5 });
  const out = fresh();
  await mergeCommand({ shardDirs: [runs.s0, runs.s1], out });
  assert.deepEqual(expectedOf(out), { 'ruler-hqa/8k': 5 });
});

test('duplicate samples keep the first; torn last lines from a killed run are left out', async () => {
  const s1 = copy(runs.s1);
  const first = samples(runs.s0)[0];
  appendFileSync(
    join(s1, 'samples.jsonl'),
    JSON.stringify({ ...first, prediction: 'DUPLICATE' }) + '\n' + '{"id":"torn',
  );
  appendFileSync(join(s1, 'calls.jsonl'), '{"sampleId":"torn');
  const out = fresh();
  const result = await mergeCommand({ shardDirs: [runs.s0, s1], out });
  assert.equal(result.samples, 10);
  assert.equal(result.duplicates, 1);
  const merged = samples(out);
  assert.equal(merged.find((r) => r.id === first.id && r.method === first.method)!.prediction, first.prediction);
  assert.ok(readFileSync(join(out, 'calls.jsonl'), 'utf8').endsWith('\n'));
  assert.ok(!readFileSync(join(out, 'calls.jsonl'), 'utf8').includes('torn'));
});

test('refuses shards whose identity or run settings differ, naming the field', async () => {
  const s1 = copy(runs.s1);
  editManifest(
    s1,
    (m) => ((m.identity.methods as Record<string, Record<string, unknown>>)['full-context'].temperature = 0),
  );
  const out = fresh();
  // No --temperature given: the identity holds null (each task's own decoding).
  await refuses({ shardDirs: [runs.s0, s1], out }, /--temperature of full-context \(was unset, now 0\)/);
  assert.equal(existsSync(out), false);
  const s1b = copy(runs.s1);
  editManifest(s1b, (m) => (m.methods = ['memagent']));
  await refuses({ shardDirs: [runs.s0, s1b], out }, /shards differ in methods/);
  const s1c = copy(runs.s1);
  editManifest(s1c, (m) => (m.identity.model = 'http://127.0.0.1:8000/v1#qwen'));
  await refuses(
    { shardDirs: [runs.s0, s1c], out },
    /--model\/--model-name \(was local:reference-reader-v1, now http:\/\/127\.0\.0\.1:8000\/v1#qwen\)/,
  );
  assert.equal(existsSync(out), false);
});

test('refuses differing shard counts, a missing shard and a duplicated shard, saying which', async () => {
  const out = fresh();
  const s1 = copy(runs.s1);
  editManifest(s1, (m) => (m.shard = { index: 1, count: 3 }));
  await refuses({ shardDirs: [runs.s0, s1], out }, /shard count: .* is 0\/2, .* is 1\/3/);
  await refuses({ shardDirs: [runs.s0], out }, /shard 1\/2 missing \(given 0\/2\)/);
  const s0 = copy(runs.s0);
  await refuses({ shardDirs: [runs.s0, s0, runs.s1], out }, /shard 0\/2 given twice/);
  await refuses({ shardDirs: [runs.s0, runs.all], out }, /is not a shard/);
  await refuses({ shardDirs: [runs.s0, join(root, 'nowhere')], out }, /not found/);
  assert.equal(existsSync(out), false);
});

test('refuses an --out that holds a different run, a non-merge run, other files, or a shard itself', async () => {
  const other = fresh();
  await mergeCommand({ shardDirs: [runs.s0, runs.s1], out: other });
  editManifest(other, (m) => (m.identity.seed = 7));
  const before = readFileSync(join(other, 'samples.jsonl'), 'utf8');
  await refuses(
    { shardDirs: [runs.s0, runs.s1], out: other },
    /already holds a different run \(seed \(--seed\): 7 vs 42\)/,
  );
  assert.equal(readFileSync(join(other, 'samples.jsonl'), 'utf8'), before);
  const plain = copy(runs.all);
  await refuses({ shardDirs: [runs.s0, runs.s1], out: plain }, /already holds a run that is not a merge/);
  const junk = fresh();
  mkdirSync(junk);
  writeFileSync(join(junk, 'notes.txt'), 'mine');
  await refuses({ shardDirs: [runs.s0, runs.s1], out: junk }, /not empty and holds no bench run/);
  await refuses({ shardDirs: [runs.s0, runs.s1], out: runs.s1 }, /is one of the shard directories/);
  // An empty directory is fine.
  const empty = fresh();
  mkdirSync(empty);
  assert.equal((await mergeCommand({ shardDirs: [runs.s0, runs.s1], out: empty })).samples, 10);
});

test('refuses a shard that a live bench run is still writing', async () => {
  const s1 = copy(runs.s1);
  // A lock held by a live process on this host (this test's own pid).
  writeFileSync(join(s1, 'run.lock'), `${hostname()} ${process.pid}`);
  const out = fresh();
  await assert.rejects(
    mergeCommand({ shardDirs: [runs.s0, s1], out }),
    (e: unknown) => e instanceof UserError && /in use by another bench run/.test(e.message),
  );
  assert.equal(existsSync(out), false);
  assert.equal(existsSync(join(runs.s0, 'run.lock')), false, 'lock on shard 0 not released');
});
