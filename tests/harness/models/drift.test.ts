import { test } from 'vitest';
import assert from 'node:assert/strict';
import { createLocalModel } from '../../../reference/local-model.js';
import { withDriftCheck } from '../../../harness/models/drift.js';
import { loadTokenizer } from '../../../harness/tokenizer/index.js';
import type { Model, ModelRequest } from '../../../harness/types.js';

/** A server stand-in that reports `serverCount(hint)` prompt tokens. */
function reporting(serverCount: (hint: number) => number, cached = false): Model {
  return {
    id: 'http://127.0.0.1:9/v1#qwen',
    isReferenceReader: false,
    async generate(request) {
      return {
        text: 'ok',
        usage: { promptTokens: serverCount(request.promptTokensHint ?? 0), completionTokens: 1 },
        latencyMs: 1,
        finishReason: 'stop',
        cached,
        retries: 0,
      };
    },
  };
}

const req = (hint?: number): ModelRequest => ({
  messages: [{ role: 'user', content: 'x' }],
  params: { maxTokens: 1, temperature: 0, topP: 1 },
  ...(hint === undefined ? {} : { promptTokensHint: hint }),
});

test('counts within slack + tolerance pass silently (chat-template overhead)', async () => {
  const warnings: string[] = [];
  const m = withDriftCheck(
    reporting((h) => h + 30),
    (l) => warnings.push(l),
  );
  for (const hint of [10, 1000, 5000, 120_000]) await m.generate(req(hint));
  // 5% of 120k plus 64 is 6064: just inside.
  const edge = withDriftCheck(
    reporting((h) => h + 64 + 0.05 * h),
    (l) => warnings.push(l),
  );
  await edge.generate(req(120_000));
  assert.deepEqual(warnings, []);
  assert.equal(m.drift().compared, 4);
  assert.equal(m.drift().flagged, 0);
  assert.equal(m.drift().maxRelative, 3);
});

test('drift warns once with one line, then only counts', async () => {
  const warnings: string[] = [];
  const m = withDriftCheck(
    reporting((h) => Math.round(h * 1.3)),
    (l) => warnings.push(l),
  );
  await m.generate(req(1000));
  await m.generate(req(2000));
  await m.generate(req(100)); // 130 vs 100: within the 64-token slack
  await m.generate(req(8000));
  assert.equal(warnings.length, 1);
  assert.ok(!warnings[0].includes('\n'));
  assert.match(warnings[0], /server counted 1300 prompt tokens where ours was 1000 \(\+30\.0%/);
  assert.match(warnings[0], /--tokenizer/);
  assert.deepEqual(m.drift(), { compared: 4, flagged: 3, maxRelative: m.drift().maxRelative });
  assert.ok(Math.abs(m.drift().maxRelative - 0.3) < 1e-9);
});

test('custom tolerance and slack; fewer tokens than ours also flags', async () => {
  const warnings: string[] = [];
  const m = withDriftCheck(
    reporting((h) => h - 20),
    (l) => warnings.push(l),
    { tolerance: 0, slack: 10 },
  );
  await m.generate(req(500));
  assert.equal(m.drift().flagged, 1);
  assert.match(warnings[0], /server counted 480 prompt tokens where ours was 500 \(−4\.0%/);
});

test('calls without a hint, without server usage or served from the cache are not compared', async () => {
  const warnings: string[] = [];
  const noUsage = withDriftCheck(
    reporting(() => 0),
    (l) => warnings.push(l),
  );
  await noUsage.generate(req(1000));
  const noHint = withDriftCheck(
    reporting(() => 999_999),
    (l) => warnings.push(l),
  );
  await noHint.generate(req());
  const cached = withDriftCheck(
    reporting(() => 999_999, true),
    (l) => warnings.push(l),
  );
  await cached.generate(req(10));
  assert.deepEqual(warnings, []);
  for (const m of [noUsage, noHint, cached]) assert.deepEqual(m.drift(), { compared: 0, flagged: 0, maxRelative: 0 });
});

test('the embedded model reports our own count: no drift', async () => {
  const tokenizer = loadTokenizer('qwen2.5');
  const warnings: string[] = [];
  const inner = createLocalModel(tokenizer);
  const m = withDriftCheck(inner, (l) => warnings.push(l));
  const content = 'Marie Vell was born in Dornbach. Where was Marie Vell born?';
  await m.generate({
    messages: [{ role: 'user', content }],
    params: { maxTokens: 32, temperature: 0, topP: 1 },
    promptTokensHint: tokenizer.count(content),
  });
  assert.deepEqual(m.drift(), { compared: 1, flagged: 0, maxRelative: 0 });
  assert.equal(m.id, inner.id);
  assert.deepEqual(warnings, []);
});
