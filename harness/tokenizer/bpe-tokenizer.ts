// An exact byte-level BPE tokenizer: pre-tokenize with the vocabulary's own pattern, merge each piece by rank.
import type { Tokenizer } from '../types.js';
import { asciiDigitRun, asciiPieceEnd, isAscii } from './ascii-split.js';
import { mergeByRank } from './bpe.js';
import { detached } from '../util/detached.js';
import { toJsRegExp } from './pattern.js';
import { buildTokenTable, type TokenTable } from './token-table.js';
import type { VocabData } from './vocab.js';

/** Pieces up to this many characters are memoised; the memo is dropped when it reaches CACHE_ENTRIES. */
const CACHE_PIECE_CHARS = 64;
const CACHE_ENTRIES = 200_000;

/**
 * The rules are tiktoken's (pattern split, then rank-ordered merges), run in JS: V8's regex engine makes this
 * several times faster than tiktoken's WASM build and linear on huge runs (tests compare the two on every path).
 * Rank-ordered merging equals Qwen2's merge-list BPE: scripts/build-qwen-ranks.ts checks that every merge is the
 * split that rank-ordered merging reaches for its token.
 */
export class BpeTokenizer implements Tokenizer {
  readonly id: string;
  private readonly table: TokenTable;
  private readonly re: RegExp;
  private readonly specialBytes: Map<number, Buffer>;
  private readonly cache = new Map<string, Uint32Array>();
  private readonly decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
  private readonly encoder = new TextEncoder();
  /** A piece's UTF-8 bytes (grown for longer pieces). */
  private scratch = new Uint8Array(256);
  /** Digits per number piece where ASCII text can skip the regex (ascii-split.ts); undefined: always the regex. */
  private readonly asciiDigits: number | undefined;

  constructor(readonly vocab: VocabData) {
    this.id = vocab.name;
    this.table = buildTokenTable(vocab.bpeRanks);
    this.re = toJsRegExp(vocab.patStr);
    this.asciiDigits = asciiDigitRun(vocab.patStr);
    // Special tokens decode to their text; encode never produces them.
    this.specialBytes = new Map(
      Object.entries(vocab.specialTokens).map(([text, id]) => [id, Buffer.from(text, 'utf8')]),
    );
  }

  /** Plain-text encoding: text that looks like a special token is encoded as ordinary text. */
  encode(text: string): Uint32Array {
    let out: Uint32Array = new Uint32Array(Math.max(64, text.length >> 2));
    let n = 0;
    this.eachPiece(text, (s, a, b) => {
      const rank = this.rankOf(s, a, b);
      if (rank >= 0) {
        if (n === out.length) out = grow(out, n + 1);
        out[n++] = rank;
        return;
      }
      const ids = this.encodePiece(s.slice(a, b));
      if (n + ids.length > out.length) out = grow(out, n + ids.length);
      out.set(ids, n);
      n += ids.length;
    });
    return out.slice(0, n);
  }

  /** encode(text).length, without building the ids. */
  count(text: string): number {
    // ASCII text: the pieces eachPiece gives, counted in line (no callback per piece, no second ASCII test).
    if (this.asciiDigits !== undefined && isAscii(text)) {
      const { ranks, maxTokenBytes } = this.table;
      let n = 0;
      for (let at = 0; at < text.length;) {
        const end = asciiPieceEnd(text, at, this.asciiDigits);
        n +=
          end - at <= maxTokenBytes && ranks.ofAscii(text, at, end) >= 0
            ? 1
            : this.encodePiece(text.slice(at, end)).length;
        at = end;
      }
      return n;
    }
    let n = 0;
    this.eachPiece(text, (s, a, b) => {
      n += this.rankOf(s, a, b) >= 0 ? 1 : this.encodePiece(s.slice(a, b)).length;
    });
    return n;
  }

  /** The pattern's pieces s[a..b) of the (normalised) text in order. */
  private eachPiece(text: string, onPiece: (s: string, a: number, b: number) => void): void {
    // NFC leaves ASCII as it is; ASCII text under a pattern ascii-split.ts knows skips the regex.
    const ascii = isAscii(text);
    if (ascii && this.asciiDigits !== undefined) {
      for (let at = 0; at < text.length;) {
        const end = asciiPieceEnd(text, at, this.asciiDigits);
        onPiece(text, at, end);
        at = end;
      }
      return;
    }
    const s = this.vocab.nfc && !ascii ? text.normalize('NFC') : text;
    const re = this.re;
    let at = 0;
    re.lastIndex = 0;
    for (let m = re.exec(s); m !== null; m = re.exec(s)) {
      const piece = m[0];
      if (m.index !== at || piece.length === 0)
        throw new Error(`tokenizer pattern failed to split the text at offset ${at}`);
      at = re.lastIndex;
      onPiece(s, m.index, at);
    }
    if (at !== s.length) throw new Error(`tokenizer pattern failed to split the text at offset ${at}`);
  }

  /** The rank of the token that is exactly the piece s[a..b), or -1. */
  private rankOf(s: string, a: number, b: number): number {
    if (b - a > this.table.maxTokenBytes) return -1;
    let ascii = true;
    for (let i = a; i < b; i++)
      if (s.charCodeAt(i) >= 128) {
        ascii = false;
        break;
      }
    if (ascii) return this.table.ranks.ofAscii(s, a, b);
    const n = this.utf8(s.slice(a, b));
    return n > this.table.maxTokenBytes ? -1 : this.table.ranks.ofBytes(this.scratch, 0, n);
  }

  /** Writes the piece's UTF-8 bytes to scratch; returns their count. */
  private utf8(piece: string): number {
    if (piece.length * 3 > this.scratch.length) this.scratch = new Uint8Array(piece.length * 3);
    return this.encoder.encodeInto(piece, this.scratch).written;
  }

  /** Ids to text; bytes that do not form complete UTF-8 (a window cut inside a character) become U+FFFD. */
  decode(ids: Uint32Array | number[]): string {
    const arr = ids instanceof Uint32Array ? ids : Uint32Array.from(ids);
    const { count, bytes, offsets } = this.table;
    let length = 0;
    for (let i = 0; i < arr.length; i++) {
      const id = arr[i];
      if (id < count) length += offsets[id + 1] - offsets[id];
      else {
        const special = this.specialBytes.get(id);
        if (!special)
          throw new RangeError(`token id ${Array.isArray(ids) ? ids[i] : id} is not in the ${this.id} vocabulary`);
        length += special.length;
      }
    }
    const out = new Uint8Array(length);
    let at = 0;
    for (let i = 0; i < arr.length; i++) {
      const id = arr[i];
      if (id < count) {
        for (let j = offsets[id], end = offsets[id + 1]; j < end; j++) out[at++] = bytes[j];
      } else {
        const special = this.specialBytes.get(id)!;
        out.set(special, at);
        at += special.length;
      }
    }
    return this.decoder.decode(out);
  }

  private encodePiece(piece: string): Uint32Array {
    const hit = this.cache.get(piece);
    if (hit) return hit;
    const n = this.utf8(piece);
    const bytes = this.scratch;
    const { ranks, maxTokenBytes } = this.table;
    const ids = Uint32Array.from(mergeByRank(n, (a, b) => ranks.ofBytes(bytes, a, b), maxTokenBytes));
    if (piece.length <= CACHE_PIECE_CHARS) {
      if (this.cache.size >= CACHE_ENTRIES) this.cache.clear();
      // A copy: the piece is a slice of the text being encoded, which the key would otherwise keep alive.
      this.cache.set(detached(piece), ids);
    }
    return ids;
  }
}

function grow(buf: Uint32Array, need: number): Uint32Array {
  const next = new Uint32Array(Math.max(need, buf.length * 2));
  next.set(buf);
  return next;
}
