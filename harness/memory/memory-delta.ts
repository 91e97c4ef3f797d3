// A memory as segments (its lines and sentences) and one memory as an edit of the one before: runs of the previous
// memory's segments it keeps, and the segments it adds. A memory agent rewrites a few of its notes per chunk, so an
// edit is a fraction of the memory's size (memory.jsonl, harness/memory/trace-line.ts).

/** Copy `count` segments of the previous memory from `start` ([start, count]), or add this segment. */
export type MemoryDeltaItem = [number, number] | string;
export type MemoryDelta = MemoryDeltaItem[];

// A segment ends after a newline or after a space that follows a sentence's end ('.', '!', '?'). Both are
// whitespace, so segments normalise one by one as the whole text does (harness/memory/retention.ts, GoldMatcher).
const NEWLINE = 10;
const SPACE = 32;
const isSentenceEnd = (c: number) => c === 46 || c === 33 || c === 63;

/** The text's segments; joined, they are the text again. (text.split(/(?<=\n|[.!?] )/), without the regex.) */
export function splitSegments(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === NEWLINE || (c === SPACE && i > 0 && isSentenceEnd(text.charCodeAt(i - 1)))) {
      out.push(text.slice(start, i + 1));
      start = i + 1;
    }
  }
  if (start < text.length || out.length === 0) out.push(text.slice(start));
  return out;
}

/** `next` as runs of `prev` (each segment is looked up where it first occurs in `prev`) and new segments. */
export function encodeDelta(prev: readonly string[], next: readonly string[]): MemoryDelta {
  const at = new Map<string, number>();
  for (let i = prev.length - 1; i >= 0; i--) at.set(prev[i], i);
  const out: MemoryDelta = [];
  let run: [number, number] | undefined;
  for (const seg of next) {
    if (run && prev[run[0] + run[1]] === seg) {
      run[1]++;
      continue;
    }
    const i = at.get(seg);
    if (i === undefined) {
      run = undefined;
      out.push(seg);
    } else {
      run = [i, 1];
      out.push(run);
    }
  }
  return out;
}

/** The segments `delta` makes of `prev`; null when it copies what `prev` does not have (a delta of another base). */
export function applyDelta(prev: readonly string[], delta: readonly MemoryDeltaItem[]): string[] | null {
  const out: string[] = [];
  for (const item of delta) {
    if (typeof item === 'string') out.push(item);
    else if (Array.isArray(item) && Number.isInteger(item[0]) && Number.isInteger(item[1])) {
      const [start, count] = item;
      if (start < 0 || count < 0 || start + count > prev.length) return null;
      for (let i = start; i < start + count; i++) out.push(prev[i]);
    } else return null;
  }
  return out;
}

/** Whether the delta keeps every segment of `prev` in place and adds none. */
export function isIdentity(delta: readonly MemoryDeltaItem[], prev: readonly string[]): boolean {
  return delta.length === 1 && typeof delta[0] !== 'string' && delta[0][0] === 0 && delta[0][1] === prev.length;
}
