import { test } from 'vitest';
import assert from 'node:assert/strict';
import { parseCli } from '../../../harness/cli/parse.js';
import { UserError } from '../../../harness/errors.js';

test('bench run with defaults', () => {
  const cmd = parseCli(['run', 'ruler-hqa', '--lengths', '32k..3.5m']);
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
  const cmd = parseCli([
    'run', 'ruler-hqa,niah_single_1', '--samples', '4', '--seed', '7', '--out', 'x', '--method', 'memagent,full-context',
    '--model', 'http://127.0.0.1:8000/v1', '--endpoint', 'http://127.0.0.1:8001/v1', '--model-name', 'qwen', '--api-key-env', 'KEY',
    '--concurrency', '3', '--chunk-tokens', '1000', '--memory-tokens', '256', '--max-context', '4096', '--final', 'boxed',
    '--shard', '1/4', '--placement', '20-80', '--no-progress',
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
    ['run'], ['run', 'ruler-hqa', '--samples', '0'], ['run', 'ruler-hqa', '--lengths', 'zz'], ['run', 'ruler-hqa', '--bogus'],
    ['run', 'ruler-hqa', '--method', 'magic'], ['run', 'ruler-hqa', '--model', 'ftp://x'], ['run', 'ruler-hqa', '--model', 'http://h/v1'],
    ['run', 'ruler-hqa', '--shard', '4/4'], ['run', 'ruler-hqa', '--final', 'x'], ['frobnicate'], ['gate', 'dir'],
    ['run', 'ruler-hqa', '--model', 'http://u:p@h/v1', '--model-name', 'm'], ['run', 'ruler-hqa', '--temperature', '9'],
  ];
  for (const argv of bad) assert.throws(() => parseCli(argv), (e: unknown) => e instanceof UserError && e.exitCode === 2, argv.join(' '));
});

test('help and version', () => {
  assert.equal(parseCli([]).command, 'help');
  assert.equal(parseCli(['--help']).command, 'help');
  assert.deepEqual(parseCli(['run', '--help']), { command: 'help', topic: 'run' });
  assert.equal(parseCli(['--version']).command, 'version');
  assert.equal(parseCli(['tasks']).command, 'tasks');
});
