// Reasoning models over HTTP: `bench serve --reasoning MODE` answers as one (reference/serve/reasoning.ts) and
// `bench run` (real child processes) keeps memory and answers from `content`, records reasoning_content and thinking
// tokens per call and sample, flags an unclosed <think> per call (MemAgent keeps the whole reply), and with
// --thinking-budget thinks, then answers in a second request.
import { afterAll, beforeAll, test } from 'vitest';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBench } from '../helpers/cli.js';
import { startBenchServe } from '../helpers/bench-serve.js';
import { SERVED_THOUGHT } from '../../reference/serve/reasoning.js';

const root = mkdtempSync(join(tmpdir(), 'bench-reasoning-'));
const servers: Record<string, { url: string; child: ChildProcess }> = {};

beforeAll(async () => {
  for (const mode of ['plain', 'field', 'inline', 'unclosed'])
    servers[mode] = await startBenchServe(mode === 'plain' ? [] : ['--reasoning', mode]);
}, 60_000);
afterAll(() => {
  for (const s of Object.values(servers)) s.child.kill('SIGTERM');
});

const run = (mode: string, out: string, extra: string[] = []) =>
  runBench([
    'run',
    'niah_single_2',
    '--lengths',
    '8k',
    '--samples',
    '2',
    '--method',
    'memagent',
    '--chunk-tokens',
    '3000',
    '--model',
    servers[mode].url,
    '--model-name',
    'reference-reader',
    '--store-prompts',
    '--no-cache',
    '--no-plan',
    '--no-progress',
    '--out',
    out,
    ...extra,
  ]);

const jsonl = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, any>);

/** Every stored prompt's text (--store-prompts), concatenated. */
function storedPrompts(dir: string): string {
  const walk = (d: string): string[] =>
    readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? walk(join(d, n)) : [join(d, n)]));
  return walk(join(dir, 'prompts'))
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n');
}

// Sorted by id: samples finish (and are written) in any order.
const predictions = (dir: string) =>
  jsonl(join(dir, 'samples.jsonl'))
    .map((r) => [r.id, r.prediction, r.score])
    .sort((x, y) => String(x[0]).localeCompare(String(y[0])));

let plain: string;
beforeAll(async () => {
  plain = join(root, 'plain');
  const r = await run('plain', plain);
  assert.equal(r.code, 0, r.stderr);
}, 120_000);

test('reasoning_content: kept per call and sample, counted as thinking tokens, never in a later prompt', async () => {
  const out = join(root, 'field');
  const r = await run('field', out);
  assert.equal(r.code, 0, r.stderr);
  const calls = jsonl(join(out, 'calls.jsonl'));
  assert.ok(calls.length >= 4);
  for (const c of calls) {
    assert.equal(c.reasoning, SERVED_THOUGHT);
    assert.ok(c.thinkingTokens > 0);
    assert.equal(c.unclosedThink, undefined);
  }
  const samples = jsonl(join(out, 'samples.jsonl'));
  for (const s of samples) {
    const own = calls.filter((c) => c.sampleId === s.id);
    assert.equal(
      s.thinkingTokens,
      own.reduce((n, c) => n + c.thinkingTokens, 0),
    );
    assert.equal(s.reasoning, SERVED_THOUGHT);
  }
  assert.equal(storedPrompts(out).includes('look through the text'), false, 'thinking never reaches a prompt');
  // Memory and answers come from content alone: the same predictions as a model that does not think.
  assert.deepEqual(predictions(out), predictions(plain));
  assert.match(r.stdout, /thinking\/sample/);
  assert.match(readFileSync(join(out, 'summary.csv'), 'utf8').split('\n')[0], /thinking_tokens_per_sample/);

  // bench report: summary.md's thinking/sample column; report.html's per-sample thinking cell, escaped.
  const rep = await runBench(['report', out, '--format', 'svg', '--size', 'single']);
  assert.equal(rep.code, 0, rep.stderr);
  const md = readFileSync(join(out, 'summary.md'), 'utf8');
  const header = md.split('\n').find((l) => l.includes('thinking/sample'));
  assert.ok(header, 'summary.md has the thinking/sample column');
  const column = header
    .split('|')
    .map((c) => c.trim())
    .indexOf('thinking/sample');
  const perSample = Math.round(samples.reduce((n, s) => n + s.thinkingTokens, 0) / samples.length);
  const row = md.split('\n').find((l) => l.startsWith('|') && l.includes('memagent') && !l.includes('thinking/sample'));
  assert.equal(row?.split('|').map((c) => c.trim())[column], String(perSample));
  const html = readFileSync(join(out, 'report.html'), 'utf8');
  assert.match(html, /<th>thinking<\/th>/);
  assert.match(html, /<th>thinking\/sample<\/th>/);
  for (const s of samples) {
    const tr = html.split('<tr').find((t) => t.includes(`<td>${s.id}</td>`));
    assert.ok(tr, `report.html has a row for ${s.id}`);
    assert.match(tr, new RegExp(`<div class="tok">${s.thinkingTokens.toLocaleString('en-US')} tokens</div>`));
    assert.ok(tr.includes(`<summary>reasoning</summary><pre>${SERVED_THOUGHT}</pre>`));
  }
}, 120_000);

test("an unclosed <think> is flagged per call and MemAgent keeps the whole reply, as upstream's rule says", async () => {
  const out = join(root, 'unclosed');
  const r = await run('unclosed', out);
  assert.equal(r.code, 0, r.stderr);
  const calls = jsonl(join(out, 'calls.jsonl'));
  for (const c of calls) assert.equal(c.unclosedThink, true);
  const samples = jsonl(join(out, 'samples.jsonl'));
  for (const s of samples) {
    assert.equal(s.unclosedThinkCalls, calls.filter((c) => c.sampleId === s.id).length);
    assert.match(s.extra.final_memory, /^<think>\nOkay, let me think\./, 'the memory is the whole reply');
  }
  assert.ok(storedPrompts(out).includes('look through the text'), 'the kept reply is carried as memory');
  const rep = await runBench(['report', out, '--format', 'svg', '--size', 'single']);
  assert.equal(rep.code, 0, rep.stderr);
  const html = readFileSync(join(out, 'report.html'), 'utf8');
  assert.match(html, /<div class="err">\d+ calls? with &lt;think&gt; unclosed<\/div>/);
  assert.equal(html.includes('<think>'), false, 'model output is escaped');
}, 120_000);

test('--thinking-budget N: think up to N tokens, close the thinking, answer in a second request; recorded', async () => {
  const out = join(root, 'budget');
  const r = await run('inline', out, ['--thinking-budget', '8']);
  assert.equal(r.code, 0, r.stderr);
  const calls = jsonl(join(out, 'calls.jsonl'));
  for (const c of calls) {
    assert.equal(c.requests, 2);
    assert.equal(c.unclosedThink, undefined, 'the forced close closes it');
    assert.ok(c.thinkingTokens > 0);
  }
  const samples = jsonl(join(out, 'samples.jsonl'));
  for (const s of samples)
    assert.match(s.rawOutput, /Considering the limited time, I must stop thinking now\.\n<\/think>\n\n/);
  // The answer after the closed thinking is what a model that does not think says.
  assert.deepEqual(predictions(out), predictions(plain));
  const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
  assert.equal(manifest.identity.thinkingBudget, 8);
}, 120_000);
