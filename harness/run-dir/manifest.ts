// manifest.json of a run directory: its type, its one writer and its one reader.
//
// `bench run` writes it at the start of every invocation (RunDir.writeManifest); `bench merge` writes the merged
// directory's. Everything that reads a manifest (resume, merge, report, baseline) goes through readManifest, which
// checks the fields' types, so no reader guesses at shapes. Unknown extra fields are kept as they are (merge copies
// them). Directories written by earlier versions of this bench read fine: the fields added since (model.client,
// history) are optional. A directory owns the (task, length, method) cells its invocations asked for: a run that adds
// cells needs --extend (RunDir.open), and each invocation appends itself to `history` (unionManifest).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../errors.js';
import { refuseNonRegular } from '../text-file.js';
import { writeJsonAtomic } from './atomic-write.js';
import { fileIOError } from './io-errors.js';
import type { EnvironmentInfo } from './environment.js';
import type { RunIdentity } from './identity.js';
import type { RequestFingerprint } from './request-fingerprint.js';

export const MANIFEST_FILE = 'manifest.json';

export interface ManifestTask {
  name: string;
  version: string;
  /** The task's default metric (harness/scorers registry). */
  metric: string;
  /** The protocol variant its samples follow (--flavour), for tasks that have several. */
  flavour?: string;
}

export interface ManifestModel {
  /** The model as recorded in each sample's `model`: the served name for endpoints, the client id for the local model. */
  id: string;
  /** The client's own id (endpoint#name, or local:…). Absent in directories written before it was recorded. */
  client?: string;
  /** --model-name, or null. */
  name: string | null;
  isReferenceReader: boolean;
  /** Endpoint base URLs; [] for the local model. */
  endpoints: string[];
}

/** Every method option's value by flag (defaults included), plus the run's concurrency. */
export type ManifestSettings = Record<string, number | string | undefined>;

export interface ShardSpec {
  index: number;
  count: number;
}

/** One shard of a merged directory (bench merge). */
export interface MergedShard {
  dir: string;
  shard: ShardSpec;
  /** Sample lines taken from this shard. */
  samples: number;
  /** Call lines taken from this shard. */
  calls: number;
  environment: EnvironmentInfo | null;
}

export interface RunManifest {
  /** The command line, e.g. "bench run ruler-hqa --lengths 32k". */
  command: string;
  tasks: ManifestTask[];
  methods: string[];
  /** Length labels per task name. */
  lengths: Record<string, string[]>;
  /** --samples, or null for each task's default. */
  samples: number | null;
  seed: number;
  /** Tokenizer id. */
  tokenizer: string;
  model: ManifestModel;
  settings: ManifestSettings;
  /** --shard i/n; null for a whole run and for a merged directory. */
  shard: ShardSpec | null;
  /** Every setting that changes results (harness/run-dir/identity.ts): resume and merge refuse another identity. */
  identity: RunIdentity;
  environment: EnvironmentInfo;
  /** Units (samples × methods) planned by this invocation's grid; a merge sums its shards'. */
  units: number;
  /** Planned samples per method, keyed "task/length label" (reports flag cells with fewer as incomplete). */
  expected?: Record<string, number>;
  /** Units already finished when this invocation started (bench run only). */
  resumed?: number;
  /** Set by bench merge: the shards it was made from, in shard order. */
  merged_from?: MergedShard[];
  /** Set when samples were read from --data files (harness/data): where from, in which detected format. */
  data?: ManifestData;
  /**
   * One entry per `bench run` invocation into this directory, oldest first (append-only). Absent in directories
   * written before it was recorded. The top-level tasks, lengths, methods and expected are the union of all entries.
   */
  history?: ManifestHistoryEntry[];
  /** The window preflight of the latest invocation (harness/runner/preflight.ts), when the window was known. */
  window?: ManifestWindow;
  /** Tasks the latest invocation asked for and skipped (no data: LongBench without --data; no length within the
   *  task's limit), with the reason; present only when there are some. */
  skipped?: SkippedTask[];
  /** The request fingerprint of the latest invocation (harness/run-dir/request-fingerprint.ts): each call kind's
   *  route, template, answer-prefix placement, max_tokens, decoding and thinking budget. */
  requests?: RequestFingerprint;
}

/** A task a run asked for and skipped, and why (harness/runner/plan.ts). */
export interface SkippedTask {
  task: string;
  reason: string;
}

/** The window preflight as recorded: the window, where it came from, each method's largest call. */
export interface ManifestWindow {
  tokens: number;
  source: string;
  /** Whether --allow-truncation let a run that does not fit go on. */
  allowTruncation: boolean;
  largest: { method: string; promptTokens: number; maxTokens: number; task: string; length: string }[];
}

/** The (task, length label, method) cells a run asks for. */
export interface RunGrid {
  tasks: string[];
  /** Length labels per task name. */
  lengths: Record<string, string[]>;
  methods: string[];
}

/** One `bench run` invocation into a run directory. */
export interface ManifestHistoryEntry {
  command: string;
  /** ISO time the invocation opened the directory; absent for an entry recovered from an older manifest. */
  time?: string;
  /** The grid this invocation asked for (a subset of the directory's, or more with --extend). */
  grid: RunGrid;
  /** Whether this invocation added tasks, lengths or methods (with --extend). */
  extended: boolean;
  /** Units this invocation planned, and how many of them were already finished when it started. */
  units: number;
  resumed?: number;
  /** Planned samples per method by "task/length label" for this invocation. */
  expected?: Record<string, number>;
  /** Tasks this invocation asked for and skipped, with the reason. */
  skipped?: SkippedTask[];
}

/** The grid a manifest records (its top-level tasks, lengths and methods). */
export function manifestGrid(m: Pick<RunManifest, 'tasks' | 'lengths' | 'methods'>): RunGrid {
  return { tasks: m.tasks.map((t) => t.name), lengths: m.lengths, methods: m.methods };
}

/**
 * What `asked` adds to the grid a directory holds, one phrase each ("task niah_single_1", "length 2k of ruler-hqa",
 * "method rag"); [] when it asks for a subset.
 */
export function gridAdditions(held: RunGrid, asked: RunGrid): string[] {
  const out: string[] = [];
  for (const t of asked.tasks) {
    if (!held.tasks.includes(t)) {
      out.push(`task ${t}${asked.lengths[t]?.length ? ` (${asked.lengths[t].join(', ')})` : ''}`);
      continue;
    }
    const have = held.lengths[t] ?? [];
    const added = (asked.lengths[t] ?? []).filter((l) => !have.includes(l));
    if (added.length > 0) out.push(`${added.length > 1 ? 'lengths' : 'length'} ${added.join(', ')} of ${t}`);
  }
  const methods = asked.methods.filter((m) => !held.methods.includes(m));
  if (methods.length > 0) out.push(`${methods.length > 1 ? 'methods' : 'method'} ${methods.join(', ')}`);
  return out;
}

const unionList = (a: readonly string[], b: readonly string[]): string[] => [...a, ...b.filter((x) => !a.includes(x))];

/**
 * The manifest to write for an invocation into a directory that already holds `previous` (null: a new directory):
 * the invocation's own fields, with tasks, lengths, methods, expected and the identity's per-method and per-task
 * parts made the union of both, and `entry` appended to the history (an older manifest without history gets an
 * entry recovered from its own fields first).
 */
export function unionManifest(
  previous: RunManifest | null,
  current: RunManifest,
  entry: ManifestHistoryEntry,
): RunManifest {
  if (!previous) return { ...current, history: [entry] };
  const history: ManifestHistoryEntry[] = previous.history ?? [
    {
      command: previous.command,
      grid: manifestGrid(previous),
      extended: false,
      units: previous.units,
      ...(previous.resumed !== undefined ? { resumed: previous.resumed } : {}),
      ...(previous.expected ? { expected: previous.expected } : {}),
    },
  ];
  const tasks = [...previous.tasks];
  for (const t of current.tasks) {
    const at = tasks.findIndex((p) => p.name === t.name);
    if (at >= 0) tasks[at] = t;
    else tasks.push(t);
  }
  const lengths: Record<string, string[]> = { ...previous.lengths };
  for (const [t, ls] of Object.entries(current.lengths)) lengths[t] = unionList(lengths[t] ?? [], ls);
  const expected: Record<string, number> = { ...(previous.expected ?? {}) };
  for (const [k, n] of Object.entries(current.expected ?? {})) expected[k] = Math.max(expected[k] ?? 0, n);
  const prevIdentity = previous.identity as Partial<RunIdentity>;
  const identity: RunIdentity = {
    ...current.identity,
    methods: { ...(prevIdentity.methods ?? {}), ...current.identity.methods },
    ...(prevIdentity.decoding || current.identity.decoding
      ? { decoding: { ...(prevIdentity.decoding ?? {}), ...(current.identity.decoding ?? {}) } }
      : {}),
  };
  return {
    ...current,
    tasks,
    lengths,
    methods: unionList(previous.methods, current.methods),
    expected,
    identity,
    history: [...history, entry],
  };
}

/** The data a run read with --data: the path given, the detected format(s), and each file's sha256. */
export interface ManifestData {
  path: string;
  format: string;
  /** The file's sha256 when exactly one file was read. */
  sha256?: string;
  files: Array<{ task: string; path: string; format: string; sha256: string; rows: number }>;
  /** The HotpotQA file MemAgent's index-form rows point into (--pool). */
  pool?: { path: string; sha256: string; paragraphs: number };
}

export function manifestPath(dir: string): string {
  return join(dir, MANIFEST_FILE);
}

export function hasManifest(dir: string): boolean {
  return existsSync(manifestPath(dir));
}

/** Writes manifest.json atomically (pretty JSON, trailing newline). */
export function writeManifest(dir: string, manifest: RunManifest): void {
  writeJsonAtomic(manifestPath(dir), manifest);
}

type Check = (v: unknown) => boolean;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isString: Check = (v) => typeof v === 'string';
const isNumber: Check = (v) => typeof v === 'number' && Number.isFinite(v);
const isInteger: Check = (v) => Number.isInteger(v);
const orNull =
  (c: Check): Check =>
  (v) =>
    v === null || c(v);
const arrayOf =
  (c: Check): Check =>
  (v) =>
    Array.isArray(v) && v.every(c);
const fields =
  (spec: Record<string, Check>, optional: readonly string[] = []): Check =>
  (v) =>
    isObject(v) && Object.entries(spec).every(([k, c]) => (v[k] === undefined && optional.includes(k)) || c(v[k]));
const recordOf =
  (c: Check): Check =>
  (v) =>
    isObject(v) && Object.values(v).every(c);

/** Field → [check, what it must be]; fields not listed (settings, identity, environment contents) are the writer's. */
const SCHEMA: Array<[keyof RunManifest, Check, string, boolean?]> = [
  ['command', isString, 'a string'],
  [
    'tasks',
    arrayOf(fields({ name: isString, version: isString, metric: isString, flavour: isString }, ['flavour'])),
    'an array of {name, version, metric, flavour?} strings',
  ],
  ['methods', arrayOf(isString), 'an array of strings'],
  ['lengths', recordOf(arrayOf(isString)), 'an object of task → array of length labels'],
  ['samples', orNull(isInteger), 'a whole number or null'],
  ['seed', isNumber, 'a number'],
  ['tokenizer', isString, 'a string'],
  [
    'model',
    fields(
      {
        id: isString,
        client: isString,
        name: orNull(isString),
        isReferenceReader: (v) => typeof v === 'boolean',
        endpoints: arrayOf(isString),
      },
      ['client'],
    ),
    'an object with id, name, isReferenceReader and endpoints',
  ],
  ['settings', isObject, 'an object'],
  ['shard', orNull(fields({ index: isInteger, count: isInteger })), 'null or {index, count} whole numbers'],
  ['identity', isObject, 'an object'],
  ['environment', isObject, 'an object'],
  ['units', isInteger, 'a whole number'],
  ['resumed', isInteger, 'a whole number', true],
  [
    'merged_from',
    arrayOf(fields({ dir: isString, shard: fields({ index: isInteger, count: isInteger }) })),
    'an array of {dir, shard, ...}',
    true,
  ],
  [
    'data',
    fields(
      {
        path: isString,
        format: isString,
        sha256: isString,
        files: arrayOf(fields({ path: isString, format: isString, sha256: isString })),
      },
      ['sha256'],
    ),
    'an object {path, format, sha256?, files}',
    true,
  ],
  ['skipped', arrayOf(fields({ task: isString, reason: isString })), 'an array of {task, reason} strings', true],
  [
    'history',
    arrayOf(
      fields(
        {
          command: isString,
          time: isString,
          grid: fields({
            tasks: arrayOf(isString),
            lengths: recordOf(arrayOf(isString)),
            methods: arrayOf(isString),
          }),
          extended: (v) => typeof v === 'boolean',
          units: isInteger,
        },
        ['time'],
      ),
    ),
    'an array of {command, time?, grid {tasks, lengths, methods}, extended, units, ...}',
    true,
  ],
];

/** The first thing wrong with a parsed manifest, or null. */
export function manifestProblem(value: unknown): string | null {
  if (!isObject(value)) return 'not a JSON object';
  for (const [key, check, what, optional] of SCHEMA) {
    const v = value[key];
    if (v === undefined) {
      if (!optional) return `'${key}' is missing`;
      continue;
    }
    if (!check(v)) return `'${key}' must be ${what}`;
  }
  return null;
}

export interface ReadManifestOptions {
  /** What to do about it, appended to the error (e.g. "use another --out"). */
  hint?: string;
}

/**
 * Reads and checks `dir`/manifest.json. A missing file, invalid JSON or a field of the wrong type is a one-line
 * UserError naming the file.
 */
export function readManifest(dir: string, opts: ReadManifestOptions = {}): RunManifest {
  const file = manifestPath(dir);
  const hint = opts.hint ? `; ${opts.hint}` : '';
  let text: string;
  try {
    // A FIFO in its place would block the read forever.
    refuseNonRegular(statSync(file), file, opts.hint ?? 'a run directory holds it as a file');
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if (err instanceof UserError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UserError(`${dir} has no ${MANIFEST_FILE}${hint}`);
    if (code === 'EACCES' || code === 'EPERM') throw fileIOError(err, 'reading', file, { reading: true });
    throw new UserError(`cannot read ${file}: ${code ?? String(err)}${hint}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new UserError(`${file} is not valid JSON (${(err as Error).message.split('\n')[0]})${hint}`);
  }
  const problem = manifestProblem(value);
  if (problem) throw new UserError(`${file} is not a bench run manifest: ${problem}${hint}`);
  return value as RunManifest;
}
