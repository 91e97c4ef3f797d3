// pred.py sends trec, triviaqa, samsum, lsht, lcc and repobench-p without the model's chat template: `bench run
// longbench-raw --api completions` sends their prompt text as LongBench builds it to POST /v1/completions (the real
// binary, the real openai client, `bench serve`'s server), and each sample records that upstream sends it raw.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runBench } from '../../helpers/cli.js';
import { jsonlRows, useReferenceServer } from '../../helpers/reference-server.js';
import { jsonl, row, tempDir } from './helpers.js';

const referenceServer = useReferenceServer();

test('longbench-raw with --api completions sends the six no-template datasets raw to /v1/completions', async () => {
  const context = 'Question: Who wrote Hamlet ?\nType: Individual\nQuestion: When was the war ?\nType: Date\n';
  const input = 'Question: Who painted the ceiling ?\nType:';
  const trec = row('trec', 0, { input, context, answers: ['Individual'], all_classes: ['Individual', 'Date'] });
  const data = tempDir({ 'trec.jsonl': jsonl([trec]) });
  const out = join(data, 'run');
  const server = referenceServer();
  const before = server.stats().routes;
  const r = await runBench([
    'run',
    'longbench-raw',
    '--data',
    data,
    '--method',
    'full-context',
    '--api',
    'completions',
    '--store-prompts',
    '--model',
    server.url,
    '--model-name',
    server.modelName,
    '--no-cache',
    '--no-plan',
    '--no-progress',
    '--out',
    out,
  ]);
  assert.equal(r.code, 0, r.stderr);
  // The five datasets without data are skipped, one line each.
  assert.equal((`${r.stdout}\n${r.stderr}`.match(/^skipping longbench\//gm) ?? []).length, 5, r.stdout + r.stderr);
  const after = server.stats().routes;
  assert.equal(after.chat, before.chat, 'nothing went to /v1/chat/completions');
  assert.equal(after.completions - before.completions, 1);

  // dataset2prompt.json's trec entry, filled with the row's raw fields: no chat template around it.
  const expected = `Please determine the type of the question below. Here are some examples of questions.\n\n${context}\n${input}`;
  const dirs = readdirSync(join(out, 'prompts'));
  const stored = dirs.flatMap((d) =>
    readdirSync(join(out, 'prompts', d)).map(
      (f) => JSON.parse(readFileSync(join(out, 'prompts', d, f), 'utf8')) as { messages: unknown[] },
    ),
  );
  // One user message, which --api completions sends as the prompt text (promptOfMessages).
  assert.deepEqual(
    stored.map((p) => p.messages),
    [[{ role: 'user', content: expected }]],
  );
  const [sample] = jsonlRows(join(out, 'samples.jsonl'));
  assert.equal((sample.metadata as Record<string, unknown>).chat_template, false);
  const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
  assert.equal(manifest.identity.api, 'completions');
}, 120_000);
