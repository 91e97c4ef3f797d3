// --memory-tokens and --chunk-tokens from the command line to the wire: the built `bench` binary (run
// `npm run build` first) runs MemAgent against our real OpenAI-compatible server in this process, whose reply model
// records what each request asked for.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChatMessage } from '../../../harness/types.js';
import { startServer } from '../../../reference/serve/server.js';
import { modelFromReply } from '../../../reference/serve/reply-model.js';
import { BIN } from '../../helpers/bench-serve.js';

interface Seen {
  kind: 'update' | 'final';
  maxTokens: number;
}

/** A reply model that records each request's max_tokens and whether it was a memory update (has a <section>). */
function recordingModel(seen: Seen[]) {
  return modelFromReply(
    (messages: ChatMessage[], maxTokens: number) => {
      const update = messages[messages.length - 1].content.includes('<section>');
      seen.push({ kind: update ? 'update' : 'final', maxTokens });
      return update ? 'The memory keeps what matters.' : 'Therefore, the answer is Paris.';
    },
    { id: 'recording' },
  );
}

/** The bench binary, run asynchronously so this process's server keeps answering. */
function bench(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += String(d);
    });
    child.stderr.on('data', (d) => {
      stderr += String(d);
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function lines(file: string): Record<string, unknown>[] {
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
}

async function runAgainstRecorder(extra: string[]) {
  const seen: Seen[] = [];
  // A request without max_tokens would be answered with 4096 here, so it could not pass for the asked-for value.
  const server = await startServer({ model: recordingModel(seen), modelName: 'm', defaultMaxTokens: 4096 });
  try {
    const out = join(mkdtempSync(join(tmpdir(), 'bench-memagent-cli-')), 'run');
    const r = await bench([
      'run',
      'ruler-hqa',
      '--lengths',
      '8k',
      '--samples',
      '1',
      ...extra,
      '--model',
      server.url,
      '--model-name',
      'm',
      '--no-cache',
      '--no-progress',
      '--out',
      out,
    ]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const [sample] = lines(join(out, 'samples.jsonl')) as {
      builtTokens: number;
      calls: number;
      status: string;
      id: string;
    }[];
    const calls = lines(join(out, 'calls.jsonl')) as { sampleId: string; kind: string; status: string }[];
    return { seen, sample, calls };
  } finally {
    await server.close();
  }
}

test('--memory-tokens 200 reaches every MemAgent update call and the final call as max_tokens 200', async () => {
  const { seen, sample } = await runAgainstRecorder(['--memory-tokens', '200']);
  assert.equal(sample.status, 'ok');
  const updates = seen.filter((s) => s.kind === 'update');
  const finals = seen.filter((s) => s.kind === 'final');
  // An 8k context at the default 5,000-token chunks: two updates, then the final call.
  assert.equal(updates.length, Math.ceil(sample.builtTokens / 5000));
  assert.ok(updates.length >= 2);
  assert.equal(finals.length, 1);
  assert.deepEqual(
    seen.map((s) => s.maxTokens),
    seen.map(() => 200),
  );
});

test('--chunk-tokens 3000 sets the window: ceil(tokens / 3000) updates + 1 final call in calls.jsonl', async () => {
  const { seen, sample, calls } = await runAgainstRecorder(['--chunk-tokens', '3000']);
  assert.equal(sample.status, 'ok');
  const updates = Math.ceil(sample.builtTokens / 3000);
  // Chosen so that the default 5,000-token window would give a different count.
  assert.notEqual(updates, Math.ceil(sample.builtTokens / 5000));
  const mine = calls.filter((c) => c.sampleId === sample.id);
  assert.equal(mine.length, updates + 1);
  assert.equal(mine.filter((c) => c.kind === 'update').length, updates);
  assert.equal(mine.filter((c) => c.kind === 'final').length, 1);
  assert.ok(mine.every((c) => c.status === 'ok'));
  assert.equal(sample.calls, updates + 1);
  assert.equal(seen.length, updates + 1, 'the server answered each call once');
  // Without --memory-tokens the budget is the paper's 1,024.
  assert.ok(seen.every((s) => s.maxTokens === 1024));
});
