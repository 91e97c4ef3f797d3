// `bench run --api chat|completions` through the real binary against `bench serve`'s server (the real `openai` client
// on both routes): --api completions sends every call to POST /v1/completions with the prompt text as built, the
// default sends none there; the reference reader answers the same text the same way, so the predictions agree.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBench } from '../helpers/cli.js';
import { jsonlRows, useReferenceServer } from '../helpers/reference-server.js';

const root = mkdtempSync(join(tmpdir(), 'bench-api-'));
const referenceServer = useReferenceServer();

const args = (out: string, extra: string[]) => [
  'run',
  'niah_single_2',
  '--lengths',
  '8k',
  '--samples',
  '2',
  '--method',
  'memagent,full-context',
  '--model',
  referenceServer().url,
  '--model-name',
  referenceServer().modelName,
  '--no-cache',
  '--no-plan',
  '--no-progress',
  '--out',
  out,
  ...extra,
];

test('--api completions takes POST /v1/completions for every call; the default takes only the chat route', async () => {
  const server = referenceServer();
  const before = server.stats().routes;
  const chat = await runBench(args(join(root, 'chat'), []));
  assert.equal(chat.code, 0, chat.stderr);
  const mid = server.stats().routes;
  assert.equal(mid.completions, before.completions, 'the default run sent nothing to /v1/completions');
  const chatCalls = mid.chat - before.chat;
  assert.ok(chatCalls > 0);

  const text = await runBench(args(join(root, 'text'), ['--api', 'completions']));
  assert.equal(text.code, 0, text.stderr);
  const after = server.stats().routes;
  assert.equal(after.chat, mid.chat, '--api completions sent nothing to /v1/chat/completions');
  assert.equal(after.completions - mid.completions, chatCalls, 'the same calls, on the other route');

  // Sorted: samples finish (and are written) in any order.
  const pred = (dir: string) =>
    jsonlRows(join(dir, 'samples.jsonl'))
      .map((r) => JSON.stringify([r.id, r.method, r.prediction, r.score]))
      .sort();
  assert.deepEqual(pred(join(root, 'text')), pred(join(root, 'chat')));
  const manifest = JSON.parse(readFileSync(join(root, 'text', 'manifest.json'), 'utf8'));
  assert.equal(manifest.identity.api, 'completions');
  const chatManifest = JSON.parse(readFileSync(join(root, 'chat', 'manifest.json'), 'utf8'));
  assert.equal('api' in chatManifest.identity, false, 'a default run records no api in its identity');
}, 120_000);

test('--api takes chat or completions only: one line, exit 2', async () => {
  const r = await runBench(args(join(root, 'bad'), ['--api', 'responses']));
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--api must be 'chat' or 'completions', got 'responses'/);
});
