// Bad input through the real binary (dist/, built by `npm test`): each case is one clear stderr line, the documented
// exit code, and nothing written (a run directory that exists is byte for byte as it was).
import { beforeAll, test } from 'vitest';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { assertOneLine, dirFingerprint, runBench, type BenchResult } from '../../helpers/cli.js';
import { hotpotRows, writeHotpot } from '../../helpers/hotpot.js';
import { datasetPath } from '../../../harness/paths.js';

const root = mkdtempSync(join(tmpdir(), 'bench-bad-input-'));
const env = { ...process.env, BENCH_CACHE_DIR: join(root, 'cache') };
/** Runs `bench ARGS` in the scratch directory (so nothing lands in the checkout). */
const bench = (...args: string[]): Promise<BenchResult> => runBench(args, { cwd: root, env });

/** A 3-question HotpotQA file: a tiny pool, so nothing here tokenizes the bundled 2.1M-token pool. */
const small = writeHotpot(root, 'small.json');
/** A file that is a plain file, for paths that need a directory (and vice versa). */
const aFile = join(root, 'a-file');
writeFileSync(aFile, 'not a directory\n');

/** Lines of a run's samples.jsonl. */
const records = (dir: string) =>
  readFileSync(join(dir, 'samples.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

// A finished run at 1k: the 3 questions' own paragraphs alone are 1,223-1,553 tokens, so every sample is over target.
const RUN = join(root, 'run-1k');
const RUN_ARGS = [
  'run',
  'ruler-hqa',
  '--data',
  small,
  '--lengths',
  '1k',
  '--samples',
  '2',
  '--no-progress',
  '--out',
  RUN,
];
let overTargetRun: BenchResult;
beforeAll(async () => {
  overTargetRun = await bench(...RUN_ARGS);
  assert.equal(overTargetRun.code, 0, overTargetRun.stderr);
  const base = await bench('baseline', RUN, '--out', join(root, 'baseline.json'));
  assert.equal(base.code, 0, base.stderr);
});

// ---- A. contexts never exceed their target silently ------------------------------------------------------------

test('A1 --lengths 1k: samples whose own paragraphs exceed 1k run, are scored, and are marked over-target', () => {
  assert.equal(overTargetRun.stderr, '');
  assert.match(overTargetRun.stdout, /over target/);
  const rows = records(RUN);
  assert.equal(rows.length, 2);
  for (const r of rows) {
    assert.equal(r.status, 'over-target');
    assert.ok(r.builtTokens > 1024, `${r.id}: ${r.builtTokens}`);
    assert.deepEqual(
      [r.metadata.over_target, r.metadata.target_tokens, r.metadata.built_tokens],
      [true, 1024, r.builtTokens],
    );
    assert.equal(typeof r.score, 'number');
  }
  const csv = readFileSync(join(RUN, 'summary.csv'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.split(','));
  assert.equal(csv[1][csv[0].indexOf('over_target')], '2');
});

test('A2 a HotpotQA paragraph of 200,000 characters is refused at load, naming the record', async () => {
  const rows = hotpotRows(3);
  rows[1].context[0][1] = ['x'.repeat(200_000)];
  const file = writeHotpot(root, 'huge-paragraph.json', rows);
  const out = join(root, 'out-huge');
  const r = await bench('run', 'ruler-hqa', '--data', file, '--lengths', '8k', '--samples', '1', '--out', out);
  assertOneLine(
    r,
    2,
    /huge-paragraph\.json: record 1 .* paragraph .* of 200,0\d\d characters; .* more than 100,000 is refused/,
  );
  assert.ok(!existsSync(out));
});

// ---- B. input validation ---------------------------------------------------------------------------------------

test('B1 --lengths 99999m is refused at once with the maximum and why', async () => {
  assertOneLine(
    await bench('run', 'ruler-hqa', '--lengths', '99999m'),
    2,
    /'99999m' is 104,856,551,424 tokens, above the maximum of 64m \(18× the longest published length/,
  );
});

test('B2 --lengths 99999m --dry-run is refused the same way', async () => {
  assertOneLine(await bench('run', 'ruler-hqa', '--lengths', '99999m', '--dry-run'), 2, /above the maximum of 64m/);
});

test('B3 --lengths docs:99999999 is refused above 500,000 documents', async () => {
  assertOneLine(
    await bench('run', 'ruler-hqa', '--lengths', 'docs:99999999', '--dry-run'),
    2,
    /above the maximum of 500,000 documents/,
  );
});

test('B4 a HotpotQA --data file that is not UTF-8: strict decoding, with the byte offset', async () => {
  const json = Buffer.from(JSON.stringify(hotpotRows(1)), 'utf8');
  const at = json.indexOf('"question"') + 12;
  const bytes = Buffer.concat([json.subarray(0, at), Buffer.from([0xe9]), json.subarray(at)]);
  const file = join(root, 'latin1.json');
  writeFileSync(file, bytes);
  const out = join(root, 'out-latin1');
  assertOneLine(
    await bench('run', 'ruler-hqa', '--data', file, '--lengths', '8k', '--out', out),
    2,
    new RegExp(`latin1\\.json: invalid UTF-8 at byte offset ${at} \\(item 0\\); the file must be UTF-8 text`),
  );
  assert.ok(!existsSync(out));
});

test('B5 a LongBench --data file that is not UTF-8: strict decoding, with the byte offset', async () => {
  const dir = join(root, 'longbench-bad');
  mkdirSync(dir);
  const row = Buffer.from(
    readFileSync(datasetPath('longbench', 'fixtures', 'hotpotqa.jsonl'), 'utf8').split('\n')[0],
    'utf8',
  );
  const at = row.indexOf('Passage 1');
  writeFileSync(
    join(dir, 'hotpotqa.jsonl'),
    Buffer.concat([row.subarray(0, at), Buffer.from([0xff, 0xfe]), row.subarray(at), Buffer.from('\n')]),
  );
  const out = join(root, 'out-lb');
  assertOneLine(
    await bench('run', 'longbench/hotpotqa', '--data', dir, '--out', out),
    2,
    new RegExp(
      `hotpotqa\\.jsonl is not UTF-8 text: byte 0xFF at byte offset ${at} is not valid UTF-8; pass LongBench's hotpotqa\\.jsonl`,
    ),
  );
  assert.ok(!existsSync(out));
});

test('B6 a HotpotQA file holding [] is refused: no questions in FILE', async () => {
  const file = writeHotpot(root, 'empty.json', []);
  const out = join(root, 'out-empty');
  assertOneLine(
    await bench('run', 'ruler-hqa', '--data', file, '--lengths', '8k', '--out', out),
    2,
    /^bench: .*empty\.json: holds no rows/,
  );
  assert.ok(!existsSync(out));
});

test('B7 --placement with a record lacking supporting_facts is refused, naming the record', async () => {
  const rows = hotpotRows(3);
  delete (rows[2] as Record<string, unknown>).supporting_facts;
  const file = writeHotpot(root, 'no-facts.json', rows);
  const out = join(root, 'out-nofacts');
  assertOneLine(
    await bench('run', 'ruler-hqa', '--data', file, '--placement', '0-20', '--lengths', '8k', '--out', out),
    2,
    /no-facts\.json: record 2 \(_id "[0-9a-f]+"\) has supporting_facts naming 0 of its paragraphs; --placement 0-20 places/,
  );
  assert.ok(!existsSync(out));
});

test('B8 ctx-dist (every placement) with a record lacking supporting_facts is refused the same way', async () => {
  const rows = hotpotRows(2);
  rows[0].supporting_facts = [];
  const file = writeHotpot(root, 'no-facts-ctx.json', rows);
  assertOneLine(
    await bench('run', 'ctx-dist', '--data', file, '--lengths', '8k', '--dry-run'),
    2,
    /record 0 .* ctx-dist places a question's two supporting paragraphs/,
  );
});

test('B9 --samples 1000000000 is capped with a note on stderr, never silently', async () => {
  const r = await bench(
    'run',
    'ruler-hqa',
    '--data',
    small,
    '--lengths',
    '8k,16k',
    '--samples',
    '1000000000',
    '--dry-run',
  );
  assertOneLine(r, 0, /^note: ruler-hqa has only 3 samples at 8k, 16k: running 3 there \(--samples 1000000000\)$/);
  assert.match(r.stdout, /ruler-hqa\s+8k\s+memagent\s+3\s/);
});

test('B10 bench generate --samples above what the task has: the same note', async () => {
  const out = join(root, 'gen.jsonl');
  const r = await bench('generate', 'ruler-hqa', '--data', small, '--lengths', '8k', '--samples', '50', '--out', out);
  assertOneLine(r, 0, /^note: ruler-hqa has only 3 samples at 8k/);
  assert.equal(readFileSync(out, 'utf8').trim().split('\n').length, 3);
});

test('B11 --seed above 2^53 - 1 is refused (seeds are hashed whole, so every safe integer is exact)', async () => {
  assertOneLine(
    await bench('run', 'ruler-hqa', '--seed', '99999999999999999999', '--dry-run'),
    2,
    /^bench: --seed must be at most 9007199254740991 \(larger whole numbers lose precision\), got 99999999999999999999$/,
  );
});

test('B12 --lengths -5k: a negative length, not "argument is ambiguous"', async () => {
  assertOneLine(
    await bench('run', 'ruler-hqa', '--lengths', '-5k'),
    2,
    /bad --lengths '-5k': '-5k' is negative; a length must be positive/,
  );
});

test('B13 --lengths=-5k: the same message', async () => {
  assertOneLine(await bench('run', 'ruler-hqa', '--lengths=-5k'), 2, /'-5k' is negative/);
});

test('B14 --samples -1: "--samples must be at least 1, got -1"', async () => {
  assertOneLine(await bench('run', 'ruler-hqa', '--samples', '-1'), 2, /^bench: --samples must be at least 1, got -1$/);
});

test('B15 --samples=-1 and bench generate --samples -1: the same message', async () => {
  assertOneLine(await bench('run', 'ruler-hqa', '--samples=-1'), 2, /--samples must be at least 1, got -1$/);
  assertOneLine(
    await bench('generate', 'ruler-hqa', '--samples', '-1', '--out', join(root, 'never.jsonl')),
    2,
    /--samples must be at least 1, got -1$/,
  );
  assert.ok(!existsSync(join(root, 'never.jsonl')));
});

test("B16 bench run '' : task name is empty", async () => {
  assertOneLine(await bench('run', ''), 2, /^bench: task name is empty: pass a task such as ruler-hqa/);
});

test('B17 bench run , : task name is empty', async () => {
  assertOneLine(await bench('run', ','), 2, /^bench: task name is empty:/);
});

test('B18 bench run ruler-hqa,,niah_single_1: the empty name in the list is refused', async () => {
  assertOneLine(
    await bench('run', 'ruler-hqa,,niah_single_1', '--dry-run'),
    2,
    /task name is empty in 'ruler-hqa,,niah_single_1'/,
  );
});

test('B19 a mistyped task gets the closest name: ruler-hq → ruler-hqa', async () => {
  assertOneLine(await bench('run', 'ruler-hq'), 2, /unknown task 'ruler-hq' \(did you mean ruler-hqa\?\)/);
});

test('B20 a mistyped flag gets the closest flag: --sample → --samples', async () => {
  assertOneLine(
    await bench('run', 'ruler-hqa', '--sample', '3'),
    2,
    /unknown option '--sample' \(did you mean --samples\?\)/,
  );
});

test('B21 mistyped command and method names get suggestions too', async () => {
  assertOneLine(await bench('rn', 'ruler-hqa'), 2, /unknown command 'rn' \(did you mean run\?\)/);
  assertOneLine(
    await bench('run', 'ruler-hqa', '--method', 'memagnet'),
    2,
    /unknown method 'memagnet' \(did you mean memagent\?\)/,
  );
  assertOneLine(await bench('score', RUN, '--jsn'), 2, /unknown option '--jsn' \(did you mean --json\?\)/);
});

test('B22 --lengths docs:50,docs:200 is accepted like docs:50,200', async () => {
  const r = await bench(
    'run',
    'ruler-hqa',
    '--data',
    small,
    '--lengths',
    'docs:50,docs:200',
    '--samples',
    '1',
    '--dry-run',
  );
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /ruler-hqa: lengths docs:50, docs:200 \(2 points\)/);
});

test('B23 --out pointing at a file: one line, the file untouched', async () => {
  const before = readFileSync(aFile, 'utf8');
  assertOneLine(
    await bench('run', 'ruler-hqa', '--lengths', '8k', '--out', aFile),
    2,
    /--out .*a-file is a file, not a directory; pass a directory for the run/,
  );
  assert.equal(readFileSync(aFile, 'utf8'), before);
});

test('B24 --out "" is refused: it names no directory', async () => {
  assertOneLine(
    await bench('run', 'ruler-hqa', '--lengths', '8k', '--out', ''),
    2,
    /^bench: --out is empty: pass a directory for the run/,
  );
});

test('B25 --data DIR for ruler-hqa (a directory where a file is expected)', async () => {
  assertOneLine(
    await bench('run', 'ruler-hqa', '--data', root, '--lengths', '8k', '--dry-run'),
    2,
    /--data .* holds no MemAgent RULER-HQA files .*; for a HotpotQA dev file pass the file itself/,
  );
});

test('B26 bench gate --junit in a place that cannot be written: one line before any work, no stray file', async () => {
  const junit = join(aFile, 'gate.xml');
  const r = await bench('gate', RUN, '--baseline', join(root, 'baseline.json'), '--junit', junit);
  assertOneLine(
    r,
    2,
    /^bench gate: --junit .*a-file\/gate\.xml: .*a-file is a file, so no directory can be made under it; pass a file in a writable directory/,
  );
  assert.equal(r.stdout, '');
});

test('B27 other output paths: generate/baseline --out under a file, report --out a file', async () => {
  const fingerprint = dirFingerprint(RUN);
  assertOneLine(
    await bench('generate', 'ruler-hqa', '--data', small, '--lengths', '8k', '--out', join(aFile, 'x.jsonl')),
    2,
    /--out .*x\.jsonl: .*a-file is a file/,
  );
  assertOneLine(await bench('baseline', RUN, '--out', join(aFile, 'b.json')), 2, /--out .*b\.json: .*a-file is a file/);
  assertOneLine(await bench('report', RUN, '--out', aFile), 2, /--out .*a-file is a file, not a directory/);
  assert.equal(dirFingerprint(RUN), fingerprint);
});

test('B28 bench score reads a gzip-compressed .jsonl transparently', async () => {
  const gz = join(root, 'samples-gz.jsonl');
  writeFileSync(gz, gzipSync(readFileSync(join(RUN, 'samples.jsonl'))));
  const plain = await bench('score', join(RUN, 'samples.jsonl'));
  const packed = await bench('score', gz);
  assert.equal(packed.code, 0, packed.stderr);
  const table = (s: string) => s.split('\n').filter((l) => /^ruler-hqa\s+memagent/.test(l));
  assert.equal(table(plain.stdout).length, 1);
  assert.deepEqual(table(packed.stdout), table(plain.stdout));
});

test('B29 bench score on a binary .jsonl: one line, no bytes echoed', async () => {
  const bin = join(root, 'binary.jsonl');
  writeFileSync(bin, Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00, 0x08, 0x00, 0x9c, 0xff, 0x0a]));
  const r = await bench('score', bin);
  assertOneLine(r, 2, /binary\.jsonl is binary, not text: a NUL byte at byte offset 5; expected JSON lines/);
  assert.equal(r.stdout, '');
  assert.doesNotMatch(r.stderr, /PK/);
});

test('B30 bench score: chat-template special tokens are cleaned from predictions; the raw output is kept', async () => {
  const dir = join(root, 'special-tokens-run');
  mkdirSync(dir);
  const base = {
    task: 'ruler-hqa',
    taskVersion: '1',
    method: 'memagent',
    model: 'm',
    lengthKind: 'tokens',
    length: 8192,
    lengthLabel: '8k',
    builtTokens: 8000,
    question: 'q',
    status: 'ok',
    calls: 2,
    usage: { promptTokens: 1, completionTokens: 1 },
    elapsedMs: 1,
    score: 0,
    scores: {},
  };
  const rows = [
    {
      ...base,
      id: 'ruler-hqa/8k/0',
      index: 0,
      answers: ['yes'],
      metric: 'sub_em',
      prediction: 'yes<|im_end|>',
      rawOutput: 'Therefore, the answer is yes<|im_end|>',
      metadata: {},
    },
    {
      ...base,
      id: 'ruler-hqa/8k/1',
      index: 1,
      answers: ['yes'],
      metric: 'sub_em',
      prediction: 'yes<\uFF5Cend\u2581of\u2581sentence\uFF5C>',
      rawOutput: 'the answer is yes',
      metadata: {},
    },
    {
      ...base,
      task: 'longbench/hotpotqa',
      lengthKind: 'native',
      length: 0,
      lengthLabel: 'all',
      id: 'longbench/hotpotqa/all/0',
      index: 0,
      answers: ['yes'],
      metric: 'qa_f1',
      prediction: '<|im_start|>yes<|endoftext|>',
      rawOutput: 'x',
      metadata: { dataset: 'hotpotqa' },
    },
  ];
  writeFileSync(join(dir, 'samples.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const fingerprint = dirFingerprint(dir);
  const r = await bench('score', dir, '--json');
  assert.equal(r.code, 0, r.stderr);
  const table = JSON.parse(r.stdout) as { rows: { task: string; mean: number; extras: Record<string, number> }[] };
  const hqa = table.rows.find((x) => x.task === 'ruler-hqa')!;
  assert.equal(hqa.mean, 1);
  assert.equal(hqa.extras.em, 1, 'em needs the token gone');
  assert.equal(table.rows.find((x) => x.task === 'longbench/hotpotqa')!.mean, 1, 'qa_f1 needs the tokens gone');
  assert.equal(dirFingerprint(dir), fingerprint, 'scoring never rewrites the recorded output');
});

test('B31 resume over a corrupt middle line of samples.jsonl names file:line and changes nothing', async () => {
  const dir = join(root, 'run-corrupt');
  cpSync(RUN, dir, { recursive: true });
  const file = join(dir, 'samples.jsonl');
  const lines = readFileSync(file, 'utf8').split('\n');
  lines[0] = lines[0].slice(0, 40);
  writeFileSync(file, lines.join('\n'));
  const fingerprint = dirFingerprint(dir);
  const r = await bench(...RUN_ARGS.slice(0, -1), dir);
  assertOneLine(
    r,
    2,
    /samples\.jsonl:1: not valid JSON \(.+\); only a torn last line is skipped: fix or delete line 1, or use another --out$/,
  );
  assert.equal(dirFingerprint(dir), fingerprint);
});
