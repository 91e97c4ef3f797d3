import { test } from 'vitest';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { BIN, startBenchServe } from '../../helpers/bench-serve.js';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rngFor } from '../../../harness/util/rng.js';

function lines(file: string): Array<Record<string, any>> {
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

test('kill -9 at random moments, rerun 10 times: every sample once, same scores, at most one redone call per sample in flight', async () => {
  const { url, child } = await startBenchServe(['--latency-ms', '30']);
  try {
    const dir = mkdtempSync(join(tmpdir(), 'bench-kill-'));
    const args = [
      'run',
      'ruler-hqa',
      '--lengths',
      '16k,32k',
      '--samples',
      '6',
      '--model',
      url,
      '--model-name',
      'reference-reader',
      '--concurrency',
      '2',
      '--no-progress',
      '--no-cache',
    ];
    const clean = spawnSync(process.execPath, [BIN, ...args, '--out', join(dir, 'clean')], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    assert.equal(clean.status, 0, clean.stderr);
    const cleanRecords = lines(join(dir, 'clean', 'samples.jsonl'));
    const cleanCalls = lines(join(dir, 'clean', 'calls.jsonl')).length;
    assert.equal(cleanRecords.length, 12);

    const rng = rngFor('kill-resume-test');
    const killed = join(dir, 'killed');
    let kills = 0;
    // Kill each run after it has made a random number of new calls (not after a fixed time: start-up varies).
    const callsSoFar = () => {
      try {
        return readFileSync(join(killed, 'calls.jsonl'), 'utf8').split('\n').length - 1;
      } catch {
        return 0;
      }
    };
    for (let i = 0; i < 10; i++) {
      const start = callsSoFar();
      const target = start + 1 + rng.below(6);
      const run = spawn(process.execPath, [BIN, ...args, '--out', killed], { stdio: 'ignore' });
      let done = false;
      run.on('exit', () => (done = true));
      while (!done && callsSoFar() < target) await new Promise((r) => setTimeout(r, 5 + rng.below(20)));
      if (!done) {
        run.kill('SIGKILL');
        kills++;
      }
      await new Promise<void>((r) => (done ? r() : run.on('exit', () => r())));
    }
    const before = lines(join(killed, 'calls.jsonl')).length;
    const final = spawnSync(process.execPath, [BIN, ...args, '--out', killed], { encoding: 'utf8', timeout: 120_000 });
    assert.equal(final.status, 0, final.stderr);
    const records = lines(join(killed, 'samples.jsonl'));
    const ids = records.map((r) => `${r.id}#${r.method}`);
    assert.equal(new Set(ids).size, ids.length, 'a sample was written twice');
    assert.equal(records.length, 12);
    const score = (rs: Array<Record<string, any>>) =>
      Object.fromEntries(rs.map((r) => [r.id, [r.score, r.prediction]]));
    assert.deepEqual(score(records), score(cleanRecords));
    const calls = lines(join(killed, 'calls.jsonl')).filter((c) => c.status === 'ok').length;
    const redone = calls - cleanCalls;
    console.log(
      `kills ${kills}, calls ${calls} vs ${cleanCalls} uninterrupted, redone ${redone}, made before the last run ${before}`,
    );
    assert.ok(before > cleanCalls / 3, `the killed runs made only ${before} calls`);
    assert.ok(kills >= 8, `only ${kills} runs were killed mid-way`);
    assert.ok(redone <= kills * 2, `${redone} calls redone after ${kills} kills with 2 samples in flight`);
  } finally {
    child.kill('SIGTERM');
  }
});
