// `bench run <task> --data FILE|DIR` for other tools' data: which reader a task's --data goes to (decided by the
// file's content, generators/file/detect.ts) and the generic `jsonl` task (how the data is stated in the manifest and
// in the grid line printed at start is harness/data/describe.ts). README "Your own data" documents the accepted layouts.
import { readHead } from './read.js';
import { UserError } from '../../harness/errors.js';
import type { PreparedTask, TaskDefinition, TaskEnv } from '../../harness/types.js';
import { detectFile, FORMAT_NAMES, wrongTask, type Detected } from './detect.js';
import { prepareGeneric } from '../jsonl/index.js';
import { prepareMemAgentHqa } from '../ruler-hqa/data-file.js';
import { NIAH_SPECS } from '../ruler/spec.js';
import { niahTaskInPath, prepareRulerNiah } from '../ruler/data-file.js';
import { isDirectory, listFiles } from './source.js';

export const JSONL_TASK_VERSION = '1';

/** The generic layout as a task: `bench run jsonl --data FILE` or `bench run file:FILE`. */
export const jsonlTask: TaskDefinition = {
  name: 'jsonl',
  version: JSONL_TASK_VERSION,
  description:
    'Your own data: --data FILE (or task file:FILE) with JSONL rows {context, question, answers, id?, metric?}; sub_em unless a row names its metric',
  metric: 'sub_em',
  defaultSamples: Number.POSITIVE_INFINITY,
  defaultLengths: 'from the data',
  acceptsDocCounts: false,
  async prepare(env: TaskEnv): Promise<PreparedTask> {
    const path = env.options.data;
    if (path === undefined)
      throw new UserError(
        'task jsonl reads your file: `bench run jsonl --data FILE.jsonl` or `bench run file:FILE.jsonl`',
      );
    if (isDirectory(path))
      throw new UserError(`task jsonl reads one file, and --data ${path} is a directory: pass the file`);
    const d = detectFile(path);
    if (d.format !== 'jsonl') throw wrongTask('jsonl', d, niahTaskInPath(path));
    return prepareGeneric(env, 'jsonl', JSONL_TASK_VERSION, path);
  },
};

/** Whether a file's content starts like JSON (a list or an object); other files in a --data directory are ignored. */
function looksLikeJson(path: string): boolean {
  const head = readHead(path, 1024);
  let i = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  while (i < head.length && (head[i] === 0x20 || head[i] === 0x0a || head[i] === 0x0d || head[i] === 0x09)) i++;
  return head[i] === 0x5b || head[i] === 0x7b;
}

/**
 * RULER-HQA's --data: MemAgent's eval files (a file, or a directory of them, e.g. their DATAROOT) are read as they
 * are; a HotpotQA dev file returns undefined, and the task generates its contexts from it as before.
 */
export function readRulerHqaData(env: TaskEnv, task: string, version: string): PreparedTask | undefined {
  const path = env.options.data;
  if (path === undefined) return undefined;
  let files: string[];
  let ignored: string[] = [];
  if (isDirectory(path)) {
    const found: Detected[] = [];
    for (const f of listFiles(path, 0)) {
      if (!looksLikeJson(f)) continue;
      // One unreadable file in a data folder is listed as ignored, not fatal: the folder may hold other tools' files.
      try {
        found.push(detectFile(f));
      } catch (err) {
        if (!(err instanceof UserError)) throw err;
        ignored.push(`${f} (unreadable)`);
      }
    }
    files = found.filter((d) => d.format === 'memagent-hqa').map((d) => d.path);
    ignored.push(...found.filter((d) => d.format !== 'memagent-hqa').map((d) => `${d.path} (${d.format})`));
    if (files.length === 0)
      throw new UserError(
        `--data ${path} holds no MemAgent RULER-HQA files (JSON rows {context, input, answers, num_docs, index}, e.g. eval_50.json); for a HotpotQA dev file pass the file itself`,
      );
  } else {
    const d = detectFile(path);
    if (d.format === 'hotpotqa-dev') {
      if (env.options.pool !== undefined)
        throw new UserError(
          `--pool is read only with MemAgent's index-form files; ${path} is a HotpotQA dev file, from which ${task} builds its own contexts`,
        );
      return undefined;
    }
    if (d.format !== 'memagent-hqa') throw wrongTask(task, d, niahTaskInPath(path));
    files = [path];
  }
  if (task === 'ctx-dist')
    throw new UserError(
      "ctx-dist builds its own placements and cannot reorder MemAgent's files: run `bench run ruler-hqa --data ...`",
    );
  if (env.options.placement !== undefined)
    throw new UserError(
      "--placement builds its own contexts; MemAgent's files keep their document order: drop --placement",
    );
  const prepared = prepareMemAgentHqa(env, task, version, files, path);
  if (ignored.length > 0) prepared.data!.ignored = ignored;
  return prepared;
}

/** A LongBench task's --data FILE must hold LongBench rows (a directory is resolved by the LongBench loader). */
export function checkLongBenchData(env: TaskEnv, task: string): void {
  if (env.options.pool !== undefined)
    throw new UserError(`--pool is read only with MemAgent's index-form RULER-HQA files; ${task} does not use it`);
  const path = env.options.data;
  if (path === undefined || isDirectory(path)) return;
  const d = detectFile(path);
  if (d.format !== 'longbench') throw wrongTask(task, d, niahTaskInPath(path));
}

const NIAH_NAMES = new Set(NIAH_SPECS.map((s) => s.name));

/**
 * A built-in task that also reads other tools' files: with --data, MemAgent's RULER-HQA files (ruler-hqa), RULER's
 * NIAH rows (niah_*) are read as they are; a LongBench task's --data FILE must hold LongBench rows. Anything else
 * goes to the task's own prepare (HotpotQA dev file for ruler-hqa, LongBench's loader).
 */
export function withFileData(task: TaskDefinition): TaskDefinition {
  return {
    ...task,
    async prepare(env: TaskEnv): Promise<PreparedTask> {
      if (env.options.data !== undefined) {
        if (task.name === 'ruler-hqa' || task.name === 'ctx-dist') {
          const read = readRulerHqaData(env, task.name, task.version);
          if (read) return read;
        } else if (NIAH_NAMES.has(task.name)) {
          return prepareRulerNiah(env, task.name, task.version);
        } else if (task.name.startsWith('longbench/')) {
          checkLongBenchData(env, task.name);
        }
      }
      if (env.options.pool !== undefined)
        throw new UserError(
          `--pool is read only with MemAgent's index-form RULER-HQA files (--data); ${task.name} does not use it`,
        );
      return task.prepare(env);
    },
  };
}

export { FORMAT_NAMES };
