// Reading a user's text data file (HotpotQA JSON, LongBench JSONL, predictions to score) strictly: gzip is read
// transparently, and bytes that are not UTF-8 text are refused with their byte offset instead of being turned into
// U+FFFD or echoed to the terminal.
import { readFileSync, statSync, type Stats } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { UserError } from './errors.js';

/** gzip's magic number, 1f 8b. */
export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/**
 * Offset of the first byte that does not begin a well-formed UTF-8 sequence (as WHATWG's decoder judges: no
 * overlongs, no surrogates, nothing above U+10FFFF, no stray continuation bytes, no truncated sequence), or -1 when
 * every byte is well formed.
 */
export function invalidUtf8Offset(bytes: Uint8Array): number {
  let i = 0;
  const n = bytes.length;
  while (i < n) {
    const b = bytes[i];
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) lo = 0xa0;
      if (b === 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) lo = 0x90;
      if (b === 0xf4) hi = 0x8f;
    } else return i;
    for (let k = 1; k <= need; k++) {
      if (i + k >= n) return i;
      const c = bytes[i + k];
      if (c < (k === 1 ? lo : 0x80) || c > (k === 1 ? hi : 0xbf)) return i;
    }
    i += need + 1;
  }
  return -1;
}

const strict = new TextDecoder('utf-8', { fatal: true });

/** Decodes UTF-8 (a leading BOM is dropped); anything else is a UserError naming `label` and the byte offset. */
export function decodeUtf8(bytes: Uint8Array, label: string, fix: string): string {
  try {
    return strict.decode(bytes);
  } catch {
    const at = invalidUtf8Offset(bytes);
    const hex = `0x${bytes[Math.max(at, 0)].toString(16).padStart(2, '0').toUpperCase()}`;
    throw new UserError(
      `${label} is not UTF-8 text: byte ${hex} at byte offset ${Math.max(at, 0)} is not valid UTF-8; ${fix}`,
    );
  }
}

/** What a path that is not a regular file is ("a pipe", "a character device", ...), or null for a regular file. */
export function notRegularFile(st: Stats): string | null {
  if (st.isFile()) return null;
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a pipe';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

/**
 * Refuses an input that is not a regular file: a pipe (`<(cmd)`), a device (/dev/zero) or a socket never ends or
 * cannot be read twice, so reading it would hang or grow memory without bound. `label` names it ("--data x.json").
 */
export function refuseNonRegular(
  st: Stats,
  label: string,
  fix = 'save its content to a file and pass that file',
): void {
  const kind = notRegularFile(st);
  if (kind && kind !== 'a directory') throw new UserError(`${label} is ${kind}, not a regular file; ${fix}`);
}

/**
 * A data file's text: gunzipped when it starts with gzip's magic (whatever its name), then decoded as strict UTF-8.
 * A file holding NUL bytes (a binary file) is refused too. `fix` tells the user what the file should be.
 */
export function readTextFile(file: string, fix: string): string {
  let bytes: Uint8Array;
  try {
    refuseNonRegular(statSync(file), file);
    bytes = readFileSync(file);
  } catch (err) {
    if (err instanceof UserError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EISDIR') throw new UserError(`${file} is a directory, not a file; ${fix}`);
    throw new UserError(`cannot read ${file}: ${code ?? String(err)}`);
  }
  return decodeTextBytes(bytes, file, fix);
}

/** As readTextFile, for bytes already read from `file`. */
export function decodeTextBytes(bytes: Uint8Array, file: string, fix: string): string {
  let label = file;
  if (isGzip(bytes)) {
    try {
      bytes = gunzipSync(bytes);
    } catch {
      throw new UserError(`${file} starts like gzip but does not decompress (truncated or corrupt); ${fix}`);
    }
    label = `${file} (after gunzip)`;
  }
  // A NUL byte never occurs in JSON text; it marks a binary file (an archive, an image) before any decoding.
  const nul = bytes.indexOf(0);
  if (nul >= 0) throw new UserError(`${label} is binary, not text: a NUL byte at byte offset ${nul}; ${fix}`);
  return decodeUtf8(bytes, label, fix);
}
