// The request fingerprint (manifest `requests`) and what bench compare and bench gate do with it, through the real
// binary: runs that sent other requests (model template, decoding, ...) are refused with one line naming every
// differing field, unless --allow-protocol-change; runs that sent the same requests compare as before.
import { beforeAll, test } from 'vitest';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertOneLine, runBench } from '../helpers/cli.js';

const root = mkdtempSync(join(tmpdir(), 'bench-protocol-change-'));
const A = join(root, 'a');
const A2 = join(root, 'a2');
const B = join(root, 'b');
const run = (out: string, extra: string[]) =>
  runBench([
    'run',
    'vt',
    '--protocol',
    'ruler',
    '--lengths',
    '4k',
    '--samples',
    '3',
    '--no-progress',
    '--out',
    out,
    ...extra,
  ]);

beforeAll(async () => {
  for (const [out, extra] of [
    [A, []],
    [A2, []],
    [B, ['--chat-template', 'meta-llama3', '--temperature', '0.5']],
  ] as const) {
    const r = await run(out, [...extra]);
    assert.equal(r.code, 0, r.stderr);
  }
}, 180_000);

test('the manifest records each call kind’s effective request', () => {
  const m = JSON.parse(readFileSync(join(A, 'manifest.json'), 'utf8'));
  assert.deepEqual(m.requests, {
    'native/answer': {
      route: '/completions',
      template: 'base',
      answerPrefix: 'completion',
      maxTokens: { vt: 30 },
      decoding: { vt: { temperature: 0, top_p: 1 } },
      thinkingBudget: null,
    },
  });
});

test('bench compare names every differing field and refuses; --allow-protocol-change compares with a warning', async () => {
  const refused = await runBench(['compare', A, B]);
  assertOneLine(
    refused,
    2,
    /^bench compare: A \(.*\) and B \(.*\) sent other requests, so their scores are not comparable: native\/answer: template \(base → meta-llama3\); native\/answer: decoding of vt \(temperature 0 top_p 1 → temperature 0.5 top_p 1\); rerun one with the other's settings, or pass --allow-protocol-change to compare anyway$/,
  );
  const allowed = await runBench(['compare', A, B, '--allow-protocol-change']);
  assert.ok(allowed.code === 0 || allowed.code === 1, allowed.stderr);
  assert.match(
    allowed.stderr,
    /^warning: comparing runs whose requests differ \(--allow-protocol-change\): native\/answer: template \(base → meta-llama3\)/m,
  );
  const same = await runBench(['compare', A, A2]);
  assert.equal(same.code, 0, same.stderr);
  assert.doesNotMatch(same.stderr, /requests differ/);
}, 120_000);

test('bench gate refuses a run whose requests differ from a baseline run or baseline file', async () => {
  const fromRun = await runBench(['gate', B, '--baseline', A, '--exact']);
  assertOneLine(
    fromRun,
    2,
    /^bench gate: the baseline \(.*\) and the run \(.*\) sent other requests.*template \(base → meta-llama3\)/,
  );
  const file = join(root, 'baseline.json');
  const made = await runBench(['baseline', A, '--out', file]);
  assert.equal(made.code, 0, made.stderr);
  assert.equal(JSON.parse(readFileSync(file, 'utf8')).source.requests['native/answer'].template, 'base');
  const fromFile = await runBench(['gate', B, '--baseline', file, '--exact']);
  assert.equal(fromFile.code, 2);
  assert.match(fromFile.stderr, /decoding of vt \(temperature 0 top_p 1 → temperature 0.5 top_p 1\)/);
  const allowed = await runBench(['gate', B, '--baseline', file, '--allow-protocol-change']);
  assert.notEqual(allowed.code, 2, allowed.stderr);
  assert.match(allowed.stderr, /^warning: comparing runs whose requests differ/m);
  const same = await runBench(['gate', A2, '--baseline', file, '--exact']);
  assert.equal(same.code, 0, same.stderr + same.stdout);
}, 120_000);
