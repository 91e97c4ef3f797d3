// Each subcommand's help lists exactly the flags its parser accepts, so help cannot drift from cli/parse.ts; the
// families' parts of help and of the task messages come from the catalog.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { helpText } from '../../cli/help.js';
import { SUBCOMMANDS, commandOptions, parseCli } from '../../cli/parse.js';
import { builtinCatalog } from '../../generators/index.js';
import type { DataFormat } from '../../harness/data/format.js';
import { Catalog } from '../../harness/registry/family.js';
import type { ScoreSource } from '../../harness/scorers/sources/source.js';
import type { PreparedTask, TaskDefinition } from '../../harness/types.js';

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

test("help, the task examples of messages and bench score's --format list come from the catalog's families", () => {
  const toyTask: TaskDefinition = {
    name: 'toy',
    version: '1',
    description: 'a toy task',
    metric: 'sub_em',
    defaultSamples: 1,
    defaultLengths: 'docs:4..8',
    acceptsDocCounts: true,
    prepare: async () => ({}) as PreparedTask,
  };
  const toyScores: ScoreSource = {
    name: 'toyscore',
    files: 'toy result files (guess, truth)',
    detect: (v) => 'guess' in v,
    score: () => [],
  };
  const toyRows: DataFormat = {
    name: 'toy-rows',
    title: 'toy puzzle rows',
    expected: 'toy {puzzle, solution}',
    matches: (r) => 'puzzle' in r,
    command: (d) => `bench run toy --data ${d.path}`,
  };
  const toy = new Catalog([{ name: 'toy', tasks: [toyTask], scoreSources: [toyScores], dataFormats: [toyRows] }]);
  assert.match(helpText(undefined, toy), /rescore runs or other tools' predictions \[--format toyscore\]/);
  const score = helpText('score', toy);
  assert.match(score, /^ {2}--format F {12}toyscore: the kind of file to read +\[detected from the first line\]$/m);
  assert.match(
    score.replace(/\s+/g, ' '),
    /a bench run directory, or toy result files \(guess, truth\); prints one row per group/,
  );
  const run = helpText('run', toy);
  assert.match(
    run.replace(/\s+/g, ' '),
    / --data PATH .*README "Your own data"\): toy puzzle rows or bench generate's native rows --/,
  );
  assert.match(run, /docs:50\.\.25600 = document counts \(toy\)/);
  for (const text of [run, score]) assert.doesNotMatch(text, /RULER|LongBench|MemAgent's|HotpotQA/);
  // The built-in catalog lists its families' score formats in registration order.
  assert.match(helpText(undefined, catalog), /\[--format memagent\|ruler\|longbench\|babilong\]/);
  // Messages that give an example task take the catalog's first, with its default lengths.
  assert.throws(
    () => parseCli(['run'], {}, toy),
    /^UserError: bench run needs a task, e\.g\. `bench run toy --lengths docs:4\.\.8`/,
  );
  assert.throws(() => parseCli(['plan'], {}, toy), /e\.g\. `bench plan toy --lengths docs:4\.\.8`\) or --calibrate/);
  assert.throws(() => parseCli(['run', 'toy,'], {}, toy), /pass a task such as toy, or several/);
  assert.throws(() => toy.task('tyo'), /run `bench tasks` to list them \(e\.g\. toy\)$/);
  assert.throws(() => catalog.task('nope'), /to list them \(e\.g\. ruler-hqa, niah_single_1\)$/);
});

test('bench export --help lays its formats out in aligned columns: name, files written, the peer script', () => {
  const text = helpText('export', catalog);
  const names = catalog.exportFormats();
  const lines = names.map((n) => text.split('\n').find((l) => l.startsWith(`  ${n} `))!);
  assert.equal(lines.filter(Boolean).length, names.length, text);
  const filesAt = lines.map((l) => l.indexOf('DIR/'));
  const readerAt = lines.map((l) => l.lastIndexOf(' (') + 1);
  assert.equal(new Set(filesAt).size, 1, lines.join('\n'));
  assert.equal(new Set(readerAt).size, 1, lines.join('\n'));
  assert.ok(lines.every((l) => l.endsWith(')')));
  assert.match(
    lines.find((l) => l.startsWith('  longbench-v2 '))!,
    /\(THUDM\/LongBench result\.py\)$/,
  );
});
