/**
 * A copy of s that shares no memory with the string it was cut from. V8 keeps a slice as a view of its parent, so a
 * piece sliced from a 20K-character prompt and kept in a long-lived cache would keep the whole prompt alive. The
 * copy is one flat string: a long slice of a copy would again be a view, one more memory access on every use of a
 * cached key.
 */
export function detached(s: string): string {
  // V8 copies slices shorter than 13 characters; longer ones go through a buffer of their UTF-16 code units (lone
  // surrogates included), which V8 stores as one byte per character when it can.
  return s.length < 13 ? (' ' + s).slice(1) : Buffer.from(s, 'utf16le').toString('utf16le');
}
