// Scores and comparisons that must not be silently wrong (issue 17 part 8, and 10a), through the real binary (dist/):
// bench score cleans chat-template special tokens from peer predictions as bench run does and says so; bench compare
// and gate --paired pair only samples whose content is the same (seed, data); bench gate validates its baseline file
// (one line per problem, a literal NaN on one line, another metric refused); bench merge names what differs.
import { beforeAll, test } from 'vitest';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertOneLine, runBench, type BenchResult } from '../../helpers/cli.js';

const root = mkdtempSync(join(tmpdir(), 'bench-bad-scores-'));
const env = { ...process.env, BENCH_CACHE_DIR: join(root, 'cache') };
const bench = (...args: string[]): Promise<BenchResult> => runBench(args, { cwd: root, env });

const A = join(root, 'seed-1');
const B = join(root, 'seed-2');
const S0 = join(root, 'shard-0');
const S1 = join(root, 'shard-1');
const BASELINE = join(root, 'baseline.json');
const niah = (out: string, ...extra: string[]) =>
  bench(
    'run',
    'niah_single_1',
    '--lengths',
    '1k,2k',
    '--samples',
    '3',
    '--method',
    'full-context',
    '--no-progress',
    '--out',
    out,
    ...extra,
  );

beforeAll(async () => {
  for (const r of await Promise.all([
    niah(A, '--seed', '1'),
    niah(B, '--seed', '2'),
    bench(
      ...['run', 'niah_single_1', '--lengths', '1k', '--samples', '2', '--method', 'full-context'],
      ...['--shard', '0/2', '--no-progress', '--out', S0],
    ),
    bench(
      ...['run', 'niah_single_2', '--lengths', '1k', '--samples', '2', '--method', 'full-context'],
      ...['--shard', '1/2', '--no-progress', '--out', S1],
    ),
  ]))
    assert.equal(r.code, 0, r.stderr);
  const base = await bench('baseline', A, '--out', BASELINE);
  assert.equal(base.code, 0, base.stderr);
}, 240_000);

/** Stderr lines, non-empty. */
const errLines = (r: BenchResult) => r.stderr.split('\n').filter((l) => l.trim() !== '');

// ---- bench score: special tokens -------------------------------------------------------------------------------

test('S1 bench score on LongBench predictions such as Paris<|im_end|>: cleaned as bench run does, said in one line', async () => {
  const dir = join(root, 'pred', 'my-model');
  mkdirSync(dir, { recursive: true });
  const line = (pred: string, answer: string) =>
    JSON.stringify({ pred, answers: [answer], all_classes: null, length: 1200 });
  writeFileSync(join(dir, 'hotpotqa.jsonl'), `${line('Paris<|im_end|>', 'Paris')}\n${line('Lyon', 'Lyon')}\n`);
  const r = await bench('score', dir);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, '');
  assert.match(r.stdout, /hotpotqa\s+longbench-pred\s+my-model\s+all\s+qa_f1\s+2\s+0\s+0\s+0\s+100\.00/);
  const notes = r.stdout.split('\n').filter((l) => /special tokens/.test(l));
  assert.equal(notes.length, 1, r.stdout);
  assert.match(
    notes[0],
    /^note: 1 prediction held chat-template special tokens \(first: <\|im_end\|> at .*hotpotqa\.jsonl:1\); removed before scoring, as bench run does$/,
  );
  // Without tokens there is nothing to say.
  writeFileSync(join(dir, 'hotpotqa.jsonl'), `${line('Paris', 'Paris')}\n`);
  const clean = await bench('score', dir);
  assert.equal(clean.code, 0, clean.stderr);
  assert.doesNotMatch(clean.stdout, /special tokens/);
});

// ---- bench compare / gate --paired: same ids, other samples ----------------------------------------------------

test('S2 bench compare: NIAH runs of other seeds (other needles) are not paired; the same seed is', async () => {
  // The ids are the same, the samples are not: the needles differ.
  const needles = (dir: string) =>
    readFileSync(join(dir, 'samples.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; answers: string[] })
      .sort((x, y) => x.id.localeCompare(y.id))
      .map((s) => `${s.id}=${s.answers.join('|')}`);
  assert.notDeepEqual(needles(A), needles(B));
  const r = await bench('compare', A, B);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /compare: PASS \(2 rows compared, 0 paired/);
  assert.match(
    r.stdout,
    /note: 6 sample ids held by both runs name other samples in each \(built with another --seed \(A 1, B 2\)\), so they are not paired; 2 rows left without a shared sample use the unpaired rule/,
  );
  assert.match(r.stdout, /niah_single_1\s+1K\s+full-context\s+full-context\s+0 of 3\/3 .*unpaired/);
  const same = await bench('compare', A, A);
  assert.equal(same.code, 0, same.stderr);
  assert.match(same.stdout, /compare: PASS \(2 rows compared, 2 paired/);
  assert.doesNotMatch(same.stdout, /other samples/);
});

test('S3 bench gate --paired against a baseline run of another seed: every key unpaired, and why', async () => {
  const r = await bench('gate', B, '--baseline', A, '--paired', '--max-drop', '100');
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stdout,
    /note: the baseline run and this run hold other samples under the same ids \(built with another --seed \(A 1, B 2\)\): every key uses the unpaired rule/,
  );
  assert.match(r.stdout, /gate: PASS \(2 keys compared: 0 paired, 2 unpaired\)/);
});

// ---- bench gate: the baseline file ------------------------------------------------------------------------------

/** The baseline written by bench baseline, edited. */
function editedBaseline(name: string, edit: (b: { entries: Array<Record<string, unknown>> }) => void): string {
  const b = JSON.parse(readFileSync(BASELINE, 'utf8'));
  edit(b);
  const file = join(root, name);
  writeFileSync(file, JSON.stringify(b, null, 2));
  return file;
}

test('S4 bench gate refuses a baseline with errors -1 or "none", one line naming entry, key and field', async () => {
  const neg = editedBaseline('neg.json', (b) => (b.entries[0].errors = -1));
  assertOneLine(
    await bench('gate', A, '--baseline', neg),
    2,
    /^bench gate: baseline .*neg\.json: entry 0 \(niah_single_1 \/ full-context \/ 1k\): 'errors' must be a whole number ≥ 0 \(got -1\); fix it or remake it with "bench baseline <run-dir> --out FILE"$/,
  );
  const none = editedBaseline('none.json', (b) => (b.entries[1].errors = 'none'));
  assertOneLine(
    await bench('gate', A, '--baseline', none),
    2,
    /^bench gate: baseline .*none\.json: entry 1 \(niah_single_1 \/ full-context \/ 2k\): 'errors' must be a whole number ≥ 0 \(got "none"\)/,
  );
});

test('S5 bench gate: a baseline with several problems gets one line per problem', async () => {
  const two = editedBaseline('two.json', (b) => {
    b.entries[0].errors = -1;
    b.entries[1].score = 2;
    delete b.entries[1].n;
  });
  const r = await bench('gate', A, '--baseline', two);
  assert.equal(r.code, 2, r.stderr);
  const lines = errLines(r);
  assert.equal(lines.length, 3, r.stderr);
  assert.match(
    lines[0],
    /^bench gate: baseline .*two\.json: entry 0 .*: 'errors' must be a whole number ≥ 0 \(got -1\)$/,
  );
  assert.match(
    lines[1],
    /^bench gate: baseline .*two\.json: entry 1 .*: 'score' must be a fraction from 0 to 1 \(got 2\)$/,
  );
  assert.match(
    lines[2],
    /^bench gate: baseline .*two\.json: entry 1 .*: 'n' must be a whole number > 0 \(got nothing\); fix it/,
  );
  assert.equal(r.stdout, '');
});

test('S6 bench gate refuses an f1 baseline against a run scored with memagent_niah, one line per key', async () => {
  const f1 = editedBaseline('f1.json', (b) => b.entries.forEach((e) => (e.metric = 'f1')));
  const r = await bench('gate', A, '--baseline', f1);
  assert.equal(r.code, 2, r.stderr);
  const lines = errLines(r);
  assert.equal(lines.length, 2, r.stderr);
  assert.match(
    lines[0],
    /^bench gate: niah_single_1 \/ full-context \/ 1k: the baseline is scored with f1, the run with memagent_niah$/,
  );
  assert.match(
    lines[1],
    /^bench gate: niah_single_1 \/ full-context \/ 2k: the baseline is scored with f1, the run with memagent_niah; scores of different metrics do not compare/,
  );
  // One entry of another metric is enough to refuse.
  const one = editedBaseline('f1-one.json', (b) => (b.entries[1].metric = 'f1'));
  assertOneLine(
    await bench('gate', A, '--baseline', one),
    2,
    /2k: the baseline is scored with f1, the run with memagent_niah/,
  );
});

test('S7 bench gate: a literal NaN in the baseline is one line naming the line', async () => {
  const text = readFileSync(BASELINE, 'utf8');
  const at = text.split('\n').findIndex((l) => /"score": /.test(l));
  const nan = join(root, 'nan.json');
  writeFileSync(nan, text.replace(/"score": [0-9.e-]+/, '"score": NaN'));
  assertOneLine(
    await bench('gate', A, '--baseline', nan),
    2,
    new RegExp(
      `^bench gate: baseline .*nan\\.json is not valid JSON: line ${at + 1} holds NaN, which is not a JSON number \\(JSON has no NaN or Infinity\\); fix it or remake it`,
    ),
  );
  const inf = join(root, 'inf.json');
  writeFileSync(inf, text.replace(/"score": [0-9.e-]+/, '"score": -Infinity'));
  assertOneLine(await bench('gate', A, '--baseline', inf), 2, /holds -Infinity, which is not a JSON number/);
});

// ---- bench merge: what differs, in the user's terms -------------------------------------------------------------

test('S8 bench merge of shards of different tasks names the tasks, not an internal field', async () => {
  const out = join(root, 'merged');
  const r = await bench('merge', S0, S1, '--out', out);
  assertOneLine(
    r,
    2,
    /^bench: shards differ in tasks: .*shard-0 has \["niah_single_1"\], .*shard-1 has \["niah_single_2"\]; merge only shards of one run$/,
  );
  assert.doesNotMatch(r.stderr, /identity/);
});
