import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { guardIO } from './io-errors.js';
import { UserError } from '../errors.js';
import type { CallRecord, SampleRecord } from '../types.js';
import { CheckpointStore } from './checkpoints.js';
import { JsonlAppender, jsonlRows } from './jsonl.js';
import { lockRunDir } from './lock.js';
import {
  gridAdditions,
  hasManifest,
  manifestGrid,
  readManifest,
  writeManifest,
  type RunGrid,
  type RunManifest,
} from './manifest.js';
import { recordKey } from './record-key.js';
import { compactMemoryTrace, MEMORY_TRACE_FILE, MemoryTraceWriter, type KeepChunks } from './memory-trace.js';
import type { MemoryTraceLine } from '../memory/trace-line.js';
import { identityDifferences, type RunIdentity } from './identity.js';

/**
 * Creates `dir` and its missing ancestors one level at a time (never a recursive mkdir, which spins forever under
 * /proc), each failure a one-line RunDirIOError naming the directory it could not create.
 */
export function makeDirs(dir: string): void {
  const missing: string[] = [];
  for (let p = resolve(dir); !existsSync(p); p = dirname(p)) {
    missing.unshift(p);
    if (dirname(p) === p) break;
  }
  for (const p of missing)
    guardIO('creating', p, () => {
      try {
        mkdirSync(p);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
    });
}

/** A run directory: manifest.json, samples.jsonl (one line per finished sample), calls.jsonl, memory.jsonl (one line
 *  per memory update, harness/run-dir/memory-trace.ts), checkpoints/. */
export class RunDir {
  readonly samples: JsonlAppender;
  readonly calls: JsonlAppender;
  readonly checkpoints: CheckpointStore;
  readonly finished: Map<string, SampleRecord>;
  /** The manifest the directory held when opened (null: a new directory). */
  readonly previous: RunManifest | null;
  private unlock: () => void;
  private memory?: MemoryTraceWriter;

  private constructor(
    readonly dir: string,
    finished: Map<string, SampleRecord>,
    unlock: () => void,
    previous: RunManifest | null,
  ) {
    this.previous = previous;
    this.finished = finished;
    this.unlock = unlock;
    this.samples = new JsonlAppender(join(dir, 'samples.jsonl'));
    this.calls = new JsonlAppender(join(dir, 'calls.jsonl'));
    this.checkpoints = new CheckpointStore(dir);
  }

  /**
   * Opens (creating or resuming) a run directory. Refuses one that holds a run with another identity, and, unless
   * `extend`, a `grid` that adds tasks, lengths or methods to the ones the directory holds (a subset resumes them).
   */
  static open(
    dir: string,
    identity: RunIdentity,
    opts: { grid?: RunGrid; extend?: boolean; onNote?: (message: string) => void } = {},
  ): RunDir {
    makeDirs(dir);
    const unlock = guardIO('locking', join(dir, 'run.lock'), () => lockRunDir(dir, opts.onNote));
    try {
      let previous: RunManifest | null = null;
      if (hasManifest(dir)) {
        previous = readManifest(dir, { hint: 'move the directory away or use another --out' });
        const diff = identityDifferences(previous.identity, identity);
        if (diff.length > 0)
          throw new UserError(
            `${dir} holds a run made with other settings: ${diff.join('; ')}. Use another --out to keep both, or the same settings to resume`,
          );
        const added = opts.grid ? gridAdditions(manifestGrid(previous), opts.grid) : [];
        if (added.length > 0 && !opts.extend)
          throw new UserError(
            `${dir} holds another run's grid; this run adds ${added.join('; ')}: pass --extend to add them to this directory, or use another --out`,
          );
      }
      // A torn last line (a killed run) is skipped here and cut off by the appender; a later copy of a sample wins.
      const finished = new Map<string, SampleRecord>();
      const samplesFile = join(dir, 'samples.jsonl');
      if (existsSync(samplesFile))
        for (const { value } of jsonlRows<SampleRecord>(samplesFile, {
          mode: 'lenient',
          fixHint: 'or use another --out',
        }))
          finished.set(recordKey(value), value);
      return new RunDir(dir, finished, unlock, previous);
    } catch (err) {
      unlock();
      throw err;
    }
  }

  writeManifest(manifest: RunManifest): void {
    guardIO('writing', join(this.dir, 'manifest.json'), () => writeManifest(this.dir, manifest));
  }

  appendSample(key: string, record: SampleRecord): void {
    this.samples.append(record);
    this.finished.set(key, record);
    this.checkpoints.clear(key);
  }

  /** Appends call records in one write (all or, on a failure, none of them). */
  appendCalls(records: readonly CallRecord[]): void {
    this.calls.appendRows(records);
  }

  /**
   * Makes memory.jsonl consistent with what this invocation will run (`keep`: the chunks each unit keeps) and, when
   * `write`, opens it for appending. Returns the units whose checkpoint was dropped (a gap in their lines).
   */
  openMemoryTrace(keep: KeepChunks, write: boolean): string[] {
    const file = join(this.dir, MEMORY_TRACE_FILE);
    const { restart } = guardIO('rewriting', file, () => compactMemoryTrace(file, keep));
    for (const key of restart) this.checkpoints.clear(key);
    if (write) this.memory = guardIO('reading', file, () => new MemoryTraceWriter(file));
    return restart;
  }

  appendMemory(lines: readonly MemoryTraceLine[]): void {
    this.memory?.append(lines);
  }

  close(): void {
    this.samples.close();
    this.calls.close();
    this.memory?.close();
    this.unlock();
  }
}
