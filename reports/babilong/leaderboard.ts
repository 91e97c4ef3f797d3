// BABILong's published numbers shipped as data (baselines/babilong/leaderboard.json, made by
// scripts/babilong-leaderboard.ts from booydar/babilong's babilong_evals/): per model, accuracy by task and length.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../../harness/errors.js';
import { packageRoot } from '../../harness/paths.js';
import { jsonProblem } from '../regression.js';

export interface LeaderboardCell {
  /** 100 × correct / rows, 2 decimals. */
  accuracy: number;
  correct: number;
  rows: number;
}

export interface LeaderboardModel {
  model: string;
  kind: string;
  source: { ref: string; commit: string; committed: string; files: string };
  /** cells[task][BABILong length name] */
  cells: Record<string, Record<string, LeaderboardCell>>;
}

export interface BabilongLeaderboard {
  kind: 'babilong-leaderboard';
  title: string;
  source: { repo: string; url: string; folder: string; retrieved: string; scoring: string; prompt: string };
  models: LeaderboardModel[];
}

export function leaderboardFile(): string {
  return join(packageRoot(), 'baselines', 'babilong', 'leaderboard.json');
}

function validate(value: unknown, file: string): BabilongLeaderboard {
  const b = value as Partial<BabilongLeaderboard>;
  const bad = (what: string) => new UserError(`malformed BABILong leaderboard ${file}: ${what}`);
  if (typeof b !== 'object' || b === null || b.kind !== 'babilong-leaderboard')
    throw bad('"kind" must be "babilong-leaderboard"');
  if (typeof b.source?.repo !== 'string' || !Array.isArray(b.models)) throw bad('needs source.repo and models[]');
  for (const m of b.models) {
    if (typeof m.model !== 'string' || typeof m.source?.commit !== 'string' || typeof m.cells !== 'object')
      throw bad('each model needs model, source.commit and cells');
    for (const [task, byLength] of Object.entries(m.cells))
      for (const [length, c] of Object.entries(byLength)) {
        const ok = Number.isInteger(c.rows) && c.rows > 0 && Number.isInteger(c.correct) && c.correct <= c.rows;
        if (!ok || Math.abs(c.accuracy - (100 * c.correct) / c.rows) > 0.005)
          throw bad(`${m.model} ${task} ${length}: accuracy must be 100 × correct / rows`);
      }
  }
  return b as BabilongLeaderboard;
}

/** The shipped leaderboard (or another file of its shape). */
export function loadLeaderboard(file = leaderboardFile()): BabilongLeaderboard {
  if (!existsSync(file)) throw new UserError(`BABILong leaderboard not found: ${file}`);
  const text = readFileSync(file, 'utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new UserError(`BABILong leaderboard ${file} is not valid JSON: ${jsonProblem(text, err)}`);
  }
  return validate(parsed, file);
}

/** "booydar/babilong, babilong_evals/<model>/ at <ref> <commit7> (<date>)": where a model's numbers come from. */
export function modelSource(board: BabilongLeaderboard, m: LeaderboardModel): string {
  return `${board.source.repo} ${m.source.ref}@${m.source.commit.slice(0, 7)} (${m.source.committed}), ${m.source.files}`;
}
