// Atomic file replacement: write a temporary file in the target's own directory, then rename it over the target.
// A reader sees the old file or the new one, never a partial one; a failed write leaves the old file as it was and
// removes the temporary. Every whole-file write of the harness (manifests, checkpoints, prompts, summaries,
// baselines, caches, generated data) goes through here.
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { threadId } from 'node:worker_threads';

export interface AtomicOptions {
  /** fsync the data before the rename (survives a power cut, not only a kill). Default false. */
  fsync?: boolean;
}

let counter = 0;

/**
 * A temporary name next to `file` (same directory, so the rename is atomic), unique per process, worker thread and
 * call: `<file>.tmp-<pid>-<thread>-<n>`.
 */
export function tempPathFor(file: string): string {
  return `${file}.tmp-${process.pid}-${threadId}-${++counter}`;
}

/** A temporary file being filled: commit() renames it over the target, abort() removes it. */
export interface AtomicFile {
  readonly fd: number;
  readonly temp: string;
  /** Closes (fsyncs when asked) and renames the temporary over the target. On failure the temporary is removed. */
  commit(): void;
  /** Closes and removes the temporary; the target is untouched. Safe to call after commit() or twice. */
  abort(): void;
}

/** Opens a temporary next to `file` for writing in pieces (streamed output). */
export function openAtomic(file: string, opts: AtomicOptions = {}): AtomicFile {
  const temp = tempPathFor(file);
  const fd = openSync(temp, 'w');
  let open = true;
  let done = false;
  const close = () => {
    if (open) closeSync(fd);
    open = false;
  };
  const abort = () => {
    if (done) return;
    done = true;
    try {
      close();
    } finally {
      rmSync(temp, { force: true });
    }
  };
  return {
    fd,
    temp,
    commit() {
      if (done) throw new Error(`${file}: atomic write already finished`);
      try {
        if (opts.fsync) fsyncSync(fd);
        close();
        renameSync(temp, file);
        done = true;
      } catch (err) {
        abort();
        throw err;
      }
    },
    abort,
  };
}

/** Replaces `file` with `data` atomically. The parent directory must exist. */
export function writeFileAtomic(file: string, data: string | NodeJS.ArrayBufferView, opts: AtomicOptions = {}): void {
  const out = openAtomic(file, opts);
  try {
    writeFileSync(out.fd, data);
  } catch (err) {
    out.abort();
    throw err;
  }
  out.commit();
}

/** `value` as pretty JSON (two-space indent, trailing newline), written atomically. */
export function writeJsonAtomic(file: string, value: unknown, opts: AtomicOptions = {}): void {
  writeFileAtomic(file, JSON.stringify(value, null, 2) + '\n', opts);
}
