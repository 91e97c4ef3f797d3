// Each subcommand's help lists exactly the flags its parser accepts, so help cannot drift from cli/parse.ts.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { helpText } from '../../cli/help.js';
import { SUBCOMMANDS, commandOptions, parseCli } from '../../cli/parse.js';
import { builtinCatalog } from '../../generators/index.js';

const catalog = builtinCatalog();

/** Flags documented on option lines ("  --flag ..." at the start of a line). */
function documentedFlags(text: string): Set<string> {
  return new Set([...text.matchAll(/^ {2}--([a-z0-9][\w-]*)/gm)].map((m) => m[1]));
}

test('every subcommand documents every flag its parser accepts, and no other', () => {
  for (const command of SUBCOMMANDS) {
    const text = helpText(command, catalog);
    const accepted = Object.keys(commandOptions(command, catalog)).sort();
    assert.deepEqual([...documentedFlags(text)].sort(), accepted, `bench ${command} --help`);
    assert.match(text, new RegExp(`^Usage: bench ${command}\\b`, 'm'));
    assert.match(text, /^Exit codes: 0 /m, `bench ${command} --help names its exit codes`);
  }
});

test('bench gate --help explains each flag and the exit codes', () => {
  const text = helpText('gate');
  for (const [flag, meaning] of [
    ['baseline FILE', /baseline JSON written by bench baseline/],
    ['max-drop P', /flat tolerance in points/],
    ['max-errors N', /more than N errored samples/],
    ['z Z', /binomial standard error/],
    ['exact', /any change of score or n/],
    ['allow-missing', /baseline cells the run lacks are skipped/],
    ['junit FILE', /JUnit XML/],
  ] as const) {
    const line = text.split('\n').find((l) => l.startsWith(`  --${flag} `));
    assert.ok(line, `--${flag} has an option line`);
    assert.match(line, meaning);
  }
  assert.match(text, /Exit codes: 0 pass, 1 regression .*, 2 usage or harness error/);
});

test('bench help X and bench X --help are the same help; unknown topics are refused', () => {
  for (const command of SUBCOMMANDS) {
    assert.deepEqual(parseCli(['help', command]), { command: 'help', topic: command });
    assert.deepEqual(parseCli([command, '--help']), { command: 'help', topic: command });
    assert.deepEqual(parseCli([command, 'x', '-h']), { command: 'help', topic: command });
  }
  assert.deepEqual(parseCli(['help']), { command: 'help' });
  assert.throws(() => parseCli(['help', 'nope']), /no help for 'nope': commands are run, plan, tasks/);
  assert.throws(() => parseCli(['nope', '--help']), /no help for 'nope'/);
  // The overview names every command and points to the per-command help.
  const overview = helpText(undefined, catalog);
  for (const command of SUBCOMMANDS) assert.match(overview, new RegExp(`^  bench ${command}\\b`, 'm'));
  assert.match(overview, /bench <command> --help/);
});
