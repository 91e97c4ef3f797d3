// `bench runs [DIR] [--json]`: the run directories under DIR (default runs/), or DIR itself when it is one, with their
// tasks, grid, methods, model, status, counts and scores (reports/run-list.ts). Manifests and samples are read with
// the run directory's own readers (harness/run-dir/); a directory that cannot be read is one note line, not a stop.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandIO, CommandOf } from '../../harness/config/commands.js';
import { UserError, errorMessage } from '../../harness/errors.js';
import { jsonlRows } from '../../harness/run-dir/jsonl.js';
import { MANIFEST_FILE, readManifest } from '../../harness/run-dir/manifest.js';
import { modelRecordKey } from '../../harness/run-dir/record-key.js';
import type { SampleRecord } from '../../harness/types.js';
import { formatRunList, runListFooter, runListing, type RunListing } from '../../reports/run-list.js';

/** How deep below DIR run directories are looked for (runs/ci/synthetic is two levels down). */
const MAX_DEPTH = 3;

function isRunDir(dir: string): boolean {
  return existsSync(join(dir, MANIFEST_FILE)) || existsSync(join(dir, 'samples.jsonl'));
}

/** Run directories at or below `dir`, sorted; a run directory's own folders are not searched. */
function findRunDirs(dir: string, depth: number, broken: { dir: string; problem: string }[]): string[] {
  if (isRunDir(dir)) return [dir];
  if (depth >= MAX_DEPTH) return [];
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch (err) {
    broken.push({ dir, problem: `cannot be listed (${(err as NodeJS.ErrnoException).code ?? errorMessage(err)})` });
    return [];
  }
  const out: string[] = [];
  for (const name of names) {
    if (name.startsWith('.')) continue;
    const child = join(dir, name);
    let isDir = false;
    try {
      isDir = statSync(child).isDirectory();
    } catch {
      continue; // a dangling link or a file removed meanwhile
    }
    if (isDir) out.push(...findRunDirs(child, depth + 1, broken));
  }
  return out;
}

/** The latest record per sample (a rerun supersedes), as bench report reads them; a torn last line is skipped. */
function latestRecords(dir: string): SampleRecord[] {
  const file = join(dir, 'samples.jsonl');
  if (!existsSync(file)) return [];
  const latest = new Map<string, SampleRecord>();
  for (const { value } of jsonlRows<SampleRecord>(file, { mode: 'lenient' })) {
    if (typeof value.id !== 'string' || typeof value.method !== 'string') continue;
    const key = modelRecordKey(value);
    latest.delete(key);
    latest.set(key, value);
  }
  return [...latest.values()];
}

export function listRuns(root: string): { runs: RunListing[]; broken: { dir: string; problem: string }[] } {
  if (!existsSync(root))
    throw new UserError(
      `${root} not found: bench runs lists the run directories under a folder (default runs/, where bench run writes them); pass yours: bench runs DIR`,
    );
  if (!statSync(root).isDirectory())
    throw new UserError(`${root} is not a directory (pass a folder of run directories, or one of them)`);
  const broken: { dir: string; problem: string }[] = [];
  const runs: RunListing[] = [];
  for (const dir of findRunDirs(root, 0, broken)) {
    try {
      runs.push(runListing(dir, readManifest(dir), latestRecords(dir)));
    } catch (err) {
      broken.push({ dir, problem: errorMessage(err).split('\n')[0].replace(`${dir}/`, '').replace(`${dir} `, '') });
    }
  }
  return { runs, broken };
}

export async function runsCli(cmd: CommandOf<'runs'>, io: CommandIO): Promise<number> {
  const root = cmd.dir ?? 'runs';
  const { runs, broken } = listRuns(root);
  for (const b of broken) io.err(`note: ${b.dir}: ${b.problem}; not listed`);
  if (cmd.json) {
    io.out(JSON.stringify({ command: 'runs', root, runs, broken }, null, 2));
    return 0;
  }
  if (runs.length === 0) {
    io.err(`no run directories under ${root} (bench run writes them there; see bench run --help)`);
    return 0;
  }
  io.out(formatRunList(runs));
  io.out(runListFooter(runs));
  return 0;
}
