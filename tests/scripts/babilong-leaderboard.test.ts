// scripts/babilong-leaderboard.ts on a small git copy of BABILong's layout (real git): it reads the files of the
// configuration asked for at the ref's commit, reads them as pandas does (quoted fields, missing outputs) and counts
// compare_answers' correct rows.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildLeaderboard } from '../../scripts/babilong-leaderboard.js';

const CONFIG = 'instruction_yes_examples_yes_post_prompt_yes';

function repo(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'bench-babilong-evals-'));
  const git = (...args: string[]) => execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8' });
  git('init', '-q', '-b', 'main');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  git('add', '.');
  git(
    '-c',
    'user.name=t',
    '-c',
    'user.email=t@example.org',
    'commit',
    '-q',
    '-m',
    'evals',
    '--date',
    '2024-06-13T12:00:00',
  );
  return dir;
}

test('a model: accuracy = 100 × correct / rows per task and length, other configurations ignored', () => {
  const folder = 'babilong_evals/org/model-a';
  const dir = repo({
    [`${folder}/qa1_0k_${CONFIG}.csv`]: [
      ',target,output,question',
      '0,office,The most recent location of Mary is office.,Where is Mary? ',
      // Two labels named: wrong.
      '1,garden,"The most recent location of John is garden, or kitchen.",Where is John? ',
      // pandas reads "None" as missing: ''.
      '2,kitchen,None,Where is Sandra? ',
      '3,hallway,"Answer: ""hallway"". Then office",Where is Daniel? ',
    ].join('\n'),
    [`${folder}/qa1_1M_${CONFIG}.csv`]: ',target,output,question\n0,office,bedroom,Where is Mary?\n',
    [`${folder}/qa1_0k_instruction_no_examples_no_post_prompt_no.csv`]: ',target,output,question\n0,office,office,Q\n',
    [`${folder}/qa2_0k_${CONFIG} copy.csv`]: ',target,output,question\n0,office,office,Q\n',
  });
  const board = buildLeaderboard(dir, '2026-12-06', [
    { model: 'org/model-a', ref: 'main', config: CONFIG, kind: 'long-context LLM' },
  ]);
  const [m] = board.models;
  assert.deepEqual(m.cells, {
    qa1: { '0k': { accuracy: 50, correct: 2, rows: 4 }, '1M': { accuracy: 0, correct: 0, rows: 1 } },
  });
  const head = execFileSync('git', ['-C', dir, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
  assert.deepEqual(m.source, {
    ref: 'main',
    commit: head,
    committed: execFileSync('git', ['-C', dir, 'log', '-1', '--format=%cs'], { encoding: 'utf8' }).trim(),
    files: `${folder}/{task}_{length}_${CONFIG}.csv`,
  });
  assert.equal(board.source.retrieved, '2026-12-06');
});
