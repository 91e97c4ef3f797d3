// The rival methods end to end: a small real run of each through the built `bench` binary and the embedded reader,
// whose recorded calls per sample match the method's plan (InfMem's early stop: 2(k − 1) + 2 logical calls, two
// requests each with thinking; map-reduce's collapse calls; compress's parts), and out-of-range flags and a
// --templates file lacking a new template's slot refused with one line, exit 2.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { beforeAll, describe, test } from 'vitest';
import { methods } from '../../../harness/methods/index.js';
import type { MethodFlagValues } from '../../../harness/methods/index.js';
import { assertOneLine, runBench } from '../../helpers/cli.js';

const RIVALS = ['infmem', 'rememr1', 'chain-of-agents', 'refine', 'map-reduce', 'compress'];
const dir = mkdtempSync(join(tmpdir(), 'bench-rivals-'));
const out = join(dir, 'run');

const defaults: MethodFlagValues = Object.fromEntries(methods.options().map((o) => [o.flag, o.default]));
const jsonl = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

interface Row {
  id: string;
  method: string;
  calls: number;
  builtTokens: number;
  status: string;
  extra: Record<string, number | boolean>;
}
let samples: Row[] = [];
let callsBy = new Map<string, { kind: string }[]>();

beforeAll(async () => {
  const r = await runBench(
    [
      'run',
      'ruler-hqa',
      '--lengths',
      '16k',
      '--samples',
      '3',
      '--method',
      RIVALS.join(','),
      '--no-progress',
      '--out',
      out,
    ],
    { timeoutMs: 240_000 },
  );
  assert.equal(r.code, 0, r.stderr);
  samples = jsonl(join(out, 'samples.jsonl'));
  callsBy = new Map();
  for (const c of jsonl(join(out, 'calls.jsonl'))) {
    const key = `${c.sampleId}|${c.method}`;
    callsBy.set(key, [...(callsBy.get(key) ?? []), c]);
  }
}, 300_000);

describe('calls per sample against the plan', () => {
  test('every rival ran every sample ok, its record counting the calls recorded in calls.jsonl', () => {
    for (const m of RIVALS) {
      const rows = samples.filter((s) => s.method === m);
      assert.equal(rows.length, 3, m);
      for (const s of rows) {
        assert.equal(s.status, 'ok', `${m} ${s.id}`);
        assert.equal(callsBy.get(`${s.id}|${m}`)?.length, s.calls, `${m} ${s.id}`);
      }
    }
  });

  test('chain-of-agents, refine, rememr1: calls = plan (windows + 1, windows, windows + 1)', () => {
    for (const m of ['chain-of-agents', 'refine', 'rememr1'])
      for (const s of samples.filter((x) => x.method === m)) {
        const plan = methods.get(m).plan({ contextTokens: s.builtTokens }, defaults);
        assert.equal(s.calls, plan.length, `${m} ${s.id}`);
        assert.deepEqual(
          callsBy.get(`${s.id}|${m}`)!.map((c) => c.kind),
          plan.map((p) => p.kind.name),
          `${m} ${s.id}: the recorded kinds in the plan's order`,
        );
      }
  });

  test('infmem: the plan without early stop; stopping at window k leaves 2(k − 1) + 2 logical calls, 2 requests each', () => {
    for (const s of samples.filter((x) => x.method === 'infmem')) {
      const plan = methods.get('infmem').plan({ contextTokens: s.builtTokens }, defaults);
      const kinds = callsBy.get(`${s.id}|infmem`)!.map((c) => c.kind);
      if (s.extra.early_stop) {
        const k = s.extra.step as number;
        assert.equal(s.calls, 2 * (2 * (k - 1) + 2), s.id);
        assert.ok(s.calls < plan.length);
      } else {
        assert.equal(s.calls, plan.length, s.id);
        assert.deepEqual(
          kinds,
          plan.map((p) => p.kind.name),
        );
      }
      assert.equal(kinds.at(-1), 'answer-memory');
    }
  });

  test('map-reduce: windows maps + recorded collapses + 1 combine; = plan when nothing collapsed', () => {
    for (const s of samples.filter((x) => x.method === 'map-reduce')) {
      const kinds = callsBy.get(`${s.id}|map-reduce`)!.map((c) => c.kind);
      const windows = s.extra.windows as number;
      assert.equal(kinds.filter((k) => k === 'map').length, windows);
      assert.equal(s.calls, windows + kinds.filter((k) => k === 'collapse').length + 1);
      if (s.extra.collapse_rounds === 0)
        assert.equal(s.calls, methods.get('map-reduce').plan({ contextTokens: s.builtTokens }, defaults).length);
    }
  });

  test('compress: one summary per part + the answer; the plan estimates the parts from tokens within 15%', () => {
    for (const s of samples.filter((x) => x.method === 'compress')) {
      assert.equal(s.calls, (s.extra.parts as number) + 1);
      const planned = methods.get('compress').plan({ contextTokens: s.builtTokens }, defaults).length;
      assert.ok(Math.abs(planned - s.calls) <= Math.ceil(0.15 * s.calls), `${s.id}: plan ${planned}, ran ${s.calls}`);
    }
  });
});

describe('bad input', () => {
  const run = (...args: string[]) =>
    runBench([
      'run',
      'ruler-hqa',
      '--lengths',
      '8k',
      '--samples',
      '1',
      '--no-progress',
      '--out',
      join(dir, 'bad'),
      ...args,
    ]);

  test.each([
    ['infmem', '--infmem-top-k', '21', /--infmem-top-k must be at most 20/],
    ['infmem', '--infmem-top-k', '2', /--infmem-top-k/],
    ['infmem', '--infmem-jaccard', '1.5', /--infmem-jaccard must be a number in \[0, 1\]/],
    ['infmem', '--infmem-think', 'maybe', /--infmem-think must be 'on' or 'off'/],
    ['rememr1', '--rememr1-max-new', '8', /--rememr1-max-new/],
    ['map-reduce', '--map-reduce-token-max', '10', /--map-reduce-token-max/],
    ['compress', '--compress-words', '0', /--compress-words/],
  ])('%s %s %s: one line, exit 2', async (method, flag, value, message) => {
    assertOneLine(await run('--method', method, flag, value), 2, message);
  });

  test('a --templates file whose infmemWriter lacks {retrieve}: one line, exit 2', async () => {
    const file = join(dir, 'templates.json');
    writeFileSync(file, JSON.stringify({ infmemWriter: '{question} {chunk} {memory}' }));
    assertOneLine(
      await run('--method', 'infmem', '--templates', file),
      2,
      /"infmemWriter" lacks the placeholder \{retrieve\}/,
    );
  });
});

describe('cost columns', () => {
  const csvRows = (file: string) => {
    const [head, ...lines] = readFileSync(file, 'utf8').trim().split('\n');
    const cols = head.split(',');
    return lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [cols[i], v])));
  };

  test('each summary row: calls, tokens and longest chain per sample from the records; GPU-seconds on the preset', () => {
    const rows = csvRows(join(out, 'summary.csv'));
    assert.equal(rows.length, RIVALS.length);
    for (const row of rows) {
      const mine = samples.filter((s) => s.method === row.method);
      const calls = mine.reduce((n, s) => n + s.calls, 0) / mine.length;
      assert.equal(Number(row.calls_per_sample), Number(calls.toFixed(2)), row.method);
      assert.equal(Number(row.longest_chain), Math.max(...mine.map((s) => s.calls)), row.method);
      assert.equal(row.cost_preset, 'qwen2.5-7b-h100');
      assert.ok(Number(row.est_gpu_seconds_per_sample) > 0, row.method);
      assert.equal(row.wall_seconds_per_sample, '', 'no wall time for the embedded reader');
    }
  });

  test('bench report --cost-preset names another simulated GPU; an unknown one: one line, exit 2', async () => {
    const rep = join(dir, 'report-14b');
    const r = await runBench(['report', out, '--out', rep, '--cost-preset', 'qwen2.5-14b-h100']);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(existsSync(join(rep, 'charts', 'cost-ruler-hqa-single.png')), 'the cost chart');
    assert.match(
      readFileSync(join(rep, 'charts', 'cost-ruler-hqa.caption.txt'), 'utf8'),
      /simulated qwen2\.5-14b-h100/,
    );
    const slow = csvRows(join(rep, 'summary.csv'));
    const fast = csvRows(join(out, 'summary.csv'));
    for (const row of slow) {
      assert.equal(row.cost_preset, 'qwen2.5-14b-h100');
      const same = fast.find((f) => f.method === row.method)!;
      assert.ok(Number(row.est_gpu_seconds_per_sample) > Number(same.est_gpu_seconds_per_sample), row.method);
    }
    assertOneLine(
      await runBench(['report', out, '--out', rep, '--cost-preset', 'tpu']),
      2,
      /--cost-preset must be one of qwen2.5-7b-h100/,
    );
  });
});
