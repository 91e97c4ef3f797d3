// The reader's memory text: the sentences it keeps, grouped by source document with their sentence numbers,
// plus one line carrying the unfinished tail of the last section (a chunk can end mid-sentence or mid-header).
//
//   >> {"t":"Ed Wood","k":3,"f":"He was born in Pough"}
//   [Scott Derrickson]
//   #0 Scott Derrickson (born July 16, 1966) is an American director, screenwriter and producer.
//   - An untitled sentence (NIAH haystacks, text outside any document).

export interface MemoryLine {
  title: string | null;
  idx: number;
  text: string;
}

export interface Carry {
  title: string | null;
  next: number;
  fragment: string;
  /** Summaries only: counts of the most frequent content words read so far, "key:count key:count". */
  topic?: string;
}

export interface ParsedMemory {
  lines: MemoryLine[];
  carry: Carry | null;
}

export const EMPTY_MEMORY = 'No previous memory';
const CARRY_PREFIX = '>> ';

export function parseMemory(memory: string): ParsedMemory {
  const lines: MemoryLine[] = [];
  let carry: Carry | null = null;
  let title: string | null = null;
  const trimmed = memory.trim();
  if (trimmed.length === 0 || trimmed === EMPTY_MEMORY) return { lines, carry };
  for (const raw of memory.split('\n')) {
    const line = raw.trim();
    if (line.length === 0 || line === EMPTY_MEMORY) continue;
    if (raw.startsWith(CARRY_PREFIX)) {
      carry = parseCarry(raw.slice(CARRY_PREFIX.length)) ?? carry;
      continue;
    }
    if (line.length >= 2 && line.charCodeAt(0) === 91 && line.charCodeAt(line.length - 1) === 93) {
      title = line.slice(1, -1).trim();
      if (title.length === 0) title = null;
      continue;
    }
    if (line.charCodeAt(0) === 35) {
      const sp = line.indexOf(' ');
      const n = sp > 1 ? Number(line.slice(1, sp)) : NaN;
      if (Number.isInteger(n) && n >= 0) {
        const text = line.slice(sp + 1).trim();
        if (text.length > 0) lines.push({ title, idx: n, text });
        continue;
      }
    }
    if (line.startsWith('- ')) {
      lines.push({ title: null, idx: -1, text: line.slice(2).trim() });
      continue;
    }
    lines.push({ title: null, idx: -1, text: line });
  }
  return { lines, carry };
}

function parseCarry(json: string): Carry | null {
  try {
    const v: unknown = JSON.parse(json);
    if (typeof v !== 'object' || v === null) return null;
    const o = v as Record<string, unknown>;
    const title = typeof o.t === 'string' && o.t.length > 0 ? o.t : null;
    const next = typeof o.k === 'number' && Number.isInteger(o.k) && o.k >= 0 ? o.k : 0;
    const fragment = typeof o.f === 'string' ? o.f : '';
    return typeof o.w === 'string' ? { title, next, fragment, topic: o.w } : { title, next, fragment };
  } catch {
    return null;
  }
}

export function formatCarry(carry: Carry): string {
  const o: Record<string, unknown> = {};
  if (carry.title !== null) o.t = carry.title;
  o.k = carry.next;
  o.f = carry.fragment;
  if (carry.topic !== undefined) o.w = carry.topic;
  return CARRY_PREFIX + JSON.stringify(o);
}

/** Formats groups of lines (already in output order); untitled lines are written as "- text". */
export function formatGroups(
  carryLine: string | null,
  groups: { title: string | null; lines: MemoryLine[] }[],
): string {
  const out: string[] = [];
  if (carryLine !== null) out.push(carryLine);
  for (const g of groups) {
    if (g.title === null) {
      for (const l of g.lines) out.push(`- ${l.text}`);
      continue;
    }
    out.push(`[${g.title}]`);
    for (const l of g.lines) out.push(l.idx >= 0 ? `#${l.idx} ${l.text}` : `- ${l.text}`);
  }
  return out.join('\n');
}

/** Cost of a line as formatted (with its newline). */
export function lineCost(l: MemoryLine): string {
  return l.title !== null && l.idx >= 0 ? `#${l.idx} ${l.text}\n` : `- ${l.text}\n`;
}
