// Lookup tables built from tiktoken's rank text.
import type { RankMap } from './bpe.js';

export interface TokenTable {
  /** Token bytes as a latin1 string → rank. */
  byteRanks: RankMap;
  /** Token text → rank, for tokens whose bytes are complete UTF-8 (most of them): a piece equal to a token's text. */
  textRanks: Map<string, number>;
  maxTokenBytes: number;
}

/** Parses "<base64> <rank>" lines, or "! <first rank> <base64> <base64> ..." runs (tiktoken's compact form). */
export function buildTokenTable(bpeRanks: string): TokenTable {
  const byteRanks: RankMap = new Map();
  const textRanks = new Map<string, number>();
  let maxTokenBytes = 1;
  const add = (b64: string, rank: number): void => {
    const bytes = Buffer.from(b64, 'base64');
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
  return { byteRanks, textRanks, maxTokenBytes };
}
