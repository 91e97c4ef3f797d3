// JSONL: the one reader and the one append-only writer of the harness.
//
// Reading streams the file in fixed-size chunks (a 1 GB calls.jsonl is never one string) and yields one JSON object
// per line with its 1-based line number (blank lines count, so numbers match an editor). Lines may end in \n or
// \r\n; blank lines are skipped. Every line must be one JSON object. Two modes:
//   strict:  any bad line is a UserError "file:line: what is wrong".
//   lenient: the same, except a torn last line — bytes after the final newline that do not parse, which is what a
//            run killed in the middle of a write leaves — is skipped and reported (onTornLastLine / tornLastLine).
// A last line without its newline that does parse is a complete row in both modes (files written by other tools
// often lack the final newline); trimTornTail and completeLines follow the same rule.
//
// Writing (JsonlAppender) appends each row as one write() of a complete line, so a kill never splits earlier rows.
import { closeSync, existsSync, fstatSync, ftruncateSync, openSync, readSync, writeSync } from 'node:fs';
import { UserError } from '../errors.js';
import { fileIOError, guardIO } from './io-errors.js';
import { invalidUtf8Offset, isGzip, readTextFile } from '../text-file.js';

export type JsonlMode = 'strict' | 'lenient';

export interface JsonlLine<T = Record<string, unknown>> {
  /** 1-based line number in the file. */
  line: number;
  value: T;
}

export interface JsonlFile<T = Record<string, unknown>> {
  path: string;
  lines: JsonlLine<T>[];
  /** Set (lenient mode) when a torn last line was skipped: its line number. */
  tornLastLine?: number;
}

export interface JsonlReadOptions {
  /** Default 'strict'. */
  mode?: JsonlMode;
  /** Lenient mode: called once with the line number of a skipped torn last line. */
  onTornLastLine?: (line: number) => void;
  /** Bytes per read (default 1 MiB); lines may be longer than a chunk. */
  chunkBytes?: number;
  /** Lenient mode: what else the user can do about a corrupt line, appended to the error (e.g. "or use another --out"). */
  fixHint?: string;
}

const DEFAULT_CHUNK = 1 << 20;

/** "path:line: <what>" as a UserError. */
export function lineError(path: string, line: number, what: string): UserError {
  return new UserError(`${path}:${line}: ${what}`);
}

/** The warning for a skipped torn last line, worded the same by every reader. */
export function tornLineMessage(path: string, line: number): string {
  return `${path}:${line}: skipped a torn last line (the run was probably killed while writing it)`;
}

export function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

interface RawLine {
  text: string;
  line: number;
  /** Whether a newline ended it (false only for the file's last bytes). */
  terminated: boolean;
}

/** Lines of text held in memory (a gzip file, gunzipped whole: its size is the user's data file, not a run log). */
function* linesOf(text: string): Generator<RawLine> {
  const parts = text.split('\n');
  for (let i = 0; i < parts.length; i++) {
    if (i === parts.length - 1 && parts[i] === '') break;
    yield { text: parts[i], line: i + 1, terminated: i < parts.length - 1 };
  }
}

/** One line's bytes as strict UTF-8 text: a NUL byte (a binary file) or an invalid sequence is a UserError naming
 *  the file and the byte offset, never decoded into U+FFFD or echoed. */
function lineText(path: string, bytes: Buffer, lineStart: number): string {
  const nul = bytes.indexOf(0);
  if (nul >= 0)
    throw new UserError(
      `${path} is binary, not text: a NUL byte at byte offset ${lineStart + nul}; expected JSON lines`,
    );
  try {
    return strictUtf8.decode(bytes);
  } catch {
    const at = Math.max(0, invalidUtf8Offset(bytes));
    throw new UserError(
      `${path} is not UTF-8 text: byte 0x${bytes[at].toString(16).padStart(2, '0').toUpperCase()} at byte offset ${lineStart + at} is not valid UTF-8; expected JSON lines`,
    );
  }
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The file's lines as text, read in chunks; a line spanning chunks is joined from its pieces. gzip is read whole. */
function* rawLines(path: string, chunkBytes: number): Generator<RawLine> {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EISDIR') throw new UserError(`${path} is a directory, not a JSONL file`);
    if (code === 'EACCES' || code === 'EPERM') throw fileIOError(err, 'reading', path, { reading: true });
    throw new UserError(`cannot read ${path}: ${code ?? String(err)}`);
  }
  let gzipped = false;
  try {
    const buf = Buffer.allocUnsafe(Math.max(2, chunkBytes));
    let pending: Buffer[] = [];
    let line = 0;
    let offset = 0;
    let lineStart = 0;
    for (let first = true; ; first = false) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      const chunk = buf.subarray(0, n);
      if (first && isGzip(chunk)) {
        gzipped = true;
        break;
      }
      let start = 0;
      for (let nl = chunk.indexOf(10, start); nl >= 0; nl = chunk.indexOf(10, start)) {
        const piece = chunk.subarray(start, nl);
        const bytes = pending.length > 0 ? Buffer.concat([...pending, piece]) : piece;
        pending = [];
        // A newline byte never falls inside a UTF-8 sequence, so each line decodes on its own.
        yield { text: lineText(path, bytes, lineStart), line: ++line, terminated: true };
        start = nl + 1;
        lineStart = offset + start;
      }
      if (start < n) pending.push(Buffer.from(chunk.subarray(start))); // a copy: buf is reused
      offset += n;
    }
    if (pending.length > 0)
      yield { text: lineText(path, Buffer.concat(pending), lineStart), line: ++line, terminated: false };
  } finally {
    closeSync(fd);
  }
  if (gzipped) yield* linesOf(readTextFile(path, 'expected JSON lines (one JSON object per line)'));
}

function describe(value: unknown): string {
  return value === null
    ? 'null'
    : Array.isArray(value)
      ? 'an array'
      : typeof value === 'string'
        ? 'a string'
        : `a ${typeof value}`;
}

function parseError(err: unknown): string {
  const message = (err as Error).message.split('\n')[0];
  return message.length > 120 ? `${message.slice(0, 117)}...` : message;
}

/**
 * Streams the JSON objects of a JSONL file. Throws a UserError naming file and line on a bad line (see the header
 * for what lenient mode skips). The cast to T is the caller's: validate the fields you rely on.
 */
export function* jsonlRows<T = Record<string, unknown>>(
  path: string,
  opts: JsonlReadOptions = {},
): Generator<JsonlLine<T>> {
  const lenient = opts.mode === 'lenient';
  for (const raw of rawLines(path, opts.chunkBytes ?? DEFAULT_CHUNK)) {
    const src = raw.text.trim();
    if (src === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(src);
    } catch (err) {
      // Only the file's last bytes can lack a newline, so an unterminated line is the last one.
      if (lenient && !raw.terminated) {
        opts.onTornLastLine?.(raw.line);
        continue;
      }
      const fix = lenient
        ? `only a torn last line is skipped: fix or delete line ${raw.line}${opts.fixHint ? `, ${opts.fixHint}` : ''}`
        : 'each line must be one JSON object';
      throw lineError(path, raw.line, `not valid JSON (${parseError(err)}); ${fix}`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw lineError(path, raw.line, `expected a JSON object on each line, found ${describe(value)}`);
    }
    yield { line: raw.line, value: value as T };
  }
}

/** Reads a whole JSONL file into memory (for files whose rows are all needed at once). */
export function readJsonl<T = Record<string, unknown>>(path: string, opts: JsonlReadOptions = {}): JsonlFile<T> {
  const lines: JsonlLine<T>[] = [];
  let tornLastLine: number | undefined;
  const onTornLastLine = (line: number) => {
    tornLastLine = line;
    opts.onTornLastLine?.(line);
  };
  for (const row of jsonlRows<T>(path, { ...opts, onTornLastLine })) lines.push(row);
  return tornLastLine === undefined ? { path, lines } : { path, lines, tornLastLine };
}

/** Whether a last line without its newline is a complete JSON object (kept) rather than a torn write (cut). */
function isCompleteRow(tail: Buffer): boolean {
  try {
    const v: unknown = JSON.parse(tail.toString('utf8'));
    return typeof v === 'object' && v !== null && !Array.isArray(v);
  } catch {
    return false;
  }
}

/** Byte offset just past the file's last newline (0 when it has none). */
function endOfLastNewline(fd: number, size: number): number {
  const probe = Buffer.alloc(Math.min(size, DEFAULT_CHUNK));
  let end = size;
  while (end > 0) {
    const from = Math.max(0, end - probe.length);
    const n = readSync(fd, probe, 0, end - from, from);
    const at = probe.subarray(0, n).lastIndexOf(10);
    if (at >= 0) return from + at + 1;
    end = from;
  }
  return 0;
}

function readAt(fd: number, from: number, length: number): Buffer {
  const buf = Buffer.alloc(length);
  let got = 0;
  while (got < length) {
    const n = readSync(fd, buf, got, length - got, from + got);
    if (n === 0) break;
    got += n;
  }
  return buf.subarray(0, got);
}

/**
 * Makes a JSONL file end on a line boundary so appends start on a fresh line: a torn last line (no newline, not a
 * JSON object) is cut off; a complete last row that only lacks its newline gets one. Returns the bytes cut.
 */
export function trimTornTail(file: string): number {
  if (!existsSync(file)) return 0;
  const fd = openSync(file, 'r+');
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return 0;
    const keep = endOfLastNewline(fd, size);
    if (keep === size) return 0;
    if (isCompleteRow(readAt(fd, keep, size - keep))) {
      writeSync(fd, '\n', size);
      return 0;
    }
    ftruncateSync(fd, keep);
    return size - keep;
  } finally {
    closeSync(fd);
  }
}

/**
 * The file's bytes as whole lines, by the rule of trimTornTail (a torn last line left out, a complete unterminated
 * last row given its newline), without changing the file. Empty when the file is absent.
 */
export function completeLines(file: string): Buffer {
  if (!existsSync(file)) return Buffer.alloc(0);
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const keep = endOfLastNewline(fd, size);
    const body = readAt(fd, 0, keep);
    if (keep === size) return body;
    const tail = readAt(fd, keep, size - keep);
    return isCompleteRow(tail) ? Buffer.concat([body, tail, Buffer.from('\n')]) : body;
  } finally {
    closeSync(fd);
  }
}

/** Append-only JSONL writer: each row is one write() of a complete line, so a kill never splits earlier rows. */
export class JsonlAppender {
  private fd: number;
  /** The file's size: this appender is its only writer (the run directory is locked), so no fstat per append. */
  private size: number;
  constructor(readonly file: string) {
    this.fd = guardIO('opening', file, () => {
      trimTornTail(file);
      return openSync(file, 'a');
    });
    this.size = guardIO('reading', file, () => fstatSync(this.fd).size);
  }
  /**
   * Appends one row. A failed or short write (a full disk) is cut back to the last complete line, so the file never
   * ends in half a row, and reported as a RunDirIOError naming the file.
   */
  append(row: unknown): void {
    this.appendRows([row]);
  }
  /** Appends rows in one write (all or, on a failure, none of them). */
  appendRows(rows: readonly unknown[]): void {
    if (rows.length === 0) return;
    let text = '';
    for (const row of rows) text += JSON.stringify(row) + '\n';
    const line = Buffer.from(text);
    guardIO('writing', this.file, () => {
      const start = this.size;
      try {
        let done = 0;
        while (done < line.length) done += writeSync(this.fd, line, done, line.length - done);
        maybeInjectFault(this.file);
        this.size = start + line.length;
      } catch (err) {
        try {
          ftruncateSync(this.fd, start);
        } catch {
          // the torn tail is cut on the next open (trimTornTail)
        }
        throw err;
      }
    });
  }
  close(): void {
    closeSync(this.fd);
  }
}

/**
 * Fault injection for tests, off unless BENCH_TEST_FAIL_WRITES is set: "ENOSPC:N" makes every append after the N-th
 * (of this process) throw an ENOSPC error, so the full-disk path can be tested where no small file system can be
 * mounted. Never set it outside tests.
 */
let appendsSoFar = 0;
function maybeInjectFault(file: string): void {
  const spec = process.env.BENCH_TEST_FAIL_WRITES;
  if (!spec) return;
  const [code, after] = spec.split(':');
  if (++appendsSoFar > Number(after ?? 0))
    throw Object.assign(new Error(`${code}: injected fault, write '${file}'`), { code });
}
