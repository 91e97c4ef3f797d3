import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../errors.js';
import type { CallRecord, SampleRecord } from '../types.js';
import { CheckpointStore } from './checkpoints.js';
import { JsonlAppender, readJsonl } from './jsonl.js';
import { lockRunDir } from './lock.js';

export function writeJsonAtomic(file: string, value: unknown): void {
  writeFileSync(file + '.tmp', JSON.stringify(value, null, 2) + '\n');
  renameSync(file + '.tmp', file);
}

/** A run directory: manifest.json, samples.jsonl (one line per finished sample), calls.jsonl, checkpoints/. */
export class RunDir {
  readonly samples: JsonlAppender;
  readonly calls: JsonlAppender;
  readonly checkpoints: CheckpointStore;
  readonly finished: Map<string, SampleRecord>;
  private unlock: () => void;

  private constructor(readonly dir: string, finished: Map<string, SampleRecord>, unlock: () => void) {
    this.finished = finished;
    this.unlock = unlock;
    this.samples = new JsonlAppender(join(dir, 'samples.jsonl'));
    this.calls = new JsonlAppender(join(dir, 'calls.jsonl'));
    this.checkpoints = new CheckpointStore(dir);
  }

  /** Opens (creating or resuming) a run directory. Refuses one that holds a run with another identity. */
  static open(dir: string, identity: Record<string, unknown>): RunDir {
    mkdirSync(dir, { recursive: true });
    const unlock = lockRunDir(dir);
    try {
      const manifestFile = join(dir, 'manifest.json');
      if (existsSync(manifestFile)) {
        let previous: Record<string, unknown>;
        try {
          previous = JSON.parse(readFileSync(manifestFile, 'utf8'));
        } catch {
          throw new UserError(`${manifestFile} is not valid JSON; move the directory away or use another --out`);
        }
        const before = JSON.stringify(previous.identity ?? null);
        const now = JSON.stringify(identity);
        if (before !== now) {
          const diff = Object.keys(identity).filter((k) => JSON.stringify((previous.identity as Record<string, unknown> | undefined)?.[k]) !== JSON.stringify(identity[k]));
          throw new UserError(`${dir} holds a run with different settings (${diff.join(', ') || 'identity'}); use another --out to keep both`);
        }
      }
      const { rows } = readJsonl<SampleRecord & { key?: string }>(join(dir, 'samples.jsonl'));
      const finished = new Map<string, SampleRecord>();
      for (const r of rows) finished.set(`${r.id}#${r.method}`, r);
      return new RunDir(dir, finished, unlock);
    } catch (err) {
      unlock();
      throw err;
    }
  }

  writeManifest(manifest: Record<string, unknown>): void {
    writeJsonAtomic(join(this.dir, 'manifest.json'), manifest);
  }

  appendSample(key: string, record: SampleRecord): void {
    this.samples.append(record);
    this.finished.set(key, record);
    this.checkpoints.clear(key);
  }

  appendCall(record: CallRecord): void {
    this.calls.append(record);
  }

  close(): void {
    this.samples.close();
    this.calls.close();
    this.unlock();
  }
}
