// A Tokenizer over tiktoken's WASM core, exact for byte-level BPE vocabularies whose merge order equals rank order.
import { Tiktoken } from 'tiktoken/lite';
import type { Tokenizer } from '../types.js';
import { bytePairEncode, parseRanks, type RankMap } from './bpe.js';
import { LONG_RUN_RE, pieces, toJsRegExp } from './pattern.js';
import type { VocabData } from './vocab.js';

/** Texts longer than this are encoded in chunks cut at safe points, which keeps WASM memory small. */
const CHUNK_CHARS = 1 << 18;
/** Pieces up to this many characters are memoised on the slow path. */
const CACHE_PIECE_CHARS = 32;

/** Unicode White_Space (what \s means in Rust regex and Oniguruma); all of it is in the BMP. */
function isWhiteSpace(c: number): boolean {
  return (
    (c >= 0x09 && c <= 0x0d) ||
    c === 0x20 ||
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}

/**
 * The next safe cut at or after `from`: a space whose previous character is not white space. No pre-token of the
 * supported patterns continues across such a point (a space can only begin a piece, and the piece before it ends in
 * a non-space character, so no lookahead decides it), so encoding both sides separately equals encoding the whole.
 */
export function nextSafeCut(text: string, from: number): number {
  for (let i = text.indexOf(' ', Math.max(from, 1)); i !== -1; i = text.indexOf(' ', i + 1)) {
    if (!isWhiteSpace(text.charCodeAt(i - 1))) return i;
  }
  return text.length;
}

interface SlowPath {
  re: RegExp;
  ranks: RankMap;
  maxTokenBytes: number;
  cache: Map<string, number[]>;
}

export class BpeTokenizer implements Tokenizer {
  readonly id: string;
  private readonly core: Tiktoken;
  private readonly specialIds: Set<number>;
  private readonly decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
  private slow: SlowPath | undefined;

  constructor(readonly vocab: VocabData) {
    this.id = vocab.name;
    // Special tokens are registered so their ids decode; encode_ordinary never produces them.
    this.core = new Tiktoken(vocab.bpeRanks, vocab.specialTokens, vocab.patStr);
    this.specialIds = new Set(Object.values(vocab.specialTokens));
  }

  encode(text: string): Uint32Array {
    const s = this.vocab.nfc ? text.normalize('NFC') : text;
    if (s.length <= CHUNK_CHARS) return this.encodeChunk(s);
    const parts: Uint32Array[] = [];
    let total = 0;
    for (let start = 0; start < s.length; ) {
      const end = nextSafeCut(s, start + CHUNK_CHARS);
      const ids = this.encodeChunk(s.slice(start, end));
      parts.push(ids);
      total += ids.length;
      start = end;
    }
    const out = new Uint32Array(total);
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }

  count(text: string): number {
    return this.encode(text).length;
  }

  decode(ids: Uint32Array | number[]): string {
    const arr = ids instanceof Uint32Array ? ids : Uint32Array.from(ids);
    for (let i = 0; i < arr.length; i++) {
      const id = arr[i];
      if (id >= this.vocab.rankCount && !this.specialIds.has(id)) {
        throw new RangeError(`token id ${Array.isArray(ids) ? ids[i] : id} is not in the ${this.id} vocabulary`);
      }
    }
    return this.decoder.decode(this.core.decode(arr));
  }

  /** A chunk with a very long run of one character class goes to the JS path; tiktoken's merge is quadratic. */
  private encodeChunk(s: string): Uint32Array {
    return LONG_RUN_RE.test(s) ? this.encodeSlow(s) : this.core.encode_ordinary(s);
  }

  /** Same result as tiktoken: the same pattern (translated to JS) and the same merge rule, in O(n log n). */
  encodeSlow(s: string): Uint32Array {
    const slow = (this.slow ??= this.makeSlowPath());
    const out: number[] = [];
    for (const piece of pieces(slow.re, s)) {
      let ids = slow.cache.get(piece);
      if (ids === undefined) {
        ids = bytePairEncode(Buffer.from(piece, 'utf8').toString('latin1'), slow.ranks, slow.maxTokenBytes);
        if (piece.length <= CACHE_PIECE_CHARS) slow.cache.set(piece, ids);
      }
      for (const id of ids) out.push(id);
    }
    return Uint32Array.from(out);
  }

  private makeSlowPath(): SlowPath {
    const ranks = parseRanks(this.vocab.bpeRanks);
    let maxTokenBytes = 1;
    for (const key of ranks.keys()) if (key.length > maxTokenBytes) maxTokenBytes = key.length;
    return { re: toJsRegExp(this.vocab.patStr), ranks, maxTokenBytes, cache: new Map() };
  }
}
