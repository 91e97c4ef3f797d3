// MemAgent memory update and one-pass reading of a whole text, both built on scanText + selection.

import type { QuestionInfo } from './question.js';
import { EMPTY_MEMORY, formatCarry, formatGroups, parseMemory, type MemoryLine } from './memory.js';
import { scanText } from './scan.js';
import { budgetFor, buildPool, selectLines, type Cand } from './select.js';

/** Longest unfinished tail carried to the next update (characters). */
const MAX_FRAGMENT = 400;

export function updateMemory(q: QuestionInfo, memoryText: string, section: string, maxTokens: number): string {
  for (const sq of q.skilled) if (sq.updateMemory) return sq.updateMemory(memoryText, section, maxTokens);
  const mem = parseMemory(memoryText);
  const prefix = mem.carry?.fragment ?? '';
  const open = { title: mem.carry?.title ?? null, next: mem.carry?.next ?? 0 };
  const scan = scanText(q, prefix + section, open, false);
  let carryLine: string | null = null;
  if (scan.carry !== null) {
    let fragment = scan.carry.fragment;
    if (fragment.length > MAX_FRAGMENT) fragment = fragment.slice(fragment.length - MAX_FRAGMENT);
    if (fragment.length > 0 || scan.carry.title !== null) {
      carryLine = formatCarry({ title: scan.carry.title, next: scan.carry.next, fragment });
    }
  }
  const pool = buildPool(q, mem.lines, scan);
  const budget = budgetFor(maxTokens);
  const groups = selectLines(pool, budget, carryLine === null ? 0 : carryLine.length + 1);
  const text = formatGroups(carryLine, groups);
  return text.length > 0 ? text : EMPTY_MEMORY;
}

/** Reads a complete text in one pass and returns its best sentences (ranked, grouped) within a character budget. */
export function readWhole(q: QuestionInfo, text: string, maxTokens: number): Cand[] {
  const scan = scanText(q, text, { title: null, next: 0 }, true);
  const pool = buildPool(q, [], scan);
  const groups = selectLines(pool, budgetFor(maxTokens), 0);
  return groups.flatMap((g) => g.lines);
}

/** Memory lines (and the carried tail, which the last section left unfinished) as answer candidates. */
export function memoryLines(q: QuestionInfo, memoryText: string): Cand[] {
  const mem = parseMemory(memoryText);
  const lines: MemoryLine[] = [...mem.lines];
  if (
    mem.carry !== null &&
    mem.carry.fragment.trim().length > 0 &&
    !/^\s*(Document|Passage)\b/.test(mem.carry.fragment)
  ) {
    lines.push({
      title: mem.carry.title,
      idx: mem.carry.title === null ? -1 : mem.carry.next,
      text: mem.carry.fragment.trim(),
    });
  }
  return buildPool(q, lines, null);
}
