// How a run states the data its tasks read from the user's files (--data): the manifest's `data` field and the data
// part of a task's grid line printed at start. Generic over every family's readers (they fill DataSourceInfo).
import { UserError } from '../errors.js';
import type { ManifestData } from '../run-dir/manifest.js';
import type { DataSourceInfo, PreparedTask, TaskDefinition } from '../types.js';
import { plural } from '../util/plural.js';

/** The manifest's `data` field for a run's prepared tasks, or undefined when no task read --data. */
export function manifestData(
  tasks: readonly TaskDefinition[],
  prepared: readonly PreparedTask[],
): ManifestData | undefined {
  const infos = prepared.flatMap((p, i) => (p.data ? [{ task: tasks[i].name, ...p.data }] : []));
  if (infos.length === 0) return undefined;
  const files = infos.flatMap((d) => d.files.map((f) => ({ task: d.task, ...f })));
  const pool = infos.find((d) => d.pool)?.pool;
  return {
    path: infos[0].path,
    format: [...new Set(infos.map((d) => d.format))].join(', '),
    ...(files.length === 1 ? { sha256: files[0].sha256 } : {}),
    files,
    ...(pool ? { pool } : {}),
  };
}

/** The data part of a task's grid line, e.g. "data eval_50.json: memagent-hqa (text form), 128 rows, sha256 1a2b3c4d5e6f". */
export function describeData(info: DataSourceInfo): string {
  const rows = info.files.reduce((n, f) => n + f.rows, 0);
  const where = info.files.length === 1 ? info.files[0].path : `${info.files.length} files under ${info.path}`;
  const sha = info.files.length === 1 ? `, sha256 ${info.files[0].sha256.slice(0, 12)}` : '';
  const pool = info.pool
    ? `; pool ${info.pool.path} (${info.pool.paragraphs} paragraphs, sha256 ${info.pool.sha256.slice(0, 12)})`
    : '';
  const ignored = info.ignored?.length ? `; ignored ${info.ignored.join(', ')}` : '';
  return `data ${where}: ${info.format}, ${plural(rows, 'row')}${sha}${pool}${ignored}`;
}

/** A --data file (or the --pool file) whose content differs from what a run directory's samples were made from. */
export interface DataChange {
  task: string;
  /** The file as the manifest names it. */
  path: string;
  /** sha256 recorded in the directory, or null when the directory's run did not read this file. */
  was: string | null;
  /** sha256 of the file now, or null when this run no longer reads it. */
  now: string | null;
}

/**
 * The files whose content differs between the data a run directory recorded and this invocation's, for tasks both
 * read from --data (a task only one side read is no change: a run may add tasks). Files are matched by task and path;
 * a file added to or gone from a --data directory is a change too, and so is another --pool content.
 */
export function dataChanges(before: ManifestData | undefined, now: ManifestData | undefined): DataChange[] {
  if (!before || !now) return [];
  const out: DataChange[] = [];
  const tasks = [...new Set(now.files.map((f) => f.task))];
  for (const task of tasks) {
    // Files recorded without their task (an older manifest) are matched by path alone.
    const old = (before.files ?? []).filter((f) => f.task === task || f.task === undefined);
    if (old.length === 0) continue;
    const cur = now.files.filter((f) => f.task === task);
    for (const f of cur) {
      const was = old.find((o) => o.path === f.path);
      if (!was || was.sha256 !== f.sha256) out.push({ task, path: f.path, was: was?.sha256 ?? null, now: f.sha256 });
    }
    for (const o of old)
      if (o.task === task && !cur.some((f) => f.path === o.path))
        out.push({ task, path: o.path, was: o.sha256, now: null });
    if (before.pool && now.pool && before.pool.sha256 !== now.pool.sha256)
      out.push({ task, path: now.pool.path, was: before.pool.sha256, now: now.pool.sha256 });
  }
  return out;
}

/**
 * The data a run directory's manifest records after an invocation: this invocation's files, plus the files the
 * directory recorded for tasks this invocation did not read (so running one task of several keeps the others' hashes).
 */
export function unionData(before: ManifestData | undefined, now: ManifestData | undefined): ManifestData | undefined {
  if (!before) return now;
  if (!now) return before;
  const tasks = new Set(now.files.map((f) => f.task));
  const kept = (before.files ?? []).filter((f) => !tasks.has(f.task));
  if (kept.length === 0) return now;
  const files = [...kept, ...now.files];
  const pool = now.pool ?? before.pool;
  return {
    path: now.path,
    format: [...new Set([...before.format.split(', '), ...now.format.split(', ')])].join(', '),
    ...(files.length === 1 ? { sha256: files[0].sha256 } : {}),
    files,
    ...(pool ? { pool } : {}),
  };
}

/** One phrase for a change, e.g. "rows.jsonl changed: sha256 was 1a2b…, now 3c4d…". */
function describeChange(c: DataChange): string {
  if (c.was && c.now) return `${c.path} changed: sha256 was ${c.was}, now ${c.now}`;
  if (c.now) return `${c.path} (sha256 ${c.now}) was not part of that data`;
  return `${c.path} (sha256 ${c.was}) is no longer part of the data`;
}

/**
 * Refuses to resume into a directory whose finished samples were made from other data: sample ids name a task,
 * length and index, not the file's content, so resuming would mix old and new rows in one summary row. `finished`
 * counts a task's finished samples in the directory; a change to a task with none is no mixing and passes.
 * --extend is no way around it: it adds tasks, lengths or methods, never a second version of a task's data.
 */
export function refuseChangedData(
  dir: string,
  changes: readonly DataChange[],
  finished: (task: string) => number,
  extend: boolean,
): void {
  const mixing = changes.filter((c) => finished(c.task) > 0);
  if (mixing.length === 0) return;
  const c = mixing[0];
  const n = finished(c.task);
  const more = mixing.length > 1 ? ` (and ${mixing.length - 1} more)` : '';
  throw new UserError(
    `${dir} holds ${n} finished ${n === 1 ? 'sample' : 'samples'} of ${c.task} made from other data: ` +
      `${describeChange(c)}${more}; restore the file to resume, or use another --out for the new data` +
      (extend ? ' (--extend adds tasks, lengths or methods, not another version of the same data)' : ''),
  );
}
