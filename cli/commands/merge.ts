// `bench merge SHARD_DIR... --out DIR`: joins the run directories of one run split with --shard i/n into one run
// directory. The result is built in a temporary sibling folder (`.<DIR>.merge-<host>-<pid>.tmp`) and moved into
// place: a new DIR is renamed whole; a previous merge's DIR gets only the merge's own files replaced, one atomic
// rename each (samples.jsonl, calls.jsonl, memory.jsonl, prompts, then manifest.json), so the user's own files there stay. A
// temporary left by a killed merge on this host is removed by the next merge into the same DIR. The caller
// recomputes the summary from the merged samples.jsonl.
import { costModel } from '../cost-preset.js';
import {
  closeSync,
  cpSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { UserError } from '../../harness/errors.js';
import { completeLines, jsonlRows } from '../../harness/run-dir/jsonl.js';
import { guardFiles } from '../../harness/run-dir/io-errors.js';
import { lockRunDir } from '../../harness/run-dir/lock.js';
import {
  hasManifest,
  readManifest,
  writeManifest,
  type MergedShard,
  type RunManifest,
} from '../../harness/run-dir/manifest.js';
import { recordKey } from '../../harness/run-dir/record-key.js';
import { MEMORY_TRACE_FILE } from '../../harness/run-dir/memory-trace.js';
import { traceKey, traceUnitKey, type MemoryTraceLine } from '../../harness/memory/trace-line.js';
import type { SampleRecord } from '../../harness/types.js';
import type { CommandIO, CommandOf } from '../../harness/config/commands.js';
import { formatSummaryTable, loadRecords, summarize, writeSummary } from '../../reports/summary.js';
import { identityDifferences, type RunIdentity } from '../../harness/run-dir/identity.js';
import { expectedSource, markCompleteness, missingCells } from '../../reports/completeness.js';
import { loadManifestView } from '../../reports/manifest.js';
import type { CliContext } from '../context.js';
import { plural } from '../../harness/util/plural.js';

export interface MergeOptions {
  shardDirs: string[];
  out: string;
  /** Notes for stderr (a stale temporary folder removed). */
  onNote?: (message: string) => void;
}

export interface MergeResult {
  /** Sample lines in the merged samples.jsonl. */
  samples: number;
  /** Call lines in the merged calls.jsonl. */
  calls: number;
  /** Sample lines dropped because an earlier shard already had that `${id}#${method}`. */
  duplicates: number;
  /** Sum of the shards' manifest `units` (samples × methods planned); samples < units means a shard was unfinished. */
  units: number;
  out: string;
}

/** Manifest fields (besides identity) that must agree: they decide which units make up the run. */
const RUN_FIELDS = ['tasks', 'methods', 'lengths', 'samples'] as const;

interface Shard {
  dir: string;
  manifest: RunManifest;
  index: number;
  count: number;
}

const SHARD_HINT = 'pass run directories written by bench run --shard i/n';

function readShard(dir: string): Shard {
  const manifest = readManifest(dir, { hint: SHARD_HINT });
  const s = manifest.shard;
  if (!s)
    throw new UserError(
      `${dir} is not a shard (its manifest has no shard i/n); merge only directories run with --shard i/n`,
    );
  return { dir, manifest, index: s.index, count: s.count };
}

function show(value: unknown): string {
  const text = value === undefined ? 'nothing' : JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** JSON with sorted keys, for comparing manifest values whatever their key order. */
function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stable(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** How a message names a manifest field: the run's grid by its flags, identity parts by what the user set. */
const FIELD_NAME: Record<string, string> = {
  tasks: 'tasks',
  methods: 'methods',
  lengths: 'lengths (--lengths)',
  samples: 'sample count (--samples)',
  'identity.seed': 'seed (--seed)',
  'identity.tokenizer': 'tokenizer (--tokenizer)',
  'identity.model': 'model (--model/--model-name)',
  'identity.trial': 'trial (--trial)',
  'identity.options': "task options (--data and the tasks' own flags)",
  'identity.methods': 'method settings',
  'identity.decoding': "tasks' sampling (--temperature/--top-p or the tasks' own decoding)",
};

/** The first run field (the grid: tasks, methods, lengths, samples), or else identity field, on which two manifests
 *  differ, named as the user set it (e.g. "tasks", "seed (--seed)"). The grid comes first: shards of other tasks
 *  also differ in their tasks' decoding, which is not what the user changed. */
export function manifestDifference(a: RunManifest, b: RunManifest): { field: string; a: unknown; b: unknown } | null {
  const name = (k: string) => FIELD_NAME[k] ?? k.replace(/^identity\./, 'setting ');
  const grid = (m: RunManifest, k: (typeof RUN_FIELDS)[number]) =>
    k === 'tasks' && Array.isArray(m.tasks) ? m.tasks.map((t) => t.name) : m[k];
  for (const k of RUN_FIELDS)
    if (stable(a[k]) !== stable(b[k])) return { field: name(k), a: grid(a, k), b: grid(b, k) };
  const ia: Record<string, unknown> = { ...a.identity };
  const ib: Record<string, unknown> = { ...b.identity };
  for (const k of [...new Set([...Object.keys(ia), ...Object.keys(ib)])].sort()) {
    if (stable(ia[k]) !== stable(ib[k])) return { field: name(`identity.${k}`), a: ia[k], b: ib[k] };
  }
  return null;
}

function checkShards(shards: Shard[]): void {
  const first = shards[0];
  for (const s of shards.slice(1)) {
    const settings = identityDifferences(first.manifest.identity, s.manifest.identity as RunIdentity);
    if (settings.length > 0)
      throw new UserError(
        `shards ${first.dir} and ${s.dir} were run with other settings: ${settings.join('; ')}; merge only shards of one run`,
      );
    const d = manifestDifference(first.manifest, s.manifest);
    if (d)
      throw new UserError(
        `shards differ in ${d.field}: ${first.dir} has ${show(d.a)}, ${s.dir} has ${show(d.b)}; merge only shards of one run`,
      );
    if (s.count !== first.count) {
      throw new UserError(
        `shards disagree on the shard count: ${first.dir} is ${first.index}/${first.count}, ${s.dir} is ${s.index}/${s.count}`,
      );
    }
  }
  for (const s of shards)
    if (s.index < 0 || s.index >= s.count) throw new UserError(`${s.dir}: shard ${s.index}/${s.count} is out of range`);
  const byIndex = new Map<number, Shard>();
  for (const s of shards) {
    const seen = byIndex.get(s.index);
    if (seen) throw new UserError(`shard ${s.index}/${s.count} given twice: ${seen.dir} and ${s.dir}`);
    byIndex.set(s.index, s);
  }
  const missing = Array.from({ length: first.count }, (_, i) => i).filter((i) => !byIndex.has(i));
  if (missing.length > 0) {
    throw new UserError(
      `shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i}/${first.count}`).join(', ')} missing ` +
        `(given ${[...byIndex.keys()]
          .sort((x, y) => x - y)
          .map((i) => `${i}/${first.count}`)
          .join(', ')}); pass all ${first.count} shard directories`,
    );
  }
}

/** Whether `out` may receive the merge: absent, empty, or a previous merge of a run with the same identity. */
function checkOut(out: string, first: Shard): void {
  if (!existsSync(out)) return;
  if (!statSync(out).isDirectory()) throw new UserError(`--out ${out} is a file; pass a directory`);
  if (!hasManifest(out)) {
    if (readdirSync(out).length === 0) return;
    throw new UserError(`--out ${out} is not empty and holds no bench run; use another --out`);
  }
  const existing = readManifest(out, { hint: 'use another --out' });
  const d = manifestDifference(existing, first.manifest);
  if (d)
    throw new UserError(
      `--out ${out} already holds a different run (${d.field}: ${show(d.a)} vs ${show(d.b)}); use another --out`,
    );
  if (!Array.isArray(existing.merged_from))
    throw new UserError(`--out ${out} already holds a run that is not a merge; use another --out`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The staging folder of this merge into `out`. */
function stagingFor(out: string): string {
  return join(dirname(out), `.${basename(out)}.merge-${hostname()}-${process.pid}.tmp`);
}

/**
 * Removes the temporaries that merges into `out` killed on this host left beside it: staging folders
 * (`.<out>.merge-<host>-<pid>.tmp`, or `.<out>.merge-<pid>.tmp` from earlier versions) and the old copy an earlier
 * version moved aside (`.<out>.old-<pid>.tmp`, put back when `out` itself is gone). A live merge's are kept.
 */
function cleanStale(out: string, note: (m: string) => void): void {
  const parent = dirname(out);
  if (!existsSync(parent)) return;
  const base = basename(out);
  for (const name of readdirSync(parent)) {
    if (!name.startsWith(`.${base}.`) || !name.endsWith('.tmp')) continue;
    const rest = name.slice(base.length + 2, -'.tmp'.length);
    const m = /^(merge|old)-(?:(.+)-)?(\d+)$/.exec(rest);
    if (!m) continue;
    const [, kind, host, pidText] = m;
    const pid = Number(pidText);
    if ((host !== undefined && host !== hostname()) || pid === process.pid || alive(pid)) continue;
    const path = join(parent, name);
    if (kind === 'old' && !existsSync(out)) {
      renameSync(path, out);
      note(`put back ${out} from ${path}, moved aside by a merge that was killed (pid ${pid})`);
      continue;
    }
    rmSync(path, { recursive: true, force: true });
    note(`removed ${path}, a temporary folder left by a merge that was killed (pid ${pid})`);
  }
}

/**
 * Moves the merge built in `staging` into an existing merge directory `out`, replacing only the merge's own files
 * (each by one rename) and adding prompts (stored by content hash), so whatever else the user keeps there stays.
 */
function replaceOwn(staging: string, out: string): void {
  const prompts = join(staging, 'prompts');
  if (existsSync(prompts)) cpSync(prompts, join(out, 'prompts'), { recursive: true, force: false });
  // memory.jsonl: the merge's when its shards had one; an earlier merge's copy is never left beside other samples.
  if (existsSync(join(staging, MEMORY_TRACE_FILE)))
    renameSync(join(staging, MEMORY_TRACE_FILE), join(out, MEMORY_TRACE_FILE));
  else rmSync(join(out, MEMORY_TRACE_FILE), { force: true });
  for (const name of ['samples.jsonl', 'calls.jsonl', 'manifest.json'])
    renameSync(join(staging, name), join(out, name));
}

/**
 * Appends a shard's memory.jsonl lines to the merged one (open at `fd`): only lines of samples the merge took from
 * this shard, each (sample, method, chunk) once. Streamed: the file may be far larger than the samples. Returns the
 * lines written.
 */
function mergeMemoryTrace(file: string, fd: number, taken: Set<string>, seen: Set<string>): number {
  if (!existsSync(file)) return 0;
  let n = 0;
  try {
    for (const { value } of jsonlRows<MemoryTraceLine>(file, { mode: 'lenient' })) {
      const key = traceKey(value);
      if (!taken.has(traceUnitKey(value)) || seen.has(key)) continue;
      seen.add(key);
      writeSync(fd, JSON.stringify(value) + '\n');
      n++;
    }
  } catch (err) {
    if (err instanceof UserError) throw new UserError(`${err.message}; the shard's memory.jsonl is damaged`);
    throw err;
  }
  return n;
}

/** A shard's samples, streamed; a torn last line from a killed run is left out, any other bad line is an error. */
function* readSamples(file: string): Generator<SampleRecord> {
  if (!existsSync(file)) return;
  try {
    for (const { value } of jsonlRows<SampleRecord>(file, { mode: 'lenient' })) yield value;
  } catch (err) {
    if (err instanceof UserError) throw new UserError(`${err.message}; the shard's samples.jsonl is damaged`);
    throw err;
  }
}

export async function mergeCommand(opts: MergeOptions): Promise<MergeResult> {
  if (opts.shardDirs.length === 0) throw new UserError('bench merge needs shard directories');
  const out = resolve(opts.out);
  const dirs = opts.shardDirs.map((d) => resolve(d));
  if (dirs.includes(out))
    throw new UserError(`--out ${opts.out} is one of the shard directories; pass a new directory`);
  for (const d of dirs)
    if (!existsSync(d) || !statSync(d).isDirectory()) throw new UserError(`shard directory not found: ${d}`);

  const shards = dirs.map(readShard);
  checkShards(shards);
  shards.sort((a, b) => a.index - b.index);
  checkOut(out, shards[0]);
  // A read-only mount, a file in the way, another user's folder: one line naming the file (exit 2).
  return guardFiles('writing', out, {}, () => merge(opts, shards, out));
}

function merge(opts: MergeOptions, shards: Shard[], out: string): MergeResult {
  // Refuse shards that a bench run is still writing, and keep them still while they are read.
  const unlocks: Array<() => void> = [];
  const staging = stagingFor(out);
  try {
    for (const s of shards) unlocks.push(lockRunDir(s.dir));
    if (existsSync(out)) unlocks.push(lockRunDir(out));
    cleanStale(out, opts.onNote ?? (() => {}));
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging, { recursive: true });

    const seen = new Set<string>();
    const sampleLines: string[] = [];
    const callParts: Buffer[] = [];
    const mergedFrom: MergedShard[] = [];
    let duplicates = 0;
    let calls = 0;
    const memoryFiles = shards.map((s) => join(s.dir, MEMORY_TRACE_FILE)).filter((f) => existsSync(f));
    const memoryFd = memoryFiles.length ? openSync(join(staging, MEMORY_TRACE_FILE), 'w') : undefined;
    const memorySeen = new Set<string>();
    let units = 0;
    // The merged run planned what its shards planned together (per task/length, samples per method).
    let expected: Record<string, number> | undefined;
    for (const s of shards) {
      const planned = s.manifest.expected;
      if (planned && typeof planned === 'object') {
        expected ??= {};
        for (const [k, v] of Object.entries(planned as Record<string, unknown>))
          if (typeof v === 'number') expected[k] = (expected[k] ?? 0) + v;
      }
      let kept = 0;
      const taken = new Set<string>();
      for (const r of readSamples(join(s.dir, 'samples.jsonl'))) {
        const key = recordKey(r);
        if (seen.has(key)) {
          duplicates++;
          continue;
        }
        seen.add(key);
        taken.add(key);
        sampleLines.push(JSON.stringify(r));
        kept++;
      }
      if (memoryFd !== undefined) mergeMemoryTrace(join(s.dir, MEMORY_TRACE_FILE), memoryFd, taken, memorySeen);
      const part = completeLines(join(s.dir, 'calls.jsonl'));
      let n = 0;
      for (const byte of part) if (byte === 10) n++;
      callParts.push(part);
      calls += n;
      units += s.manifest.units;
      // Prompts stored by content hash: same name, same content, so the first copy wins.
      const prompts = join(s.dir, 'prompts');
      if (existsSync(prompts)) cpSync(prompts, join(staging, 'prompts'), { recursive: true, force: false });
      mergedFrom.push({
        dir: s.dir,
        shard: { index: s.index, count: s.count },
        samples: kept,
        calls: n,
        environment: s.manifest.environment ?? null,
      });
    }
    if (memoryFd !== undefined) closeSync(memoryFd);
    writeFileSync(join(staging, 'samples.jsonl'), sampleLines.length ? sampleLines.join('\n') + '\n' : '');
    writeFileSync(join(staging, 'calls.jsonl'), Buffer.concat(callParts));
    // A shard's own history (its invocations) does not describe the merged directory; merged_from does.
    const { resumed: _resumed, history: _history, ...base } = shards[0].manifest;
    const manifest: RunManifest = {
      ...base,
      command: ['bench', 'merge', ...opts.shardDirs, '--out', opts.out].join(' '),
      shard: null,
      units,
      ...(expected ? { expected } : {}),
      merged_from: mergedFrom,
    };
    writeManifest(staging, manifest);

    if (existsSync(out)) {
      // Locked by this merge meanwhile: no run or merge writes there while its files are replaced.
      replaceOwn(staging, out);
    } else {
      for (const u of unlocks.splice(0).reverse()) u();
      mkdirSync(dirname(out), { recursive: true });
      renameSync(staging, out);
    }
    return { samples: sampleLines.length, calls, duplicates, units, out };
  } finally {
    for (const u of unlocks.reverse()) u();
    rmSync(staging, { recursive: true, force: true });
  }
}

export async function mergeCli(cmd: CommandOf<'merge'>, io: CommandIO, ctx: CliContext): Promise<number> {
  const r = await mergeCommand({ shardDirs: cmd.shardDirs, out: cmd.out, onNote: (m) => io.err(`bench: note: ${m}`) });
  const planned = [expectedSource(loadManifestView(cmd.out))];
  const facets = (await ctx.catalog()).reportFacets.all();
  const rows = markCompleteness(summarize(await loadRecords(cmd.out), facets, costModel()), planned);
  const missing = missingCells(rows, planned);
  writeSummary(cmd.out, rows, missing);
  io.out(formatSummaryTable(rows, facets, missing));
  io.out(`merged ${plural(r.samples, 'sample')} into ${cmd.out}`);
  return 0;
}
