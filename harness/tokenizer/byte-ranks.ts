// Token bytes → rank as an open-addressing table over the vocabulary's byte array: lookups hash a byte range (or the
// char codes of an ASCII string range, which are its UTF-8 bytes) and allocate nothing, and building it costs one
// pass over the bytes instead of a Map entry (and a string) per token in every thread.

export class ByteRankTable {
  private readonly slots: Int32Array;
  private readonly mask: number;

  /** Ranks 0 … count - 1 with bytes[offsets[r] … offsets[r + 1]); a later rank with the same bytes wins. */
  constructor(
    private readonly bytes: Uint8Array,
    private readonly offsets: Uint32Array,
    count: number,
  ) {
    let size = 1024;
    while (size < count * 2) size <<= 1;
    this.slots = new Int32Array(size);
    this.mask = size - 1;
    for (let r = 0; r < count; r++) {
      const a = offsets[r];
      const e = offsets[r + 1];
      let h = hashBytes(bytes, a, e) & this.mask;
      for (;;) {
        const v = this.slots[h];
        if (v === 0 || this.sameBytes(v - 1, bytes, a, e)) break;
        h = (h + 1) & this.mask;
      }
      this.slots[h] = r + 1;
    }
  }

  /** The rank of the token whose bytes are b[a..e), or -1. */
  ofBytes(b: Uint8Array, a: number, e: number): number {
    let h = hashBytes(b, a, e) & this.mask;
    for (;;) {
      const v = this.slots[h];
      if (v === 0) return -1;
      if (this.sameBytes(v - 1, b, a, e)) return v - 1;
      h = (h + 1) & this.mask;
    }
  }

  /** The rank of the token whose bytes are s[a..e), every char of which is ASCII (its own UTF-8 byte), or -1. */
  ofAscii(s: string, a: number, e: number): number {
    let h = FNV_OFFSET;
    for (let i = a; i < e; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
    h = finish(h) & this.mask;
    const { bytes, offsets } = this;
    for (;;) {
      const v = this.slots[h];
      if (v === 0) return -1;
      const ta = offsets[v - 1];
      if (offsets[v] - ta === e - a) {
        let i = 0;
        while (i < e - a && bytes[ta + i] === s.charCodeAt(a + i)) i++;
        if (i === e - a) return v - 1;
      }
      h = (h + 1) & this.mask;
    }
  }

  private sameBytes(r: number, b: Uint8Array, a: number, e: number): boolean {
    const ta = this.offsets[r];
    if (this.offsets[r + 1] - ta !== e - a) return false;
    for (let i = 0; i < e - a; i++) if (this.bytes[ta + i] !== b[a + i]) return false;
    return true;
  }
}

const FNV_OFFSET = 2166136261;
const FNV_PRIME = 16777619;

function finish(h: number): number {
  return (h ^ (h >>> 15)) >>> 0;
}

function hashBytes(b: Uint8Array, a: number, e: number): number {
  let h = FNV_OFFSET;
  for (let i = a; i < e; i++) h = Math.imul(h ^ b[i], FNV_PRIME);
  return finish(h);
}
