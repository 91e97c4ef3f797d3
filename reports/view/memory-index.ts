// Random access to a run's memory.jsonl for `bench view`: one pass records where each unit's lines lie (byte offset
// and length), so a sample page reads only its own lines, a page of steps at a time, however large the file is.
import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import type { MemoryTraceLine } from '../../harness/memory/trace-line.js';
import { traceUnitKey } from '../../harness/memory/trace-line.js';

interface Span {
  offset: number;
  length: number;
}

/** A memory step as shown: the line's fields with the memory text resolved (unchanged lines included). */
export interface MemoryStep extends Omit<MemoryTraceLine, 'memory'> {
  memory: string;
  /** The text was the same as the previous chunk's (the line stored only its hash). */
  unchanged: boolean;
}

const HEAD = /^\{"sampleId":("(?:[^"\\]|\\.)*"),"method":("(?:[^"\\]|\\.)*"),"chunk":(\d+)/;

export class MemoryIndex {
  private units = new Map<string, Span[]>();
  private constructor(readonly file: string) {}

  /** Indexes `file` (absent: an empty index). Lines that are not JSON objects are skipped. */
  static build(file: string): MemoryIndex {
    const index = new MemoryIndex(file);
    if (!existsSync(file)) return index;
    const fd = openSync(file, 'r');
    try {
      const size = fstatSync(fd).size;
      const buf = Buffer.allocUnsafe(1 << 20);
      let pos = 0;
      let carry = Buffer.alloc(0);
      let carryStart = 0;
      while (pos < size) {
        const n = readSync(fd, buf, 0, buf.length, pos);
        if (n === 0) break;
        const chunk = carry.length ? Buffer.concat([carry, buf.subarray(0, n)]) : buf.subarray(0, n);
        const base = carry.length ? carryStart : pos;
        let start = 0;
        for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10, start)) {
          index.add(chunk.subarray(start, nl), base + start);
          start = nl + 1;
        }
        carry = Buffer.from(chunk.subarray(start));
        carryStart = base + start;
        pos += n;
      }
    } finally {
      closeSync(fd);
    }
    return index;
  }

  private add(line: Buffer, offset: number): void {
    if (line.length === 0) return;
    const head = line.subarray(0, 600).toString('utf8');
    const m = HEAD.exec(head);
    let unit: string;
    if (m) unit = traceUnitKey({ sampleId: JSON.parse(m[1]) as string, method: JSON.parse(m[2]) as string });
    else {
      try {
        unit = traceUnitKey(JSON.parse(line.toString('utf8')) as MemoryTraceLine);
      } catch {
        return;
      }
    }
    const list = this.units.get(unit) ?? [];
    list.push({ offset, length: line.length });
    this.units.set(unit, list);
  }

  /** Memory steps of the unit (`${id}#${method}`). */
  count(unit: string): number {
    return this.units.get(unit)?.length ?? 0;
  }

  /** Steps [from, from + n) of the unit with their memory text, plus the memory before `from` (for the diff). */
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
      // The text in force at `from - 1`: walk back to the last line that wrote it out.
      let before: string | null = null;
      for (let i = from - 1; i >= 0; i--) {
        const l = read(i);
        if (typeof l.memory === 'string') {
          before = l.memory;
          break;
        }
      }
      const steps: MemoryStep[] = [];
      let last = before;
      for (let i = from; i < Math.min(spans.length, from + n); i++) {
        const l = read(i);
        const unchanged = typeof l.memory !== 'string';
        const memory = unchanged ? (last ?? '') : l.memory!;
        steps.push({ ...l, memory, unchanged });
        last = memory;
      }
      return { steps, before };
    } finally {
      closeSync(fd);
    }
  }
}
