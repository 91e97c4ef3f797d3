// Parsing `bench compare` and `bench gate --paired/--alpha`.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { parseCli } from '../../cli/parse.js';

test('bench compare: two run directories, or one with --methods A,B; options parsed', () => {
  assert.deepEqual(parseCli(['compare', 'runs/a', 'runs/b']), {
    command: 'compare',
    dirs: ['runs/a', 'runs/b'],
    methods: undefined,
    alpha: undefined,
    maxDrop: undefined,
    z: undefined,
    out: undefined,
  });
  assert.deepEqual(
    parseCli([
      'compare',
      'runs/a',
      '--methods',
      'full-context, memagent',
      '--alpha',
      '0.01',
      '--max-drop',
      '2',
      '--z',
      '3',
      '--out',
      'o',
    ]),
    {
      command: 'compare',
      dirs: ['runs/a'],
      methods: ['full-context', 'memagent'],
      alpha: 0.01,
      maxDrop: 2,
      z: 3,
      out: 'o',
    },
  );
  assert.throws(() => parseCli(['compare', 'runs/a']), /needs --methods A,B/);
  assert.throws(() => parseCli(['compare', 'runs/a', '--methods', 'memagent']), /needs --methods A,B/);
  assert.throws(() => parseCli(['compare', 'a', 'b', 'c']), /two run directories/);
  assert.throws(() => parseCli(['compare', 'a', 'b', '--alpha', '0']), /strictly between 0 and 1/);
  assert.throws(
    () => parseCli(['compare', 'a', 'b', '--bogus']),
    (e: Error) => e.name === 'UserError',
  );
});

test('bench gate: --paired and --alpha', () => {
  const cmd = parseCli(['gate', 'runs/b', '--baseline', 'runs/a', '--paired', '--alpha', '0.1']);
  assert.equal(cmd.command, 'gate');
  if (cmd.command !== 'gate') return;
  assert.equal(cmd.paired, true);
  assert.equal(cmd.alpha, 0.1);
  const plain = parseCli(['gate', 'runs/b', '--baseline', 'x.json']);
  assert.ok(plain.command === 'gate' && plain.paired === undefined && plain.alpha === undefined);
});
