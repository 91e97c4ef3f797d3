// Lookup tables built from tiktoken's rank text.
import { ByteRankTable } from './byte-ranks.js';

export interface TokenTable {
  /** Token bytes → rank (a piece's rank is that of its UTF-8 bytes). */
  ranks: ByteRankTable;
  maxTokenBytes: number;
  /** Ranks run 0 … count - 1; the bytes of rank r are bytes[offsets[r] … offsets[r + 1]). */
  count: number;
  bytes: Uint8Array;
  offsets: Uint32Array;
}

/** Base64 digit values by char code; -1 for anything else ('=' padding included). */
const B64 = new Int8Array(128).fill(-1);
'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.split('').forEach((c, i) => {
  B64[c.charCodeAt(0)] = i;
});

/**
 * Parses "<base64> <rank>" lines, or "! <first rank> <base64> <base64> ..." runs (tiktoken's compact form).
 * Ranks must run 0, 1, 2, … in order, as they do in every supported vocabulary. Every worker thread builds its own
 * table, so this reads the text in one pass and decodes base64 straight into one byte array (no string per token).
 */
export function buildTokenTable(bpeRanks: string): TokenTable {
  // Base64 yields 3 bytes per 4 characters: the text's length bounds the bytes.
  const bytes = new Uint8Array(Math.ceil((bpeRanks.length * 3) / 4) + 4);
  let offsets = new Uint32Array(1 << 16);
  let count = 0;
  let fill = 0;
  let maxTokenBytes = 1;
  const add = (from: number, to: number, rank: number): void => {
    if (rank !== count) throw new Error(`tokenizer ranks are not 0, 1, 2, ... (rank ${rank} at position ${count})`);
    const start = fill;
    fill = decodeBase64(bpeRanks, from, to, bytes, fill);
    if (fill - start > maxTokenBytes) maxTokenBytes = fill - start;
    count++;
    if (count + 1 >= offsets.length) {
      const bigger = new Uint32Array(offsets.length * 2);
      bigger.set(offsets);
      offsets = bigger;
    }
    offsets[count] = fill;
  };
  const n = bpeRanks.length;
  let at = 0;
  while (at < n) {
    let eol = bpeRanks.indexOf('\n', at);
    if (eol < 0) eol = n;
    if (eol > at) {
      const sp = bpeRanks.indexOf(' ', at);
      const first = sp < 0 || sp > eol ? eol : sp;
      if (first - at === 1 && bpeRanks.charCodeAt(at) === 33) {
        // "! <first rank> <base64> <base64> ...": a run of consecutive ranks.
        let q = fieldEnd(bpeRanks, first + 1, eol);
        let rank = Number(bpeRanks.slice(first + 1, q));
        while (q < eol) {
          const p = q + 1;
          q = fieldEnd(bpeRanks, p, eol);
          add(p, q, rank++);
        }
      } else {
        const rank = first === eol ? NaN : Number(bpeRanks.slice(first + 1, fieldEnd(bpeRanks, first + 1, eol)));
        add(at, first, rank);
      }
    }
    at = eol + 1;
  }
  const table = { bytes: bytes.slice(0, fill), offsets: offsets.slice(0, count + 1) };
  return { ranks: new ByteRankTable(table.bytes, table.offsets, count), maxTokenBytes, count, ...table };
}

/** End of the space-separated field starting at p (at most `eol`). */
function fieldEnd(s: string, p: number, eol: number): number {
  const sp = s.indexOf(' ', p);
  return sp < 0 || sp > eol ? eol : sp;
}

/** Decodes s[from..to) (base64, '=' padding allowed) into out at `at`; returns the new end. */
function decodeBase64(s: string, from: number, to: number, out: Uint8Array, at: number): number {
  let acc = 0;
  let bits = 0;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    const v = c < 128 ? B64[c] : -1;
    if (v < 0) {
      if (c === 61) break;
      throw new Error(`tokenizer data holds a malformed base64 token at offset ${from}`);
    }
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[at++] = (acc >> bits) & 0xff;
    }
  }
  return at;
}
