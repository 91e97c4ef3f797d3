// Shared pieces of a built NIAH context.
import type { ContextSource } from '../../harness/types.js';

/** A context that can also stream its text (for writing multi-million-token samples without one huge string). */
export interface StreamingContext extends ContextSource {
  textPieces(): Iterable<string>;
}

/** A real needle as placed in the context. */
export interface PlacedNeedle {
  key: string;
  value: string;
  text: string;
  /** Depth drawn from the grid, percent. */
  depth: number;
  /** Character offset (JS string index) of the needle sentence in context.text(). */
  charOffset: number;
  /** Index of the needle's first token in the context's ids (that token may carry the leading space). */
  tokenOffset: number;
  tokenCount: number;
}

/** Collects small id arrays into fresh arrays of about `size` tokens (never reused, so callers may keep them). */
export class IdBatcher {
  private buf: Uint32Array;
  private fill = 0;
  constructor(private readonly size: number) {
    this.buf = new Uint32Array(size);
  }
  /** Adds ids; returns a full batch when one is ready. */
  add(ids: Uint32Array): Uint32Array | undefined {
    let out: Uint32Array | undefined;
    if (this.fill + ids.length > this.buf.length) {
      out = this.take();
      if (ids.length > this.size) {
        this.buf = new Uint32Array(ids.length);
      }
    }
    this.buf.set(ids, this.fill);
    this.fill += ids.length;
    return out;
  }
  take(): Uint32Array | undefined {
    if (this.fill === 0) return undefined;
    const out = this.buf.subarray(0, this.fill);
    this.buf = new Uint32Array(this.size);
    this.fill = 0;
    return out;
  }
}

/** Collects small strings into strings of about `size` characters. */
export class TextBatcher {
  private parts: string[] = [];
  private chars = 0;
  constructor(private readonly size: number) {}
  add(text: string): string | undefined {
    this.parts.push(text);
    this.chars += text.length;
    return this.chars >= this.size ? this.take() : undefined;
  }
  take(): string | undefined {
    if (this.chars === 0) return undefined;
    const out = this.parts.join('');
    this.parts = [];
    this.chars = 0;
    return out;
  }
}
