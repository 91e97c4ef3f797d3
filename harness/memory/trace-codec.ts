// The memory text of memory.jsonl lines (harness/memory/trace-line.ts): written as keyframes and edits by one
// sample's encoder, rebuilt by a decoder that reads the sample's lines in chunk order from a keyframe on.
import { applyDelta, encodeDelta, isIdentity, splitSegments } from './memory-delta.js';
import { memoryHash, type MemoryTraceLine } from './trace-line.js';

/** A full memory at least this often, so a reader of chunk c starts at most this many lines back. */
export const KEYFRAME_EVERY = 32;

type TextFields = Pick<MemoryTraceLine, 'memory' | 'delta'>;

/** One sample's memories in turn → the text fields of their lines. */
export class MemoryTraceEncoder {
  private prev?: { chunk: number; segments: readonly string[] };
  private keyframe = 0;

  encode(chunk: number, memory: string, segments: readonly string[]): TextFields {
    const prev = this.prev;
    this.prev = { chunk, segments };
    if (prev && prev.chunk === chunk - 1 && chunk - this.keyframe < KEYFRAME_EVERY) {
      const delta = encodeDelta(prev.segments, segments);
      if (isIdentity(delta, prev.segments)) return {};
      // An edit that keeps nothing is the memory again: written as a keyframe.
      if (delta.some((item) => typeof item !== 'string')) return { delta };
    }
    this.keyframe = chunk;
    return { memory };
  }
}

/** A rebuilt memory: null where its line cannot be rebuilt (no keyframe before it, or an edit of another text). */
export interface DecodedMemory {
  memory: string | null;
  /** The same text as the previous chunk's. */
  unchanged: boolean;
}

/** One sample's lines, in chunk order → their memory text. */
export class MemoryTraceDecoder {
  private text: string | null = null;
  private segments: string[] | null = null;
  private chunk = -1;
  private hash = '';

  next(line: MemoryTraceLine): DecodedMemory {
    const follows = line.chunk === this.chunk + 1;
    let text: string | null;
    let segments: string[] | null = null;
    if (typeof line.memory === 'string') text = line.memory;
    else if (!follows || this.text === null) text = null;
    else if (Array.isArray(line.delta)) {
      segments = applyDelta((this.segments ??= splitSegments(this.text)), line.delta);
      text = segments === null ? null : segments.join('');
    } else {
      text = this.text;
      segments = this.segments;
    }
    if (text !== null && memoryHash(text) !== line.hash) text = null;
    const unchanged = follows && line.hash === this.hash;
    this.text = text;
    this.segments = text === null ? null : segments;
    this.chunk = line.chunk;
    this.hash = line.hash;
    return { memory: text, unchanged };
  }
}
