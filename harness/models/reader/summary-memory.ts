// MemAgent on a summarisation problem: each update keeps the most central sentences of (old memory ∪ section)
// within the memory budget, in reading order; the final answer is the most central of the kept sentences.
// The memory uses the reader's usual format (memory.ts): `[Passage 2]` groups of `#idx sentence` lines, `- sentence`
// lines for unlabelled text, and the `>>` line carrying the section's unfinished tail.

import { makeCand, pickCentral, proseCost, scoreCands, sentenceFrequencies, type SumCand } from './central.js';
import { EMPTY_MEMORY, formatCarry, formatGroups, parseMemory, type MemoryLine } from './memory.js';
import { budgetFor } from './select.js';
import { joinSummary, summaryQueryKeys } from './summary.js';
import { splitSummary } from './summary-text.js';
import { estimateTokens } from './text.js';

/** Longest unfinished tail carried to the next update; a longer one (a line without terminators) is kept whole. */
const MAX_FRAGMENT = 600;
/** Most frequent content words whose counts the memory carries (the text's topic, ~300 characters). */
const TOPIC_WORDS = 32;

/** Parses "key:count key:count" (counts are positive integers; anything else is skipped). */
export function parseTopic(topic: string | undefined): Map<string, number> {
  const out = new Map<string, number>();
  if (topic === undefined) return out;
  for (const item of topic.split(' ')) {
    const at = item.lastIndexOf(':');
    const n = at > 0 ? Number(item.slice(at + 1)) : NaN;
    if (Number.isInteger(n) && n > 0) out.set(item.slice(0, at), n);
  }
  return out;
}

/** Adds the section's counts to the carried ones and keeps the TOPIC_WORDS largest (ties: key order). */
export function mergeTopic(old: ReadonlyMap<string, number>, section: ReadonlyMap<string, number>): Map<string, number> {
  const all = new Map(old);
  for (const [k, v] of section) all.set(k, (all.get(k) ?? 0) + v);
  const top = [...all].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).slice(0, TOPIC_WORDS);
  return new Map(top.filter(([, v]) => v > 1));
}

function formatTopic(topic: ReadonlyMap<string, number>): string {
  return [...topic].map(([k, v]) => `${k}:${v}`).join(' ');
}

/** A one-page summary: what LongBench lets a model write for one (512 new tokens), at ~3.5 characters a token. */
export const SUMMARY_CHARS = Math.floor(512 * 3.5 * 0.9);

function lineCost(c: SumCand): { chars: number; tokens: number } {
  const line = c.title !== null && c.idx >= 0 ? `#${c.idx} ${c.text}\n` : `- ${c.text}\n`;
  // A document label line may come with it: counted for every line to stay safely within the budget.
  const header = c.title !== null ? c.title.length + 3 : 0;
  return { chars: line.length + header, tokens: estimateTokens(line) + header / 3.6 };
}

function groupsOf(picked: readonly SumCand[]): { title: string | null; lines: MemoryLine[] }[] {
  const groups: { title: string | null; lines: MemoryLine[] }[] = [];
  for (const c of picked) {
    const last = groups.length > 0 ? groups[groups.length - 1] : null;
    const line: MemoryLine = { title: c.title, idx: c.title === null ? -1 : c.idx, text: c.text };
    if (last !== null && last.title === c.title) last.lines.push(line);
    else groups.push({ title: c.title, lines: [line] });
  }
  return groups;
}

function memoryCands(lines: readonly MemoryLine[]): SumCand[] {
  const out: SumCand[] = [];
  const seen = new Set<string>();
  for (const l of lines) {
    if (seen.has(l.text)) continue;
    seen.add(l.text);
    const c = makeCand(l.title, l.idx, l.text, out.length);
    if (c !== null) out.push(c);
  }
  return out;
}

export function updateSummaryMemory(problem: string, memoryText: string, section: string, maxTokens: number): string {
  const mem = parseMemory(memoryText);
  const cands = memoryCands(mem.lines);
  const seen = new Set(cands.map((c) => c.text));
  const open = { title: mem.carry?.title ?? null, next: mem.carry?.next ?? 0 };
  const split = splitSummary((mem.carry?.fragment ?? '') + section, open, false);
  const sents = [...split.sents];
  let carry = split.carry ?? { title: open.title, next: open.next, fragment: '' };
  if (carry.fragment.length > MAX_FRAGMENT) {
    sents.push({ title: carry.title, idx: carry.next, text: carry.fragment.replace(/\s+/g, ' ').trim() });
    carry = { title: carry.title, next: carry.next + 1, fragment: '' };
  }
  const first = cands.length;
  for (const s of sents) {
    if (seen.has(s.text)) continue;
    const c = makeCand(s.title, s.idx, s.text, cands.length);
    if (c === null) continue;
    seen.add(s.text);
    cands.push(c);
  }
  const topic = mergeTopic(parseTopic(mem.carry?.topic), sentenceFrequencies(cands.slice(first)));
  const carryLine = formatCarry({ ...carry, topic: formatTopic(topic) });
  const budget = budgetFor(maxTokens);
  scoreCands(cands, summaryQueryKeys(problem), topic);
  const picked = pickCentral(cands, {
    chars: budget.chars - carryLine.length - 1,
    tokens: budget.tokens - estimateTokens(carryLine) - 1,
    cost: lineCost,
  });
  const text = formatGroups(carryLine, groupsOf(picked));
  return text.length > 0 ? text : EMPTY_MEMORY;
}

/** The summary written from a memory: its most central sentences (and the last section's tail), in order. */
export function summaryFromMemory(problem: string, memoryText: string, maxChars: number): string {
  const mem = parseMemory(memoryText);
  const lines = [...mem.lines];
  const tail = mem.carry?.fragment.replace(/\s+/g, ' ').trim() ?? '';
  if (tail.length > 0) lines.push({ title: mem.carry?.title ?? null, idx: mem.carry?.next ?? -1, text: tail });
  const cands = memoryCands(lines);
  if (cands.length === 0) {
    const any = lines.map((l) => l.text).join(' ');
    return any.slice(0, maxChars);
  }
  scoreCands(cands, summaryQueryKeys(problem), parseTopic(mem.carry?.topic));
  const picked = pickCentral(cands, { chars: Math.min(maxChars, SUMMARY_CHARS), tokens: Infinity, cost: proseCost });
  return joinSummary(picked);
}
