// Inputs that never end, through the real binary: a device (/dev/zero), a pipe (`<(cmd)`) or a FIFO with no writer
// is refused with one line and exit 2 before anything reads it (reading one grew memory without bound and, being
// synchronous, shut out SIGTERM and SIGINT); a data row is bounded; and a run waiting on a server that never answers
// stops on SIGTERM or SIGINT with exit 130, its lock released. No timing: the signals are sent once the server has
// the run's first request, and the hang guard only kills a child that would otherwise hang the suite.
import { afterAll, test } from 'vitest';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertOneLine, runBench, type BenchResult } from '../../helpers/cli.js';
import { BIN } from '../../helpers/bench-serve.js';
import { fakeEndpoint, type FakeEndpoint } from '../../helpers/fake-endpoint.js';
import { scanRows } from '../../../harness/data/read.js';
import { UserError } from '../../../harness/errors.js';

const root = mkdtempSync(join(tmpdir(), 'bench-endless-'));
const env = { ...process.env, BENCH_CACHE_DIR: join(root, 'cache') };
const bench = (...args: string[]): Promise<BenchResult> => runBench(args, { cwd: root, env, timeoutMs: 60_000 });
/** As bench, with a shorter hang guard: a build that reads /dev/zero grows memory ~300 MB/s until it is killed. */
const benchZero = (...args: string[]): Promise<BenchResult> => runBench(args, { cwd: root, env, timeoutMs: 20_000 });

const rows = join(root, 'rows.jsonl');
writeFileSync(
  rows,
  [1, 2]
    .map((i) => JSON.stringify({ context: `The code is ${i}.`, question: 'Code?', answers: [String(i)] }))
    .join('\n'),
);
const fifo = join(root, 'fifo');
execFileSync('mkfifo', [fifo]);

const NOT_REGULAR = (what: string, kind: string) =>
  new RegExp(`^bench: ${what} is ${kind}, not a regular file; save its content to a file and pass that file$`);

/** `bash -c 'node bench ARGS'` so that ARGS may hold a process substitution. */
function viaBash(script: string): Promise<BenchResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { cwd: root, env: { ...env, BIN, NODE: process.execPath } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += String(d)));
    child.stderr.on('data', (d) => (stderr += String(d)));
    const guard = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(guard);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

test('--data /dev/zero is refused at once (it grew memory ~300 MB/s and ignored signals)', async () => {
  assertOneLine(
    await benchZero('run', 'jsonl', '--data', '/dev/zero', '--no-progress', '--out', join(root, 'z')),
    2,
    NOT_REGULAR('--data /dev/zero', 'a character device'),
  );
  assertOneLine(
    await benchZero('run', 'file:/dev/zero', '--no-progress', '--out', join(root, 'z2')),
    2,
    NOT_REGULAR('/dev/zero', 'a character device'),
  );
  assertOneLine(
    await benchZero('generate', 'jsonl', '--data', '/dev/zero', '--out', join(root, 'g.jsonl')),
    2,
    NOT_REGULAR('--data /dev/zero', 'a character device'),
  );
  assert.ok(!existsSync(join(root, 'z')), 'a run directory was made');
});

test('--data <(cmd) is one line naming a pipe, not a raw ESPIPE', async () => {
  const r = await viaBash(`"$NODE" "$BIN" run jsonl --data <(cat rows.jsonl) --no-progress --out p`);
  assertOneLine(r, 2, NOT_REGULAR('--data /dev/fd/\\d+', 'a pipe'));
});

test('a FIFO nobody writes to is refused instead of blocking in open()', async () => {
  assertOneLine(
    await bench('run', 'jsonl', '--data', fifo, '--no-progress', '--out', join(root, 'f')),
    2,
    NOT_REGULAR(`--data ${fifo}`, 'a pipe'),
  );
});

test('the other file flags refuse what is not a regular file too', async () => {
  const hqa = ['run', 'ruler-hqa', '--data', rows, '--no-progress', '--out', join(root, 'o')];
  assertOneLine(
    await benchZero(...hqa, '--pool', '/dev/zero'),
    2,
    NOT_REGULAR('--pool /dev/zero', 'a character device'),
  );
  const jsonl = ['run', 'jsonl', '--data', rows, '--no-progress', '--out', join(root, 'o')];
  assertOneLine(
    await benchZero(...jsonl, '--templates', '/dev/zero'),
    2,
    NOT_REGULAR('--templates /dev/zero', 'a character device'),
  );
  assertOneLine(await bench(...jsonl, '--templates', fifo), 2, NOT_REGULAR(`--templates ${fifo}`, 'a pipe'));
  assertOneLine(await benchZero('score', '/dev/zero'), 2, NOT_REGULAR('/dev/zero', 'a character device'));
  assertOneLine(await bench('score', fifo), 2, NOT_REGULAR(fifo, 'a pipe'));
  assertOneLine(
    await benchZero('gate', root, '--baseline', '/dev/zero'),
    2,
    NOT_REGULAR('--baseline /dev/zero', 'a character device'),
  );
  assertOneLine(await benchZero('compare', root, '/dev/zero'), 2, NOT_REGULAR('/dev/zero', 'a character device'));
});

test('a data row without a line end is bounded, not collected forever', () => {
  const file = join(root, 'no-newline.jsonl');
  writeFileSync(file, '{"context": "' + 'x'.repeat(5000));
  assert.throws(
    () => scanRows(file, () => undefined, { maxRowBytes: 1024 }),
    (e: unknown) =>
      e instanceof UserError && /no-newline\.jsonl: line 1 runs past 0 MiB without a line end/.test(e.message),
  );
  const list = join(root, 'endless-item.json');
  writeFileSync(list, '[{"context": "' + 'x'.repeat(5000));
  assert.throws(
    () => scanRows(list, () => undefined, { maxRowBytes: 1024 }),
    (e: unknown) => e instanceof UserError && /item 0 of the JSON list runs past/.test(e.message),
  );
});

// ---- signals ---------------------------------------------------------------------------------------------------

let silent: FakeEndpoint | undefined;
afterAll(async () => {
  await silent?.close();
});

for (const sig of ['SIGTERM', 'SIGINT'] as const) {
  test(`${sig} stops a run whose server never answers: exit 130, lock released`, async () => {
    let firstRequest!: () => void;
    const requested = new Promise<void>((r) => (firstRequest = r));
    // Never answers a chat request; tells the test when one arrives.
    silent = await fakeEndpoint(() => firstRequest());
    const out = join(root, `sig-${sig}`);
    const child = spawn(
      process.execPath,
      [
        BIN,
        'run',
        'jsonl',
        '--data',
        rows,
        '--model',
        silent.url,
        '--model-name',
        'm',
        '--no-progress',
        '--no-cache',
        '--out',
        out,
      ],
      { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += String(d)));
    child.stdout.resume();
    const guard = setTimeout(() => child.kill('SIGKILL'), 90_000);
    const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
      child.on('close', (code, signal) => r({ code, signal })),
    );
    await Promise.race([requested, ended]);
    child.kill(sig);
    const { code, signal } = await ended;
    clearTimeout(guard);
    await silent.close();
    silent = undefined;
    assert.equal(signal, null, `killed by ${signal} (the hang guard): ${stderr}`);
    assert.equal(code, 130, `exit ${code}: ${stderr}`);
    assert.match(stderr, /interrupt: no new samples start/);
    assert.ok(!/\n\s+at .+:\d+:\d+/.test(stderr), `stack trace on stderr:\n${stderr}`);
    assert.ok(!existsSync(join(out, 'run.lock')), 'run.lock left behind');
  });
}

test('a FIFO where a run directory keeps manifest.json is refused instead of blocking the resume', async () => {
  const dir = join(root, 'fifo-manifest');
  mkdirSync(dir);
  execFileSync('mkfifo', [join(dir, 'manifest.json')]);
  assertOneLine(
    await bench('run', 'jsonl', '--data', rows, '--no-progress', '--out', dir),
    2,
    new RegExp(
      `^bench: ${dir}/manifest\\.json is a pipe, not a regular file; move the directory away or use another --out$`,
    ),
  );
});
