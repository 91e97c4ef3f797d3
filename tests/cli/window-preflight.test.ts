// The window preflight through real child processes: `bench serve --max-model-len N` reports a small window at
// GET /v1/models, and `bench run` against it stops before any completion call with exit 2 and one line naming the
// method, both sizes and the fix; --allow-truncation runs anyway and records the preflight in the manifest.
import { afterAll, beforeAll, test } from 'vitest';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertOneLine, runBench } from '../helpers/cli.js';
import { startBenchServe } from '../helpers/bench-serve.js';
import { startServer, type RunningServer } from '../../reference/serve/server.js';
import { createLocalModel } from '../../reference/local-model.js';
import { loadTokenizer } from '../../harness/tokenizer/index.js';

const root = mkdtempSync(join(tmpdir(), 'bench-preflight-'));
let serve: { url: string; child: ChildProcess };

beforeAll(async () => {
  serve = await startBenchServe(['--max-model-len', '4096']);
});
afterAll(() => {
  serve.child.kill('SIGTERM');
});

const run = (url: string, out: string, extra: string[]) =>
  runBench([
    'run',
    'niah_single_2',
    '--lengths',
    '8k',
    '--samples',
    '2',
    '--model',
    url,
    '--model-name',
    'reference-reader',
    '--no-cache',
    '--no-plan',
    '--no-progress',
    '--out',
    out,
    ...extra,
  ]);

test('memagent against a 4,096-token window: exit 2, one line with both sizes and the fix, nothing written', async () => {
  const out = join(root, 'memagent');
  const r = await run(serve.url, out, ['--method', 'memagent']);
  assertOneLine(
    r,
    2,
    /^bench: memagent's largest call needs 7,304 tokens \(prompt up to 6,280 \+ max_tokens 1,024, niah_single_2 at 8k\), more than the endpoint's window of 4,096 tokens \(max_model_len from GET \/models\): use a smaller --chunk-tokens or --memory-tokens, serve a longer window, or pass --allow-truncation to run anyway$/,
  );
  assert.equal(existsSync(out), false, 'no run directory is made');
  // The same run with calls small enough fits and runs.
  const fits = await run(serve.url, join(root, 'fits'), [
    '--method',
    'memagent',
    '--chunk-tokens',
    '2000',
    '--memory-tokens',
    '512',
  ]);
  assert.equal(fits.code, 0, fits.stderr);
}, 120_000);

test('full-context: the fix is a smaller --max-context; --max-model-len stands in for a server that does not say', async () => {
  const r = await run(serve.url, join(root, 'fc'), ['--method', 'full-context']);
  assertOneLine(r, 2, /full-context's largest call needs [\d,]+ tokens .*: use a smaller --max-context, serve/);
  // bench serve without a window says nothing at GET /models; the flag gives it.
  const open = await startBenchServe([]);
  try {
    const flagged = await run(open.url, join(root, 'flag'), ['--method', 'full-context', '--max-model-len', '2048']);
    assertOneLine(flagged, 2, /more than the endpoint's window of 2,048 tokens \(--max-model-len\)/);
  } finally {
    open.child.kill('SIGTERM');
  }
}, 120_000);

test('the preflight stops the run before any completion call; --allow-truncation runs and records it', async () => {
  const tokenizer = loadTokenizer('qwen2.5');
  const server: RunningServer = await startServer({
    model: createLocalModel(tokenizer),
    maxContext: 7000,
    countPromptTokens: (messages) => messages.reduce((n, m) => n + tokenizer.count(m.content), 0),
  });
  try {
    const refused = await run(server.url, join(root, 'refused'), ['--method', 'memagent']);
    assert.equal(refused.code, 2, refused.stderr);
    assert.deepEqual(server.stats().routes, { chat: 0, completions: 0 });
    const out = join(root, 'allowed');
    const allowed = await run(server.url, out, ['--method', 'memagent', '--allow-truncation']);
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.match(
      allowed.stderr,
      /^warning: memagent's largest call needs 7,304 tokens .* running anyway \(--allow-truncation\)/m,
    );
    assert.ok(server.stats().routes.chat > 0);
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    assert.equal(manifest.window.tokens, 7000);
    assert.equal(manifest.window.source, 'max_model_len from GET /models');
    assert.equal(manifest.window.allowTruncation, true);
    assert.deepEqual(
      manifest.window.largest.map((c: { method: string; promptTokens: number; maxTokens: number }) => [
        c.method,
        c.promptTokens + c.maxTokens,
      ]),
      [['memagent', 7304]],
    );
  } finally {
    await server.close();
  }
}, 120_000);

test('bench plan runs the same preflight on --max-model-len: the same line, exit 2; a plan that fits predicts', async () => {
  const args = ['niah_single_2', '--lengths', '8k', '--samples', '2', '--method', 'memagent'];
  const r = await runBench(['plan', ...args, '--max-model-len', '4096']);
  assertOneLine(
    r,
    2,
    /^bench: memagent's largest call needs 7,304 tokens \(prompt up to 6,280 \+ max_tokens 1,024, niah_single_2 at 8k\), more than the endpoint's window of 4,096 tokens \(--max-model-len\): use a smaller --chunk-tokens or --memory-tokens, serve a longer window, or pass --allow-truncation to run anyway$/,
  );
  const allowed = await runBench(['plan', ...args, '--max-model-len', '4096', '--allow-truncation']);
  assert.equal(allowed.code, 0, allowed.stderr);
  assert.match(
    allowed.stderr,
    /^warning: memagent's largest call needs 7,304 tokens .*running anyway \(--allow-truncation\)/m,
  );
  assert.match(allowed.stdout, /expected tokens:/);
  const fits = await runBench(['plan', ...args, '--max-model-len', '8192']);
  assert.equal(fits.code, 0, fits.stderr);
  assert.equal(fits.stderr, '');
}, 120_000);
