// memory.jsonl: one line per memory-update call. A line carries its memory in full (`memory`) only at a keyframe: a
// unit's first line in a process, and every KEYFRAME_EVERY chunks after it. Otherwise it carries an edit of the
// previous chunk's memory (`delta`, harness/memory/memory-delta.ts), or neither where the memory stayed the same;
// `hash` names the text either way, so a reader checks what it rebuilt (harness/memory/trace-codec.ts).
import * as crypto from 'node:crypto';
import type { MemoryDelta } from './memory-delta.js';

export interface MemoryTraceLine {
  /** The sample's id (task/length/index) and method: with `chunk`, what the line is unique by. */
  sampleId: string;
  method: string;
  /** 0-based index of the window the update read. */
  chunk: number;
  /** The memory's tokens (the call's completion tokens). */
  tokens: number;
  /** sha256 of the memory text, first 16 hex digits. */
  hash: string;
  /** The memory after this update, at a keyframe. */
  memory?: string;
  /** Otherwise the memory as an edit of the previous chunk's; neither field: the same as the previous chunk's. */
  delta?: MemoryDelta;
  /** Per gold answer (the record's `answers`, in order): whether the memory holds it (normalized substring). */
  gold: boolean[];
  /** Whether the memory holds the gold under the sample's metric (MemoryRetention.holds). */
  holds: boolean;
}

// One line per update call: crypto.hash (Node ≥ 20.12) skips building a Hash object, most of the cost for a few KB.
const sha256Hex: (text: string) => string =
  typeof crypto.hash === 'function'
    ? (text) => crypto.hash('sha256', text, 'hex')
    : (text) => crypto.createHash('sha256').update(text).digest('hex');

export function memoryHash(memory: string): string {
  return sha256Hex(memory).slice(0, 16);
}

/** The key a line is unique by. */
export function traceKey(line: Pick<MemoryTraceLine, 'sampleId' | 'method' | 'chunk'>): string {
  return `${line.sampleId}#${line.method}#${line.chunk}`;
}

/** The unit key (`${id}#${method}`, harness/run-dir/record-key.ts) a line belongs to. */
export function traceUnitKey(line: Pick<MemoryTraceLine, 'sampleId' | 'method'>): string {
  return `${line.sampleId}#${line.method}`;
}
