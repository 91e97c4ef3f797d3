// Lookup tables built from tiktoken's rank text.
import type { RankMap } from './bpe.js';

export interface TokenTable {
  /** Token bytes as a latin1 string → rank. */
  byteRanks: RankMap;
  /** Token text → rank, for tokens whose bytes are complete UTF-8 (most of them): a piece equal to a token's text. */
  textRanks: Map<string, number>;
  maxTokenBytes: number;
  /** Ranks run 0 … count - 1; the bytes of rank r are bytes[offsets[r] … offsets[r + 1]). */
  count: number;
  bytes: Uint8Array;
  offsets: Uint32Array;
}

/**
 * Parses "<base64> <rank>" lines, or "! <first rank> <base64> <base64> ..." runs (tiktoken's compact form).
 * Ranks must run 0, 1, 2, … in order, as they do in every supported vocabulary.
 */
export function buildTokenTable(bpeRanks: string): TokenTable {
  const byteRanks: RankMap = new Map();
  const textRanks = new Map<string, number>();
  const chunks: Buffer[] = [];
  let maxTokenBytes = 1;
  const add = (b64: string, rank: number): void => {
    if (rank !== chunks.length)
      throw new Error(`tokenizer ranks are not 0, 1, 2, ... (rank ${rank} at position ${chunks.length})`);
    const bytes = Buffer.from(b64, 'base64');
    chunks.push(bytes);
    byteRanks.set(bytes.toString('latin1'), rank);
    if (bytes.length > maxTokenBytes) maxTokenBytes = bytes.length;
    const text = bytes.toString('utf8');
    // toString replaces invalid UTF-8 with U+FFFD; keep the text only if it is the token's exact bytes.
    if (!text.includes('\uFFFD') || Buffer.from(text, 'utf8').equals(bytes)) textRanks.set(text, rank);
  };
  for (const line of bpeRanks.split('\n')) {
    if (line.length === 0) continue;
    const parts = line.split(' ');
    if (parts[0] === '!') {
      const first = Number(parts[1]);
      for (let i = 2; i < parts.length; i++) add(parts[i], first + i - 2);
    } else {
      add(parts[0], Number(parts[1]));
    }
  }
  const offsets = new Uint32Array(chunks.length + 1);
  chunks.forEach((c, i) => (offsets[i + 1] = offsets[i] + c.length));
  return { byteRanks, textRanks, maxTokenBytes, count: chunks.length, bytes: Buffer.concat(chunks), offsets };
}
