// memory.jsonl in a run directory (harness/memory/trace-line.ts): appended as memory updates happen, and made
// consistent when a run directory is opened again, so each (sample, method, chunk) has one line and every sample's
// lines run 0, 1, 2... without a gap:
//   - a finished sample that is not rerun keeps its lines (the first copy of a duplicate);
//   - an unfinished sample resumed from a checkpoint after n updates keeps chunks 0..n-1 (later ones are redone, the
//     first of them a keyframe: an edit never refers to a line of another process, harness/memory/trace-codec.ts);
//     if one of those is missing (a worker's line lost in a kill after its checkpoint was saved), the checkpoint is
//     dropped and the sample restarts, rather than leave a hole;
//   - a sample that starts over (no checkpoint, --retry-errors) loses its lines.
// The file is rewritten (to a temporary, then renamed) only when a line must go.
import { closeSync, existsSync, openSync, renameSync, writeSync } from 'node:fs';
import { guardIO } from './io-errors.js';
import { JsonlAppender, jsonlRows } from './jsonl.js';
import { traceKey, traceUnitKey, type MemoryTraceLine } from '../memory/trace-line.js';

export const MEMORY_TRACE_FILE = 'memory.jsonl';

/** What a reopened directory keeps of a unit's lines: chunks below `keepBelow` (Infinity: all). */
export type KeepChunks = (unitKey: string) => number;

export interface TraceCompaction {
  /** Lines dropped from the file. */
  dropped: number;
  /** Units whose kept chunks had a gap: their checkpoint must go (the sample restarts). */
  restart: string[];
}

/** Filters the file in place by `keep` (see the header); a missing file is nothing to do. */
export function compactMemoryTrace(file: string, keep: KeepChunks): TraceCompaction {
  if (!existsSync(file)) return { dropped: 0, restart: [] };
  const seen = new Set<string>();
  const chunksOf = new Map<string, number[]>();
  let dropped = 0;
  const kept = (line: MemoryTraceLine): boolean => {
    const key = traceKey(line);
    if (seen.has(key) || !(line.chunk < keep(traceUnitKey(line)))) return false;
    seen.add(key);
    return true;
  };
  for (const { value } of jsonlRows<MemoryTraceLine>(file, { mode: 'lenient' })) {
    if (!kept(value)) {
      dropped++;
      continue;
    }
    const unit = traceUnitKey(value);
    const list = chunksOf.get(unit) ?? [];
    list.push(value.chunk);
    chunksOf.set(unit, list);
  }
  // A resumed unit must hold exactly chunks 0..n-1 of its checkpoint's n updates (a unit with no line at all was
  // run without the trace: it is left as it is).
  const restart: string[] = [];
  for (const [unit, chunks] of chunksOf) {
    const limit = keep(unit);
    if (!Number.isFinite(limit)) continue;
    const sorted = [...chunks].sort((a, b) => a - b);
    if (sorted.length !== limit || !sorted.every((c, i) => c === i)) restart.push(unit);
  }
  if (dropped === 0 && restart.length === 0) return { dropped, restart };
  const restarting = new Set(restart);
  const tmp = `${file}.compact.tmp`;
  guardIO('writing', tmp, () => {
    const fd = openSync(tmp, 'w');
    try {
      seen.clear();
      for (const { value } of jsonlRows<MemoryTraceLine>(file, { mode: 'lenient' })) {
        if (restarting.has(traceUnitKey(value))) continue;
        if (kept(value)) writeSync(fd, JSON.stringify(value) + '\n');
      }
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  });
  const restartDropped = restart.reduce((n, u) => n + (chunksOf.get(u)?.length ?? 0), 0);
  return { dropped: dropped + restartDropped, restart };
}

/** Appends memory.jsonl lines as they come (their memory text is encoded per sample, harness/memory/trace-codec.ts).
 *  The file is created on the first line, so a run without a memory agent has none. */
export class MemoryTraceWriter {
  private appender?: JsonlAppender;
  constructor(readonly file: string) {}
  /** Appends lines in one write. */
  append(lines: readonly MemoryTraceLine[]): void {
    if (lines.length === 0) return;
    this.appender ??= new JsonlAppender(this.file);
    this.appender.appendRows(lines);
  }
  close(): void {
    this.appender?.close();
  }
}
