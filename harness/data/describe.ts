// How a run states the data its tasks read from the user's files (--data): the manifest's `data` field and the data
// part of a task's grid line printed at start. Generic over every family's readers (they fill DataSourceInfo).
import type { ManifestData } from '../run-dir/manifest.js';
import type { DataSourceInfo, PreparedTask, TaskDefinition } from '../types.js';

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
  return `data ${where}: ${info.format}, ${rows} rows${sha}${pool}${ignored}`;
}
