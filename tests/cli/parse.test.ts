import { test } from 'vitest';
import assert from 'node:assert/strict';
import { helpText } from '../../cli/help.js';
import { commandOptions, parseCli } from '../../cli/parse.js';
import { builtinCatalog, FAMILIES } from '../../generators/index.js';
import { Catalog, type Family } from '../../harness/registry/family.js';

/** The CLI's parser with the built-in families, as cli/main.ts calls it. */
const catalog = builtinCatalog();
const parse = (argv: string[], env: NodeJS.ProcessEnv = process.env) => parseCli(argv, env, catalog);
import { UserError } from '../../harness/errors.js';

test('bench run with defaults', () => {
  const cmd = parse(['run', 'ruler-hqa', '--lengths', '32k..3.5m']);
  assert.equal(cmd.command, 'run');
  if (cmd.command !== 'run') return;
  const c = cmd.config;
  assert.deepEqual(c.tasks, ['ruler-hqa']);
  assert.equal(c.lengths?.length, 8);
  assert.equal(c.samples, undefined);
  assert.equal(c.seed, 42);
  assert.equal(c.model, 'local');
  assert.deepEqual(c.methods, ['memagent']);
  assert.equal(c.methodSettings['chunk-tokens'], 5000);
  assert.equal(c.methodSettings['memory-tokens'], 1024);
  // No run-wide default: each task's own protocol decoding applies (harness/protocol/decoding.ts).
  assert.equal(c.methodSettings.temperature, undefined);
  assert.equal(c.methodSettings['top-p'], undefined);
  assert.equal(c.methodSettings.final, 'phrase');
});

test('bench run with every option', () => {
  const cmd = parse([
    'run',
    'ruler-hqa,niah_single_1',
    '--samples',
    '4',
    '--seed',
    '7',
    '--out',
    'x',
    '--method',
    'memagent,full-context',
    '--model',
    'http://127.0.0.1:8000/v1',
    '--endpoint',
    'http://127.0.0.1:8001/v1',
    '--model-name',
    'qwen',
    '--api-key-env',
    'KEY',
    '--concurrency',
    '3',
    '--chunk-tokens',
    '1000',
    '--memory-tokens',
    '256',
    '--max-context',
    '4096',
    '--final',
    'boxed',
    '--shard',
    '1/4',
    '--placement',
    '20-80',
    '--no-progress',
  ]);
  assert.equal(cmd.command, 'run');
  if (cmd.command !== 'run') return;
  const c = cmd.config;
  assert.deepEqual(c.tasks, ['ruler-hqa', 'niah_single_1']);
  assert.deepEqual(c.model, ['http://127.0.0.1:8000/v1', 'http://127.0.0.1:8001/v1']);
  assert.deepEqual(c.methods, ['memagent', 'full-context']);
  assert.deepEqual(c.shard, { index: 1, count: 4 });
  assert.equal(c.options.placement, '20-80');
  assert.equal(c.progress, false);
  assert.equal(c.methodSettings.final, 'boxed');
  assert.equal(c.methodSettings['chunk-tokens'], 1000);
  assert.equal(c.methodSettings['memory-tokens'], 256);
  assert.equal(c.methodSettings['max-context'], 4096);
  assert.equal(c.samples, 4);
});

test('usage errors are UserErrors with exit code 2', () => {
  const bad = [
    ['run'],
    ['run', 'ruler-hqa', '--samples', '0'],
    ['run', 'ruler-hqa', '--lengths', 'zz'],
    ['run', 'ruler-hqa', '--bogus'],
    ['run', 'ruler-hqa', '--method', 'magic'],
    ['run', 'ruler-hqa', '--model', 'ftp://x'],
    ['run', 'ruler-hqa', '--model', 'http://h/v1'],
    ['run', 'ruler-hqa', '--shard', '4/4'],
    ['run', 'ruler-hqa', '--final', 'x'],
    ['frobnicate'],
    ['gate', 'dir'],
    ['run', 'ruler-hqa', '--model', 'http://u:p@h/v1', '--model-name', 'm'],
    ['run', 'ruler-hqa', '--temperature', '9'],
  ];
  for (const argv of bad)
    assert.throws(
      () => parse(argv),
      (e: unknown) => e instanceof UserError && e.exitCode === 2,
      argv.join(' '),
    );
});

test('help and version', () => {
  assert.equal(parse([]).command, 'help');
  assert.equal(parse(['--help']).command, 'help');
  assert.deepEqual(parse(['run', '--help']), { command: 'help', topic: 'run' });
  assert.equal(parse(['--version']).command, 'version');
  assert.equal(parse(['tasks']).command, 'tasks');
});

test("negative values reach the flag's own check, as --flag -1 or --flag=-1", () => {
  for (const argv of [
    ['run', 'ruler-hqa', '--samples', '-1'],
    ['run', 'ruler-hqa', '--samples=-1'],
  ]) {
    assert.throws(() => parse(argv), /^UserError: --samples must be at least 1, got -1$/);
  }
  assert.throws(() => parse(['run', 'ruler-hqa', '--lengths', '-5k']), /'-5k' is negative/);
  assert.throws(() => parse(['run', 'ruler-hqa', '--temperature', '-0.5']), /--temperature must be a number in/);
  // A boolean flag never takes the next argument.
  assert.throws(
    () => parse(['run', 'ruler-hqa', '--dry-run', '-1']),
    /^UserError: bench run: unexpected argument '-1': --dry-run takes no value/,
  );
});

test('unknown flags and empty names are refused with what to do', () => {
  assert.throws(
    () => parse(['run', 'ruler-hqa', '--sample', '3']),
    /unknown option '--sample' \(did you mean --samples\?\)/,
  );
  assert.throws(
    () => parse(['run', 'ruler-hqa', '--sample=3']),
    /unknown option '--sample' \(did you mean --samples\?\)/,
  );
  assert.throws(
    () => parse(['run', 'ruler-hqa', '-samples', '3']),
    /unknown option '-samples' \(did you mean --samples\?\)/,
  );
  assert.throws(() => parse(['gate', 'r', '--baseline', 'b', '--junt', 'x']), /did you mean --junit\?/);
  assert.throws(
    () => parse(['run', 'ruler-hqa', '--xyzzy']),
    (e: unknown) => e instanceof UserError && !/did you mean/.test(e.message),
  );
  assert.throws(() => parse(['run', '']), /^UserError: task name is empty:/);
  assert.throws(() => parse(['run', ' , ']), /^UserError: task name is empty:/);
  assert.throws(() => parse(['generate', '', '--out', 'x.jsonl']), /task name is empty/);
  assert.throws(() => parse(['run', 'ruler-hqa', '--out', '']), /--out is empty/);
  assert.throws(() => parse(['run', 'ruler-hqa', '--data', ' ']), /--data is empty/);
  assert.throws(() => parse(['gate', 'r', '--baseline', 'b', '--junit', '']), /--junit is empty/);
  assert.throws(() => parse(['serv']), /unknown command 'serv' \(did you mean serve\?\)/);
});

test('whole numbers above Number.MAX_SAFE_INTEGER are refused, not rounded', () => {
  assert.throws(
    () => parse(['run', 'ruler-hqa', '--seed', '99999999999999999999']),
    /--seed must be at most 9007199254740991 \(larger whole numbers lose precision\), got 99999999999999999999/,
  );
  const cmd = parse(['run', 'ruler-hqa', '--seed', String(Number.MAX_SAFE_INTEGER)]);
  assert.equal(cmd.command === 'run' && cmd.config.seed, Number.MAX_SAFE_INTEGER);
});

test('bench export and bench score --metric', () => {
  assert.deepEqual(parse(['export', 'runs/x', '--format', 'ruler', '--out', 'ruler-root']), {
    command: 'export',
    runDir: 'runs/x',
    format: 'ruler',
    out: 'ruler-root',
  });
  assert.deepEqual(
    parse(['export', 'runs/x', '--format', 'memagent', '--out', 'm', '--tasks', 'ruler-hqa, niah_single_1']),
    {
      command: 'export',
      runDir: 'runs/x',
      format: 'memagent',
      out: 'm',
      tasks: ['ruler-hqa', 'niah_single_1'],
    },
  );
  assert.deepEqual(parse(['score', 'f.jsonl', '--metric', 'sub_em']), {
    command: 'score',
    target: 'f.jsonl',
    format: 'auto',
    json: false,
    metric: 'sub_em',
  });
  assert.deepEqual(parse(['score', 'f.jsonl']), {
    command: 'score',
    target: 'f.jsonl',
    format: 'auto',
    json: false,
  });
  for (const argv of [
    ['export', 'r', '--out', 'o'],
    ['export', 'r', '--format', 'native', '--out', 'o'],
    ['export', 'r', '--format', 'ruler'],
    ['export', '--format', 'ruler', '--out', 'o'],
  ]) {
    assert.throws(
      () => parse(argv),
      (e: unknown) => e instanceof UserError && e.exitCode === 2,
      argv.join(' '),
    );
  }
});

test("a family's task option is a flag of the commands it names, in their help, with its own requirement", () => {
  const family: Family = {
    name: 'toy',
    tasks: [],
    taskOptions: [
      {
        name: 'depth',
        arg: 'D',
        help: ['toy needle depth, 0-100', 'second line                    [50]'],
        tasks: ['toy'],
        commands: ['run'],
        requires: { option: 'data', message: '--depth goes with --data: it places the toy needle in your file' },
      },
    ],
  };
  const withToy = new Catalog([...FAMILIES, family]);
  const cmd = parseCli(['run', 'ruler-hqa', '--depth', '30', '--data', 'f.jsonl'], {}, withToy);
  assert.deepEqual(cmd.command === 'run' && cmd.config.options, { data: 'f.jsonl', depth: '30' });
  assert.throws(
    () => parseCli(['run', 'ruler-hqa', '--depth', '30'], {}, withToy),
    (e: unknown) => e instanceof UserError && /^--depth goes with --data: it/.test(e.message),
  );
  assert.throws(() => parseCli(['run', 'ruler-hqa', '--depth', '30']), /unknown option '--depth'/);
  assert.throws(
    () => parseCli(['generate', 'ruler-hqa', '--depth', '30', '--out', 'o'], {}, withToy),
    /bench generate: unknown option '--depth'/,
  );
  const run = helpText('run', withToy);
  assert.match(run, /^ {2}--depth D {13}toy needle depth, 0-100\n {24}second line {20}\[50\]$/m);
  assert.doesNotMatch(helpText('generate', withToy), /--depth/);
  assert.ok('depth' in commandOptions('run', withToy) && !('depth' in commandOptions('generate', withToy)));
});
