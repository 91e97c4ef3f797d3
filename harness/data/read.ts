// Reading other tools' data files row by row: a JSON array (MemAgent's `json.dump` lists) or JSONL (RULER,
// LongBench, ours), told apart by the first byte of content, never by the file name. Rows are scanned once with a
// fixed read buffer (sha256 on the way), strictly UTF-8-decoded and JSON-parsed one at a time; each row's byte range
// is kept so that a long context can be read again when its sample is built, instead of being held for the whole run.
import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync, readSync, statSync, type Stats } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import { gunzipSync } from 'node:zlib';
import { UserError } from '../errors.js';
import { invalidUtf8Offset, isGzip, refuseNonRegular } from '../text-file.js';

export type Container = 'jsonl' | 'json-array';

/** Where one row sits in its file. */
export interface RowRef {
  /** 0-based position among the file's rows (blank JSONL lines do not count). */
  ordinal: number;
  /** 1-based line of a JSONL row; for a JSON array the line its item starts on. */
  line: number;
  /** Byte range of the row's JSON text. */
  start: number;
  end: number;
  container: Container;
}

export interface ScannedFile {
  path: string;
  container: Container;
  sha256: string;
  size: number;
  mtimeMs: number;
  rows: number;
  /** True for a gzip file (read decompressed; its sha256 is of the stored bytes). */
  compressed: boolean;
}

const CHUNK = 1 << 20;

/**
 * The longest row a data file may hold (256 MiB: some 60M tokens of context, far above any benchmark's). A row is
 * held whole while it is collected, so a file with no line end (binary junk, a runaway generator) is refused at this
 * size instead of growing memory until the process dies; V8 could not make a string of much more anyway.
 */
export const MAX_ROW_BYTES = 256 << 20;

const mib = (bytes: number) => `${Math.round(bytes / (1 << 20))} MiB`;

/** "line 12" for JSONL, "item 3" (0-based, as Python indexes the list) for a JSON array. */
export function whereOf(ref: Pick<RowRef, 'ordinal' | 'line' | 'container'>): string {
  return ref.container === 'jsonl' ? `line ${ref.line}` : `item ${ref.ordinal}`;
}

/** A UserError "PATH: line N: what" / "PATH: item N: what". */
export function rowError(path: string, ref: Pick<RowRef, 'ordinal' | 'line' | 'container'>, what: string): UserError {
  return new UserError(`${path}: ${whereOf(ref)}: ${what}`);
}

export { isGzip };

/** The offset of the first byte that is not valid UTF-8 (harness/text-file.ts), or -1. */
export const firstInvalidUtf8 = invalidUtf8Offset;

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Strict UTF-8 decoding of bytes that start at `offset` in `path`; an invalid byte is a UserError with its offset. */
export function decodeStrict(bytes: Buffer, path: string, offset: number, where?: string): string {
  if (isUtf8(bytes)) return strict.decode(bytes);
  const at = firstInvalidUtf8(bytes);
  throw new UserError(
    `${path}: invalid UTF-8 at byte offset ${offset + Math.max(0, at)}${where ? ` (${where})` : ''}; the file must be UTF-8 text`,
  );
}

function parseJson(text: string, path: string, ref: RowRef): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    const expect =
      ref.container === 'jsonl' ? 'expected one JSON object per line' : 'expected a JSON object per list item';
    throw rowError(path, ref, `not valid JSON (${(err as Error).message.split('\n')[0]}); ${expect}`);
  }
}

function openFile(path: string): { fd: number; st: Stats } {
  let st: Stats;
  try {
    st = statSync(path);
  } catch (err) {
    throw new UserError(`cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  if (st.isDirectory()) throw new UserError(`${path} is a directory; expected a data file`);
  // A pipe or a device (`<(cmd)`, /dev/zero) may never end and cannot be read again per sample.
  refuseNonRegular(st, path);
  return { fd: openSync(path, 'r'), st };
}

/** The first bytes of a file (for gzip and container checks). */
export function readHead(path: string, bytes = 4096): Buffer {
  const { fd } = openFile(path);
  try {
    const buf = Buffer.alloc(bytes);
    return buf.subarray(0, readSync(fd, buf, 0, bytes, 0));
  } finally {
    closeSync(fd);
  }
}

function isSpace(b: number): boolean {
  return b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
}

/** What a scan callback returns: false stops the scan (the sha256 and row count then cover only what was read). */
export type RowVisitor = (value: unknown, ref: RowRef) => void | false;

/**
 * Scans every row of a JSON-array or JSONL file in order, calling `visit` with each parsed row. Malformed content is
 * a UserError naming the file and the line (JSONL) or item (JSON array); invalid UTF-8 names the byte offset.
 */
export function scanRows(
  path: string,
  visit: RowVisitor,
  opts: { gzip?: boolean; maxRowBytes?: number } = {},
): ScannedFile {
  const maxRow = opts.maxRowBytes ?? MAX_ROW_BYTES;
  const { fd, st } = openFile(path);
  const hash = createHash('sha256');
  // A gzip file (allowed for the HotpotQA pool only) is hashed as stored and read decompressed from memory.
  let inflated: Buffer | undefined;
  if (opts.gzip) {
    const head = Buffer.alloc(2);
    if (isGzip(head.subarray(0, readSync(fd, head, 0, 2, 0)))) {
      const raw = readFileSync(path);
      hash.update(raw);
      try {
        inflated = gunzipSync(raw);
      } catch (err) {
        closeSync(fd);
        throw new UserError(`${path}: not a valid gzip file (${(err as Error).message})`);
      }
    }
  }
  const read = (into: Buffer, at: number): number => {
    if (!inflated) return readSync(fd, into, 0, into.length, at);
    const n = Math.max(0, Math.min(into.length, inflated.length - at));
    inflated.copy(into, 0, at, at + n);
    return n;
  };
  let container: Container | undefined;
  let rows = 0;
  let stopped = false;
  // Bytes of the row being collected, from `rowStart`; chunks are fresh buffers, so slices stay valid.
  let parts: Buffer[] = [];
  let rowStart = -1;
  let rowLine = 1;
  let line = 1;
  // JSON array state.
  let state: 'start' | 'before' | 'afterComma' | 'item' | 'end' = 'start';
  let depth = 0;
  let inString = false;
  let escape = false;
  let pos = 0;

  const emit = (start: number, end: number, lineOfRow: number) => {
    const bytes = parts.length === 1 ? parts[0] : Buffer.concat(parts);
    parts = [];
    const ref: RowRef = { ordinal: rows, line: lineOfRow, start, end, container: container! };
    const text = decodeStrict(bytes, path, start, whereOf(ref));
    if (container === 'jsonl' && text.trim() === '') return;
    const value = parseJson(text, path, ref);
    rows++;
    if (visit(value, ref) === false) stopped = true;
  };
  const fail = (what: string) => new UserError(`${path}: ${what}`);

  try {
    for (;;) {
      const chunk = Buffer.allocUnsafe(CHUNK);
      const n = read(chunk, pos);
      if (n === 0) break;
      const buf = chunk.subarray(0, n);
      if (!inflated) hash.update(buf);
      let i = 0;
      if (container === undefined) {
        if (pos === 0 && isGzip(buf)) throw fail('is gzip-compressed: decompress it first (gunzip -k FILE)');
        if (pos === 0 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) i = 3; // UTF-8 byte order mark
        while (i < n && isSpace(buf[i])) {
          if (buf[i] === 0x0a) line++;
          i++;
        }
        if (i === n) {
          pos += n;
          continue;
        }
        container = buf[i] === 0x5b /* [ */ ? 'json-array' : 'jsonl';
        if (container === 'jsonl') {
          rowStart = pos + i;
          rowLine = line;
        }
      }
      if (container === 'jsonl') {
        for (; i < n && !stopped; i++) {
          if (rowStart < 0) {
            rowStart = pos + i;
            rowLine = line;
          }
          if (buf[i] !== 0x0a) continue;
          const from = Math.max(0, rowStart - pos);
          parts.push(buf.subarray(from, i));
          emit(rowStart, pos + i, rowLine);
          line++;
          rowStart = -1;
        }
        if (!stopped && rowStart >= 0) {
          parts.push(buf.subarray(Math.max(0, rowStart - pos)));
          if (pos + n - rowStart > maxRow)
            throw fail(
              `line ${rowLine} runs past ${mib(maxRow)} without a line end; expected one JSON object per line`,
            );
        }
      } else {
        for (; i < n && !stopped; i++) {
          const b = buf[i];
          if (state === 'item') {
            if (inString) {
              if (escape) escape = false;
              else if (b === 0x5c) escape = true;
              else if (b === 0x22) inString = false;
              else if (b === 0x0a) line++;
              continue;
            }
            if (b === 0x22) inString = true;
            else if (b === 0x7b || b === 0x5b) depth++;
            else if ((b === 0x7d || b === 0x5d) && depth > 0) depth--;
            else if (depth === 0 && (b === 0x2c || b === 0x5d)) {
              parts.push(buf.subarray(Math.max(0, rowStart - pos), i));
              emit(rowStart, pos + i, rowLine);
              state = b === 0x2c ? 'afterComma' : 'end';
            } else if (b === 0x0a) line++;
            continue;
          }
          if (isSpace(b)) {
            if (b === 0x0a) line++;
            continue;
          }
          if (state === 'start') {
            state = 'before'; // b is '['
          } else if (state === 'before' && b === 0x5d) {
            state = 'end';
          } else if (state === 'afterComma' && b === 0x5d) {
            throw fail(`the JSON list ends with a comma after item ${rows - 1} (byte offset ${pos + i})`);
          } else if (state === 'before' || state === 'afterComma') {
            state = 'item';
            rowStart = pos + i;
            rowLine = line;
            depth = 0;
            inString = b === 0x22;
            escape = false;
            if (b === 0x7b || b === 0x5b) depth = 1;
          } else if (state === 'end') {
            throw fail(`unexpected content after the JSON list at byte offset ${pos + i} (line ${line})`);
          }
        }
        if (!stopped && state === 'item') {
          parts.push(buf.subarray(Math.max(0, rowStart - pos)));
          if (pos + n - rowStart > maxRow)
            throw fail(`item ${rows} of the JSON list runs past ${mib(maxRow)}; expected a JSON object per list item`);
        }
      }
      pos += n;
      if (stopped) break;
    }
    if (!stopped) {
      if (container === undefined) throw fail('is empty; expected JSON rows');
      if (container === 'jsonl' && rowStart >= 0) emit(rowStart, pos, rowLine);
      if (container === 'json-array' && state !== 'end') {
        throw fail(
          `the JSON list is not closed (the file ends ${state === 'item' ? `inside item ${rows}` : `after item ${rows - 1}`})`,
        );
      }
      if (rows === 0) throw fail('holds no rows');
    }
  } finally {
    closeSync(fd);
  }
  return {
    path,
    container: container ?? 'jsonl',
    sha256: hash.digest('hex'),
    size: st.size,
    mtimeMs: st.mtimeMs,
    rows,
    compressed: inflated !== undefined,
  };
}

/** The first row of a file and its container, without reading the rest. */
export function firstRow(
  path: string,
  opts: { gzip?: boolean } = {},
): { value: unknown; container: Container; ref: RowRef; compressed: boolean } {
  let got: { value: unknown; ref: RowRef } | undefined;
  const scanned = scanRows(
    path,
    (value, ref) => {
      got = { value, ref };
      return false;
    },
    opts,
  );
  if (!got) throw new UserError(`${path} holds no rows`);
  return { ...got, container: scanned.container, compressed: scanned.compressed };
}

/**
 * Reads one row again by its byte range (a sample's context is read when the sample is built). A file that changed
 * since it was scanned is refused.
 */
export function readRowAgain(file: ScannedFile, ref: RowRef): unknown {
  if (file.compressed) throw new UserError(`${file.path} is gzip-compressed: decompress it first (gunzip -k FILE)`);
  const { fd, st } = openFile(file.path);
  try {
    if (st.size !== file.size || st.mtimeMs !== file.mtimeMs)
      throw new UserError(`${file.path} changed while the run was reading it; rerun with the file unchanged`);
    const bytes = Buffer.allocUnsafe(ref.end - ref.start);
    let got = 0;
    while (got < bytes.length) {
      const n = readSync(fd, bytes, got, bytes.length - got, ref.start + got);
      if (n === 0) break;
      got += n;
    }
    return parseJson(decodeStrict(bytes.subarray(0, got), file.path, ref.start, whereOf(ref)), file.path, ref);
  } finally {
    closeSync(fd);
  }
}

/** Whether a file's content starts like JSON (a list or an object); other files in a --data directory are ignored. */
export function looksLikeJson(path: string): boolean {
  const head = readHead(path, 1024);
  let i = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  while (i < head.length && isSpace(head[i])) i++;
  return head[i] === 0x5b || head[i] === 0x7b;
}
