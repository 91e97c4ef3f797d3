// Seeded pseudo-random numbers for the generators: sfc32 (Chris Doty-Humphrey's Small Fast Counting PRNG),
// seeded by hashing the parts that identify a stream (task, seed, length, sample index, purpose).
import { createHash } from 'node:crypto';

const TWO_32 = 4294967296;

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** Four 32-bit words of state; prefer rngFor(), which derives them from a hash. */
  constructor(a: number, b: number, c: number, d: number) {
    this.a = a >>> 0;
    this.b = b >>> 0;
    this.c = c >>> 0;
    this.d = d >>> 0;
    for (let i = 0; i < 15; i++) this.nextUint32();
  }

  /** Uniform integer in [0, 2^32). */
  nextUint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform float in [0, 1) with 53 random bits. */
  float(): number {
    const hi = this.nextUint32() >>> 5; // 27 bits
    const lo = this.nextUint32() >>> 6; // 26 bits
    return (hi * 67108864 + lo) / 9007199254740992;
  }

  /** Uniform integer in [0, n), 1 <= n <= 2^53, without modulo bias. */
  below(n: number): number {
    if (!Number.isInteger(n) || n < 1 || n > Number.MAX_SAFE_INTEGER + 1) {
      throw new RangeError(`Rng.below: n must be an integer in [1, 2^53], got ${n}`);
    }
    if (n <= TWO_32) {
      // Rejection sampling on the top of the 32-bit range.
      const limit = TWO_32 - (TWO_32 % n);
      for (;;) {
        const x = this.nextUint32();
        if (x < limit) return x % n;
      }
    }
    const limit = 9007199254740992 - (9007199254740992 % n);
    for (;;) {
      const x = (this.nextUint32() >>> 5) * 67108864 + (this.nextUint32() >>> 6);
      if (x < limit) return x % n;
    }
  }

  /** Uniform integer in [min, max] (both inclusive). */
  int(min: number, max: number): number {
    if (max < min) throw new RangeError(`Rng.int: max ${max} < min ${min}`);
    return min + this.below(max - min + 1);
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('Rng.pick: empty list');
    return items[this.below(items.length)];
  }

  /** Fisher–Yates shuffle in place; returns the same array. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.below(i + 1);
      const t = items[i];
      items[i] = items[j];
      items[j] = t;
    }
    return items;
  }

  /** k distinct integers from [0, n), in random (draw) order. */
  sampleIndices(n: number, k: number): number[] {
    if (!Number.isInteger(k) || k < 0 || k > n) throw new RangeError(`Rng.sampleIndices: cannot draw ${k} of ${n}`);
    if (k * 3 <= n) {
      // Sparse: rejection against a set (expected < 1.5 draws per pick).
      const seen = new Set<number>();
      const out: number[] = [];
      while (out.length < k) {
        const x = this.below(n);
        if (!seen.has(x)) {
          seen.add(x);
          out.push(x);
        }
      }
      return out;
    }
    // Dense: partial Fisher–Yates.
    const pool = Array.from({ length: n }, (_, i) => i);
    for (let i = 0; i < k; i++) {
      const j = i + this.below(n - i);
      const t = pool[i];
      pool[i] = pool[j];
      pool[j] = t;
    }
    return pool.slice(0, k);
  }

  /** k distinct items (by position) from a list, in random order. */
  sample<T>(items: readonly T[], k: number): T[] {
    return this.sampleIndices(items.length, k).map((i) => items[i]);
  }

  /** 16 random bytes. */
  bytes16(): Uint8Array {
    const out = new Uint8Array(16);
    for (let i = 0; i < 16; i += 4) {
      const x = this.nextUint32();
      out[i] = x >>> 24;
      out[i + 1] = (x >>> 16) & 0xff;
      out[i + 2] = (x >>> 8) & 0xff;
      out[i + 3] = x & 0xff;
    }
    return out;
  }
}

/** A stream determined by its parts, e.g. rngFor('niah_single_1', seed, 32768, index, 'needles'). */
export function rngFor(...parts: (string | number)[]): Rng {
  // JSON keeps ("a", 1) and ("a1") apart, and 1 apart from "1".
  const digest = createHash('sha256').update(JSON.stringify(parts)).digest();
  return new Rng(digest.readUInt32LE(0), digest.readUInt32LE(4), digest.readUInt32LE(8), digest.readUInt32LE(12));
}

/** A uuid4 string from 128 seeded bits, version and variant bits forced (as Python's uuid.UUID(int=..., version=4)). */
export function uuid4(rng: Rng): string {
  const b = rng.bytes16();
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
