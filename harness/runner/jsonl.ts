import { closeSync, existsSync, ftruncateSync, openSync, readFileSync, readSync, fstatSync, writeSync } from 'node:fs';
import { UserError, errorMessage } from '../errors.js';

/** Parses a JSONL file, skipping a torn last line (a run killed mid-write). Lines before it must be valid. */
export function readJsonl<T>(file: string): { rows: T[]; tornBytes: number } {
  if (!existsSync(file)) return { rows: [], tornBytes: 0 };
  const text = readFileSync(file, 'utf8');
  const rows: T[] = [];
  let start = 0;
  let lineNo = 0;
  while (start < text.length) {
    const nl = text.indexOf('\n', start);
    if (nl < 0) return { rows, tornBytes: Buffer.byteLength(text.slice(start)) };
    const line = text.slice(start, nl);
    lineNo++;
    if (line.trim() !== '') {
      try {
        rows.push(JSON.parse(line) as T);
      } catch (err) {
        throw new UserError(`${file}:${lineNo}: not valid JSON (${errorMessage(err)}); only a torn last line is skipped: fix or delete line ${lineNo}, or use another --out`);
      }
    }
    start = nl + 1;
  }
  return { rows, tornBytes: 0 };
}

/** Cuts a torn last line (no trailing newline) off a JSONL file so appends start on a fresh line. */
export function trimTornTail(file: string): number {
  if (!existsSync(file)) return 0;
  const fd = openSync(file, 'r+');
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return 0;
    const probe = Buffer.alloc(Math.min(size, 1 << 20));
    let end = size;
    // Walk back to the last newline.
    for (;;) {
      const from = Math.max(0, end - probe.length);
      const n = readSync(fd, probe, 0, end - from, from);
      const at = probe.subarray(0, n).lastIndexOf(10);
      if (at >= 0) {
        const keep = from + at + 1;
        if (keep < size) ftruncateSync(fd, keep);
        return size - keep;
      }
      if (from === 0) {
        ftruncateSync(fd, 0);
        return size;
      }
      end = from;
    }
  } finally {
    closeSync(fd);
  }
}

/** Append-only JSONL writer: each row is one write() of a complete line, so a kill never splits earlier rows. */
export class JsonlAppender {
  private fd: number;
  constructor(readonly file: string) {
    trimTornTail(file);
    this.fd = openSync(file, 'a');
  }
  append(row: unknown): void {
    writeSync(this.fd, JSON.stringify(row) + '\n');
  }
  close(): void {
    closeSync(this.fd);
  }
}
