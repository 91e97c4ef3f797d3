// An exact byte-level BPE tokenizer: pre-tokenize with the vocabulary's own pattern, merge each piece by rank.
import type { Tokenizer } from '../types.js';
import { bytePairEncode } from './bpe.js';
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

  constructor(readonly vocab: VocabData) {
    this.id = vocab.name;
    this.table = buildTokenTable(vocab.bpeRanks);
    this.re = toJsRegExp(vocab.patStr);
    // Special tokens decode to their text; encode never produces them.
    this.specialBytes = new Map(
      Object.entries(vocab.specialTokens).map(([text, id]) => [id, Buffer.from(text, 'utf8')]),
    );
  }

  /** Plain-text encoding: text that looks like a special token is encoded as ordinary text. */
  encode(text: string): Uint32Array {
    let out: Uint32Array = new Uint32Array(Math.max(64, text.length >> 2));
    let n = 0;
    this.eachPiece(text, (rank, piece) => {
      if (rank !== undefined) {
        if (n === out.length) out = grow(out, n + 1);
        out[n++] = rank;
        return;
      }
      const ids = this.encodePiece(piece);
      if (n + ids.length > out.length) out = grow(out, n + ids.length);
      out.set(ids, n);
      n += ids.length;
    });
    return out.slice(0, n);
  }

  /** encode(text).length, without building the ids. */
  count(text: string): number {
    let n = 0;
    this.eachPiece(text, (rank, piece) => {
      n += rank !== undefined ? 1 : this.encodePiece(piece).length;
    });
    return n;
  }

  /** The pattern's pieces of the (normalised) text in order, each with its rank when it is one token. */
  private eachPiece(text: string, onPiece: (rank: number | undefined, piece: string) => void): void {
    const s = this.vocab.nfc ? text.normalize('NFC') : text;
    const { textRanks } = this.table;
    const re = this.re;
    let at = 0;
    re.lastIndex = 0;
    for (let m = re.exec(s); m !== null; m = re.exec(s)) {
      const piece = m[0];
      if (m.index !== at || piece.length === 0)
        throw new Error(`tokenizer pattern failed to split the text at offset ${at}`);
      at = re.lastIndex;
      onPiece(textRanks.get(piece), piece);
    }
    if (at !== s.length) throw new Error(`tokenizer pattern failed to split the text at offset ${at}`);
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
    const { byteRanks, maxTokenBytes } = this.table;
    const ids = Uint32Array.from(
      bytePairEncode(Buffer.from(piece, 'utf8').toString('latin1'), byteRanks, maxTokenBytes),
    );
    if (piece.length <= CACHE_PIECE_CHARS) {
      if (this.cache.size >= CACHE_ENTRIES) this.cache.clear();
      this.cache.set(piece, ids);
    }
    return ids;
  }
}

function grow(buf: Uint32Array, need: number): Uint32Array {
  const next = new Uint32Array(Math.max(need, buf.length * 2));
  next.set(buf);
  return next;
}
