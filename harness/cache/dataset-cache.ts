// On-disk cache of generated datasets: one JSONL file per (task, version, length, seed, tokenizer, generator, format,
// options), holding rows 0..n-1. Files are written to a temporary name and renamed, so a reader never sees a
// partial file (harness/run-dir/atomic-write.ts), and the row count is part of the file name, so no separate index
// can disagree with the data.
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { openAtomic } from '../run-dir/atomic-write.js';
import type { LengthTarget } from '../types.js';

export interface DatasetKey {
  task: string;
  taskVersion: string;
  length: LengthTarget;
  seed: number;
  tokenizer: string;
  /** Version of the row layout written by `bench generate`. */
  generator: string;
  format: string;
  options: Record<string, string>;
}

export function datasetKeyHash(key: DatasetKey): string {
  const options = Object.keys(key.options)
    .sort()
    .map((k) => [k, key.options[k]]);
  const canonical = JSON.stringify([
    key.task,
    key.taskVersion,
    key.length.kind,
    key.length.value,
    key.seed,
    key.tokenizer,
    key.generator,
    key.format,
    options,
  ]);
  return createHash('sha256').update(canonical).digest('hex').slice(0, 24);
}

function safeName(s: string): string {
  return s.replace(/[^A-Za-z0-9._-]/g, '_');
}

export class DatasetCache {
  constructor(readonly dir: string) {}

  private folder(key: DatasetKey): string {
    return join(this.dir, 'datasets', safeName(key.task));
  }

  private stem(key: DatasetKey): string {
    return `${safeName(key.length.label)}-${datasetKeyHash(key)}.${safeName(key.format)}`;
  }

  /** The cached file with the most rows for this key, if any. */
  lookup(key: DatasetKey): { path: string; rows: number } | undefined {
    const folder = this.folder(key);
    if (!existsSync(folder)) return undefined;
    const stem = this.stem(key);
    let best: { path: string; rows: number } | undefined;
    for (const name of readdirSync(folder)) {
      const m = /^(.*)\.n(\d+)\.jsonl$/.exec(name);
      if (!m || m[1] !== stem) continue;
      const rows = Number(m[2]);
      if (!best || rows > best.rows) best = { path: join(folder, name), rows };
    }
    return best;
  }

  /** Where a file of `rows` rows for this key lives once committed. */
  pathFor(key: DatasetKey, rows: number): string {
    return join(this.folder(key), `${this.stem(key)}.n${rows}.jsonl`);
  }

  /** Opens a temporary file for a new entry; commit() renames it into place and drops smaller entries. */
  begin(key: DatasetKey, rows: number): { fd: number; commit(): string; abort(): void } {
    mkdirSync(this.folder(key), { recursive: true });
    const final = this.pathFor(key, rows);
    const out = openAtomic(final);
    return {
      fd: out.fd,
      commit: () => {
        out.commit();
        for (const name of readdirSync(this.folder(key))) {
          const m = /^(.*)\.n(\d+)\.jsonl$/.exec(name);
          if (m && m[1] === this.stem(key) && Number(m[2]) < rows)
            rmSync(join(this.folder(key), name), { force: true });
        }
        return final;
      },
      abort: () => out.abort(),
    };
  }
}

/**
 * Copies the first `lines` complete lines (newline included) of `path` to `fds`, in 1 MiB blocks: one pass finds
 * where the last wanted line ends, a second copies exactly those bytes, so a torn last line is never copied.
 * Returns the number of lines copied.
 */
export function copyLines(path: string, lines: number, fds: number[]): number {
  if (lines <= 0) return 0;
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(1 << 20);
    let found = 0;
    let endByte = 0;
    let pos = 0;
    scan: for (;;) {
      const n = readSync(fd, buf, 0, buf.length, pos);
      if (n === 0) break;
      for (let i = 0; i < n; i++) {
        if (buf[i] === 10) {
          found++;
          endByte = pos + i + 1;
          if (found === lines) break scan;
        }
      }
      pos += n;
    }
    for (let at = 0; at < endByte;) {
      const n = readSync(fd, buf, 0, Math.min(buf.length, endByte - at), at);
      if (n === 0) break;
      for (const out of fds) writeAll(out, buf, n);
      at += n;
    }
    return found;
  } finally {
    closeSync(fd);
  }
}

export function writeAll(fd: number, buf: Buffer, length = buf.length): void {
  let off = 0;
  while (off < length) off += writeSync(fd, buf, off, length - off);
}

/** A string field written in pieces, so a multi-million-token context never becomes one JSON string. */
export interface StreamedText {
  streamed: Iterable<string>;
}

function isStreamed(v: unknown): v is StreamedText {
  return typeof v === 'object' && v !== null && 'streamed' in v;
}

/**
 * Writes one JSON object as a line to every fd. Fields keep the given order; a StreamedText value is written
 * as one JSON string assembled from its escaped pieces.
 */
export function writeJsonRow(fds: number[], fields: Array<[string, unknown]>): void {
  const emit = (s: string) => {
    const b = Buffer.from(s, 'utf8');
    for (const fd of fds) writeAll(fd, b);
  };
  let pending = '{';
  fields.forEach(([name, value], i) => {
    pending += (i ? ',' : '') + JSON.stringify(name) + ':';
    if (isStreamed(value)) {
      pending += '"';
      for (const piece of value.streamed) {
        pending += JSON.stringify(piece).slice(1, -1);
        if (pending.length >= 1 << 20) {
          emit(pending);
          pending = '';
        }
      }
      pending += '"';
    } else {
      pending += JSON.stringify(value);
    }
  });
  emit(pending + '}\n');
}
