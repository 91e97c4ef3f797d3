// Random access to a run's memory.jsonl for `bench view`: one pass records where each unit's lines lie (byte offset
// and length), so a sample page reads only its own lines, a page of steps at a time, however large the file is.
import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import type { MemoryTraceLine } from '../../harness/memory/trace-line.js';
import { traceUnitKey } from '../../harness/memory/trace-line.js';
import { MemoryTraceDecoder } from '../../harness/memory/trace-codec.js';

interface Span {
  offset: number;
  length: number;
}

/** A memory step as shown: the line's fields with the memory text rebuilt (harness/memory/trace-codec.ts). */
export interface MemoryStep extends Omit<MemoryTraceLine, 'memory' | 'delta'> {
  /** null: the text cannot be rebuilt (the line edits a text the file no longer holds). */
  memory: string | null;
  /** The text was the same as the previous chunk's. */
  unchanged: boolean;
}

/** Bytes of a line read for its ids. */
const HEAD_BYTES = 600;
const HEAD = /^\{"sampleId":("(?:[^"\\]|\\.)*"),"method":("(?:[^"\\]|\\.)*"),"chunk":(\d+)/;

export class MemoryIndex {
  private units = new Map<string, Span[]>();
  private constructor(readonly file: string) {}

  /** Indexes `file` (absent: an empty index). Lines that are not JSON objects are skipped. Only each line's first
   *  bytes are looked at (its ids come first); a line is never copied whole. */
  static build(file: string): MemoryIndex {
    const index = new MemoryIndex(file);
    if (!existsSync(file)) return index;
    const fd = openSync(file, 'r');
    try {
      const size = fstatSync(fd).size;
      const buf = Buffer.allocUnsafe(1 << 20);
      let pos = 0;
      let lineStart = 0;
      // The head of a line that began in an earlier read (at most HEAD_BYTES).
      let pending: Buffer | null = null;
      while (pos < size) {
        const n = readSync(fd, buf, 0, buf.length, pos);
        if (n === 0) break;
        const view = buf.subarray(0, n);
        let s = 0;
        for (let nl = view.indexOf(10); nl >= 0; nl = view.indexOf(10, s)) {
          const head: Buffer = pending
            ? Buffer.concat([pending, view.subarray(0, Math.min(nl, HEAD_BYTES))]).subarray(0, HEAD_BYTES)
            : view.subarray(s, Math.min(nl, s + HEAD_BYTES));
          index.add(fd, head, lineStart, pos + nl - lineStart);
          pending = null;
          s = nl + 1;
          lineStart = pos + s;
        }
        if (s < n) {
          const rest = view.subarray(s, Math.min(n, s + HEAD_BYTES));
          if (!pending) pending = Buffer.from(rest);
          else if (pending.length < HEAD_BYTES) pending = Buffer.concat([pending, rest]).subarray(0, HEAD_BYTES);
        }
        pos += n;
      }
    } finally {
      closeSync(fd);
    }
    return index;
  }

  private add(fd: number, head: Buffer, offset: number, length: number): void {
    if (length === 0) return;
    const m = HEAD.exec(head.toString('utf8'));
    let unit: string;
    if (m) unit = traceUnitKey({ sampleId: JSON.parse(m[1]) as string, method: JSON.parse(m[2]) as string });
    else {
      // Another key order (a file written by another tool): read the whole line.
      try {
        const line = Buffer.allocUnsafe(length);
        readSync(fd, line, 0, length, offset);
        unit = traceUnitKey(JSON.parse(line.toString('utf8')) as MemoryTraceLine);
      } catch {
        return;
      }
    }
    const list = this.units.get(unit) ?? [];
    list.push({ offset, length });
    this.units.set(unit, list);
  }

  /** Memory steps of the unit (`${id}#${method}`). */
  count(unit: string): number {
    return this.units.get(unit)?.length ?? 0;
  }

  /** Steps [from, from + n) of the unit with their memory text, plus the memory before `from` (for the diff). The
   *  text is rebuilt from the last keyframe at or before `from - 1`. */
  steps(unit: string, from: number, n: number): { steps: MemoryStep[]; before: string | null } {
    const spans = this.units.get(unit) ?? [];
    if (spans.length === 0 || from >= spans.length) return { steps: [], before: null };
    const fd = openSync(this.file, 'r');
    try {
      const read = (i: number): MemoryTraceLine => {
        const buf = Buffer.allocUnsafe(spans[i].length);
        readSync(fd, buf, 0, buf.length, spans[i].offset);
        return JSON.parse(buf.toString('utf8')) as MemoryTraceLine;
      };
      const lines = new Map<number, MemoryTraceLine>();
      let start = Math.max(0, from - 1);
      for (; start > 0; start--) {
        const l = read(start);
        lines.set(start, l);
        if (typeof l.memory === 'string') break;
      }
      const decoder = new MemoryTraceDecoder();
      let before: string | null = null;
      const steps: MemoryStep[] = [];
      for (let i = start; i < Math.min(spans.length, from + n); i++) {
        const line = lines.get(i) ?? read(i);
        const { memory, unchanged } = decoder.next(line);
        if (i < from) before = memory;
        else {
          const { memory: _text, delta: _delta, ...fields } = line;
          steps.push({ ...fields, memory, unchanged });
        }
      }
      return { steps, before };
    } finally {
      closeSync(fd);
    }
  }
}
