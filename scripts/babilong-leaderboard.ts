// Builds baselines/babilong/leaderboard.json: BABILong's published predictions (babilong_evals/<model>/ in a git copy
// of booydar/babilong) scored as collect_results.py scores them, accuracy = 100 × correct / rows with compare_answers
// (generators/babilong/metrics.ts), for the few models MODELS names, each read at the commit its branch points to.
// Run: npx tsx scripts/babilong-leaderboard.ts <git dir of booydar/babilong> [--retrieved YYYY-MM-DD] > FILE
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { compareAnswers, TASK_LABELS } from '../generators/babilong/metrics.js';
import { COLLECT_LENGTHS } from '../generators/babilong/published.js';
import { readPredictionCsv } from '../generators/babilong/published-csv.js';
import { scorePercent } from '../harness/protocol/round.js';
import type { BabilongLeaderboard, LeaderboardModel } from '../reports/babilong/leaderboard.js';

export interface ModelSpec {
  model: string;
  /** Branch (or any ref) of booydar/babilong whose babilong_evals/ holds the model's files. */
  ref: string;
  /** The run configuration part of the file names (what follows qaN_<length>_). */
  config: string;
  /** What the model is, as BABILong's paper groups them. */
  kind: string;
}

const YES = 'instruction_yes_examples_yes_post_prompt_yes';

export const MODELS: readonly ModelSpec[] = [
  { model: 'google/gemini-3-flash-preview', ref: 'main', config: `${YES}_chat_template_no`, kind: 'long-context LLM' },
  { model: 'microsoft/Phi-3-mini-128k-instruct', ref: 'main', config: YES, kind: 'long-context LLM' },
  { model: 'openai/gpt-4-0125-preview', ref: 'predictions_06_2024', config: YES, kind: 'long-context LLM' },
  { model: 'NousResearch/Meta-Llama-3-8B-Instruct', ref: 'predictions_06_2024', config: YES, kind: 'long-context LLM' },
  { model: 'RAG_Llama-3', ref: 'predictions_06_2024', config: YES, kind: 'retrieval (RAG) over Llama-3' },
];

/** Rows and correct answers of one prediction file, as collect_results.py counts them (its CSV reading:
 *  generators/babilong/published-csv.ts). */
export function scoreCsv(task: string, text: string, file = task): { correct: number; rows: number } {
  const rows = readPredictionCsv(file, text);
  const labels = TASK_LABELS[task];
  let correct = 0;
  for (const r of rows) if (compareAnswers(r.target ?? '', r.output, r.question ?? '', labels)) correct++;
  return { correct, rows: rows.length };
}

function git(gitDir: string, ...args: string[]): string {
  return execFileSync('git', ['-C', gitDir, ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
}

/** One model's cells: every qaN_<length>_<config>.csv in its folder at the ref's commit. */
export function readModel(gitDir: string, spec: ModelSpec): LeaderboardModel {
  const commit = git(gitDir, 'rev-parse', `${spec.ref}^{commit}`).trim();
  const committed = git(gitDir, 'log', '-1', '--format=%cs', commit).trim();
  const folder = `babilong_evals/${spec.model}`;
  const names = git(gitDir, 'ls-tree', '--name-only', commit, `${folder}/`)
    .split('\n')
    .map((p) => p.slice(folder.length + 1));
  const pattern = new RegExp(`^(qa\\d+)_(\\w+?)_${spec.config}\\.csv$`);
  const cells: LeaderboardModel['cells'] = {};
  for (const name of names) {
    const m = pattern.exec(name);
    if (!m || !TASK_LABELS[m[1]] || !COLLECT_LENGTHS.includes(m[2])) continue;
    const { correct, rows } = scoreCsv(m[1], git(gitDir, 'show', `${commit}:${folder}/${name}`), `${folder}/${name}`);
    (cells[m[1]] ??= {})[m[2]] = {
      accuracy: rows ? scorePercent('total', correct / rows, rows, correct) : 0,
      correct,
      rows,
    };
  }
  const tasks = Object.keys(cells).sort((a, b) => Number(a.slice(2)) - Number(b.slice(2)));
  return {
    model: spec.model,
    kind: spec.kind,
    source: {
      ref: spec.ref,
      commit,
      committed,
      files: `${folder}/{task}_{length}_${spec.config}.csv`,
    },
    cells: Object.fromEntries(
      tasks.map((task) => [
        task,
        Object.fromEntries(COLLECT_LENGTHS.filter((l) => cells[task][l]).map((l) => [l, cells[task][l]])),
      ]),
    ),
  };
}

export function buildLeaderboard(gitDir: string, retrieved: string, models = MODELS): BabilongLeaderboard {
  return {
    kind: 'babilong-leaderboard',
    title: "BABILong's published predictions: accuracy (%) by task and length",
    source: {
      repo: 'booydar/babilong',
      url: 'https://github.com/booydar/babilong',
      folder: 'babilong_evals',
      retrieved,
      scoring:
        "collect_results.py's rule: accuracy = 100 × correct / rows of each prediction file, correct by metrics.py compare_answers (generators/babilong/metrics.ts); a missing output counts as ''",
      prompt: 'instruction, examples and post_prompt all on (our default --babilong-prompt yes/yes/yes)',
    },
    models: models.map((m) => readModel(gitDir, m)),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [gitDir, ...rest] = process.argv.slice(2);
  if (!gitDir) {
    process.stderr.write(
      'usage: tsx scripts/babilong-leaderboard.ts <git dir of booydar/babilong> [--retrieved YYYY-MM-DD]\n',
    );
    process.exit(2);
  }
  const at = rest.indexOf('--retrieved');
  const retrieved = at >= 0 ? rest[at + 1] : new Date().toISOString().slice(0, 10);
  process.stdout.write(`${JSON.stringify(buildLeaderboard(gitDir, retrieved), null, 2)}\n`);
}
