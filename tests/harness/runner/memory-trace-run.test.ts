// memory.jsonl end to end: a real run writes one line per memory-update call; a run killed with SIGKILL again and
// again and resumed, and a run split in shards and merged, hold the same lines as one clean run, each once;
// --no-memory-trace writes none. The records hold the evidence chunks and the gold's capture.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, startBenchServe } from '../../helpers/bench-serve.js';
import { rngFor } from '../../../harness/util/rng.js';
import { mergeCommand } from '../../../cli/commands/merge.js';
import { MemoryTraceDecoder } from '../../../harness/memory/trace-codec.js';
import type { MemoryTraceLine } from '../../../harness/memory/trace-line.js';
import { goldInMemory } from '../../../harness/memory/retention.js';

function lines(file: string): Array<Record<string, any>> {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

/** The trace as `sample#method#chunk → hash`, failing on a key written twice, a sample's chunks with a gap, or a
 *  memory its lines do not rebuild (an edit of a line that is not the one before it). */
function trace(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const chunks = new Map<string, number[]>();
  const decoders = new Map<string, MemoryTraceDecoder>();
  for (const l of lines(join(dir, 'memory.jsonl'))) {
    const key = `${l.sampleId}#${l.method}#${l.chunk}`;
    assert.ok(!out.has(key), `${key} written twice`);
    out.set(key, l.hash);
    const unit = `${l.sampleId}#${l.method}`;
    if (!decoders.has(unit)) decoders.set(unit, new MemoryTraceDecoder());
    assert.notEqual(decoders.get(unit)!.next(l as MemoryTraceLine).memory, null, `${key}: its memory is rebuilt`);
    chunks.set(`${l.sampleId}#${l.method}`, [...(chunks.get(`${l.sampleId}#${l.method}`) ?? []), l.chunk]);
  }
  for (const [unit, cs] of chunks)
    assert.deepEqual(
      cs,
      cs.map((_, i) => i),
      `${unit}: chunks ${cs.join(',')}`,
    );
  return out;
}

const run = (args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 180_000 });
const BASE = ['run', 'ruler-hqa', '--lengths', '16k', '--samples', '4', '--method', 'memagent', '--no-progress'];

test('a run writes one memory line per update call, and the records hold evidence chunks and capture', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-trace-run-'));
  const r = run([...BASE, '--chunk-tokens', '2000', '--out', dir]);
  assert.equal(r.status, 0, r.stderr);
  const updates = lines(join(dir, 'calls.jsonl')).filter((c) => c.kind === 'update');
  const t = trace(dir);
  assert.deepEqual([...t.keys()].sort(), updates.map((c) => `${c.sampleId}#${c.method}#${c.step}`).sort());
  const rows = lines(join(dir, 'memory.jsonl'));
  // The first line of each sample holds its memory text, later ones mostly an edit of the one before; each line's
  // gold flags are those of the text it rebuilds to.
  for (const l of rows.filter((x) => x.chunk === 0)) assert.equal(typeof l.memory, 'string');
  assert.ok(rows.filter((x) => Array.isArray(x.delta)).length > rows.length / 2, 'most lines are edits');
  const answers = new Map(lines(join(dir, 'samples.jsonl')).map((r) => [r.id, r.answers as string[]]));
  const decoders = new Map<string, MemoryTraceDecoder>();
  for (const l of rows) {
    if (!decoders.has(l.sampleId)) decoders.set(l.sampleId, new MemoryTraceDecoder());
    const text = decoders.get(l.sampleId)!.next(l as MemoryTraceLine).memory!;
    assert.deepEqual(l.gold, goldInMemory(text, answers.get(l.sampleId)!), `${l.sampleId} chunk ${l.chunk}`);
  }
  for (const rec of lines(join(dir, 'samples.jsonl'))) {
    assert.equal(rec.evidence.length, 2, 'two supporting paragraphs');
    const m = rec.memory;
    const expected = new Set<number>();
    for (const e of rec.evidence)
      for (let c = Math.floor(e.start / 2000); c <= Math.floor((e.end - 1) / 2000); c++) expected.add(c);
    assert.deepEqual(
      m.evidenceChunks,
      [...expected].sort((a, b) => a - b),
    );
    const mine = rows.filter((x) => x.sampleId === rec.id);
    assert.equal(m.holds, mine.map((x) => (x.holds ? '1' : '0')).join(''));
    assert.equal(m.capturedAt, m.holds.indexOf('1') < 0 ? null : m.holds.indexOf('1'));
  }
});

test('--no-memory-trace writes no memory.jsonl; the records still hold the retention', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-trace-off-'));
  const r = run([...BASE, '--samples', '1', '--no-memory-trace', '--out', dir]);
  assert.equal(r.status, 0, r.stderr);
  assert.ok(!existsSync(join(dir, 'memory.jsonl')));
  assert.match(lines(join(dir, 'samples.jsonl'))[0].memory.holds, /^[01]+$/);
});

test('killed with SIGKILL again and again, then resumed: the same memory lines as a clean run, each once', async () => {
  const { url, child } = await startBenchServe(['--latency-ms', '25']);
  try {
    const dir = mkdtempSync(join(tmpdir(), 'bench-trace-kill-'));
    const args = [...BASE, '--chunk-tokens', '2000', '--model', url, '--model-name', 'reference-reader', '--no-cache'];
    const clean = run([...args, '--out', join(dir, 'clean')]);
    assert.equal(clean.status, 0, clean.stderr);
    const killed = join(dir, 'killed');
    const rng = rngFor('memory-trace-kill-test');
    const callsSoFar = () => {
      try {
        return readFileSync(join(killed, 'calls.jsonl'), 'utf8').split('\n').length - 1;
      } catch {
        return 0;
      }
    };
    let kills = 0;
    for (let i = 0; i < 6; i++) {
      const target = callsSoFar() + 1 + rng.below(5);
      const p = spawn(process.execPath, [BIN, ...args, '--out', killed], { stdio: 'ignore' });
      let done = false;
      p.on('exit', () => (done = true));
      while (!done && callsSoFar() < target) await new Promise((r) => setTimeout(r, 5 + rng.below(15)));
      if (!done) {
        p.kill('SIGKILL');
        kills++;
      }
      await new Promise<void>((r) => (done ? r() : p.on('exit', () => r())));
    }
    assert.ok(kills >= 3, `only ${kills} kills landed`);
    const final = run([...args, '--out', killed]);
    assert.equal(final.status, 0, final.stderr);
    assert.deepEqual(trace(killed), trace(join(dir, 'clean')));
    const holds = (d: string) =>
      lines(join(d, 'samples.jsonl'))
        .map((r) => [r.id, r.memory.holds])
        .sort();
    assert.deepEqual(holds(killed), holds(join(dir, 'clean')));
  } finally {
    child.kill();
  }
}, 300_000);

test('shards merged: the same memory lines as the unsharded run, each once', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-trace-merge-'));
  const args = [...BASE, '--workers', '1'];
  for (const [out, shard] of [
    ['all', []],
    ['s0', ['--shard', '0/2']],
    ['s1', ['--shard', '1/2']],
  ] as const) {
    const r = run([...args, ...shard, '--out', join(dir, out)]);
    assert.equal(r.status, 0, r.stderr);
  }
  await mergeCommand({ shardDirs: [join(dir, 's0'), join(dir, 's1')], out: join(dir, 'merged') });
  assert.deepEqual(trace(join(dir, 'merged')), trace(join(dir, 'all')));
  // Merging again into the same directory replaces the file, it does not add to it.
  await mergeCommand({ shardDirs: [join(dir, 's0'), join(dir, 's1')], out: join(dir, 'merged') });
  assert.deepEqual(trace(join(dir, 'merged')), trace(join(dir, 'all')));
}, 300_000);
