// `bench run <task> --data FILE|DIR` for other tools' data: the layouts families register (Family.dataFormats),
// detection from a file's first row (never from its name), and the wrapper that sends a task's --data to the
// reader its family declares. Messages list the layouts in registration order.
import { UserError } from '../errors.js';
import type { Registry } from '../registry/registry.js';
import type { MetricRegistry } from '../scorers/metric.js';
import type { PreparedTask, TaskDefinition, TaskEnv } from '../types.js';
import { firstRow, whereOf, type Container } from './read.js';

export interface Detected {
  path: string;
  /** The layout's name, e.g. 'memagent-hqa'. */
  format: string;
  layout: DataFormat;
  container: Container;
  /** The first row, parsed. */
  first: Record<string, unknown>;
  compressed: boolean;
}

/** What a reader sees of the catalog: every family's layouts (to name a file's own) and the metric names. */
export interface DataContext {
  dataFormats: Registry<DataFormat>;
  metrics: MetricRegistry;
}

/** A family's reader of --data for some of its tasks. */
export interface DataReader {
  tasks(name: string): boolean;
  /** Called on every prepare of those tasks, --data or not; undefined hands over to the task's own prepare. */
  read(env: TaskEnv, task: TaskDefinition, ctx: DataContext): PreparedTask | undefined;
}

export interface DataFormat {
  /** As the manifest and messages name it, e.g. 'ruler-niah'. */
  name: string;
  /** In "holds …" messages, e.g. "RULER's generated rows". */
  title: string;
  /** In "expected …" messages, e.g. "RULER's {index, input, outputs, length, ...}". */
  expected: string;
  /** Whether a first row's fields are this layout's. Layouts are tried in registration order. */
  matches(row: Record<string, unknown>): boolean;
  /** Raw records a task builds its samples from (not samples): named after the others in "expected" messages. */
  raw?: boolean;
  /** A layout of a few common fields (generic JSONL): tried after every other. */
  generic?: boolean;
  /** May be gzip-compressed. */
  gzip?: boolean;
  /** Options that only this layout's files use, with how messages name those files. */
  options?: Readonly<Record<string, string>>;
  /** The command that runs such a file (for "wrong task" messages). */
  command(d: Detected): string;
  reader?: DataReader;
}

function expected(formats: Registry<DataFormat>): string {
  const all = formats.all();
  const names = [...all.filter((f) => !f.raw), ...all.filter((f) => f.raw)].map((f) => f.expected);
  return names.length > 1 ? `${names.slice(0, -1).join(', ')}, or ${names[names.length - 1]}` : names.join('');
}

/** The layout a row's fields identify, or undefined. */
export function formatOfRow(row: unknown, formats: Registry<DataFormat>): DataFormat | undefined {
  if (typeof row !== 'object' || row === null || Array.isArray(row)) return undefined;
  const r = row as Record<string, unknown>;
  const all = formats.all();
  return [...all.filter((f) => !f.generic), ...all.filter((f) => f.generic)].find((f) => f.matches(r));
}

/** Detects a data file's layout from its first row. gzip is read only for layouts that allow it. */
export function detectFile(path: string, formats: Registry<DataFormat>): Detected {
  const { value, container, ref, compressed } = firstRow(path, { gzip: true });
  const where = whereOf(ref);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UserError(`${path}: ${where}: not a JSON object; expected rows of ${expected(formats)}`);
  }
  const layout = formatOfRow(value, formats);
  if (!layout) {
    const keys = Object.keys(value).slice(0, 12).join(', ') || 'none';
    throw new UserError(`${path}: ${where}: fields {${keys}} match no known layout; expected ${expected(formats)}`);
  }
  if (compressed && !layout.gzip)
    throw new UserError(`${path} is gzip-compressed: decompress it first (gunzip -k FILE)`);
  return { path, format: layout.name, layout, container, first: value as Record<string, unknown>, compressed };
}

/** A UserError for a file whose layout the task does not read, with the command that does. */
export function wrongTask(task: string, d: Detected): UserError {
  return new UserError(
    `${d.path} holds ${d.layout.title}, which task ${task} does not read: run \`${d.layout.command(d)}\``,
  );
}

/**
 * Refuses an option that only another layout's files use (e.g. --pool), naming them; `viaData` adds "(--data)"
 * (the option was given without a file of that layout); `tail` says who does not use it.
 */
export function refuseOthersOptions(
  env: TaskEnv,
  ctx: DataContext,
  own: string | undefined,
  tail: string,
  viaData = false,
): void {
  for (const f of ctx.dataFormats.all()) {
    if (f.name === own) continue;
    for (const [option, files] of Object.entries(f.options ?? {}))
      if (env.options[option] !== undefined)
        throw new UserError(`--${option} is read only with ${files}${viaData ? ' (--data)' : ''}; ${tail}`);
  }
}

/** The task with its --data read by the reader one of its family's layouts declares for it (else unchanged). */
export function withDataReader(task: TaskDefinition, own: readonly DataFormat[], ctx: DataContext): TaskDefinition {
  const reader = own.find((f) => f.reader?.tasks(task.name))?.reader;
  if (!reader) return task;
  return {
    ...task,
    async prepare(env: TaskEnv): Promise<PreparedTask> {
      return reader.read(env, task, ctx) ?? task.prepare(env);
    },
  };
}
