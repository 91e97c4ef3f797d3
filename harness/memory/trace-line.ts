// memory.jsonl: one line per memory-update call. The memory text is written only where it differs from the same
// sample's previous chunk (`memory` absent = unchanged; `hash` names it either way), so a memory that stays put
// over hundreds of chunks costs a short line each.
import { createHash } from 'node:crypto';

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
  /** The memory after this update; absent when the same as after the previous chunk. */
  memory?: string;
  /** Per gold answer (the record's `answers`, in order): whether the memory holds it (normalized substring). */
  gold: boolean[];
  /** Whether the memory holds the gold under the sample's metric (MemoryRetention.holds). */
  holds: boolean;
}

export function memoryHash(memory: string): string {
  return createHash('sha256').update(memory).digest('hex').slice(0, 16);
}

/** The key a line is unique by. */
export function traceKey(line: Pick<MemoryTraceLine, 'sampleId' | 'method' | 'chunk'>): string {
  return `${line.sampleId}#${line.method}#${line.chunk}`;
}

/** The unit key (`${id}#${method}`, harness/run-dir/record-key.ts) a line belongs to. */
export function traceUnitKey(line: Pick<MemoryTraceLine, 'sampleId' | 'method'>): string {
  return `${line.sampleId}#${line.method}`;
}
