// MemAgent on a summarisation problem: each update keeps the most central sentences of (old memory ∪ section)
// within the memory budget, in reading order; the final answer is the most central of the kept sentences.
// The memory uses the reader's usual format (memory.ts): `[Passage 2]` groups of `#idx sentence` lines, `- sentence`
// lines for unlabelled text, and the `>>` line carrying the section's unfinished tail.

import { Vocab, countSentences, makeCand, pickCentral, queryIdsOf, scoreCands, type SumCand } from './central.js';
import { EMPTY_MEMORY, formatCarry, formatGroups, parseMemory, type MemoryLine } from './memory.js';
import { budgetFor } from './select.js';
import { summaryQueryKeys, writeSummary } from './summary.js';
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

/**
 * Adds the section's sentence counts (by word id) to the carried ones and keeps the TOPIC_WORDS largest counts
 * (ties: key order). Section words seen in one sentence only are not added unless already carried.
 */
export function mergeTopic(old: ReadonlyMap<string, number>, vocab: Vocab, section: Float64Array): Map<string, number> {
  const all = new Map(old);
  for (let id = 0; id < section.length; id++) {
    const v = section[id];
    if (v === 0) continue;
    const k = vocab.keys[id];
    const before = all.get(k);
    if (before !== undefined) all.set(k, before + v);
    else if (v > 1) all.set(k, v);
  }
  // Only words at or above the TOPIC_WORDS-th largest count can be kept: find that count before sorting.
  let floor = 2;
  if (all.size > TOPIC_WORDS) {
    const hist = new Map<number, number>();
    for (const v of all.values()) hist.set(v, (hist.get(v) ?? 0) + 1);
    let n = 0;
    for (const v of [...hist.keys()].sort((a, b) => b - a)) {
      n += hist.get(v) ?? 0;
      floor = Math.max(2, v);
      if (n >= TOPIC_WORDS) break;
    }
  }
  const top = [...all]
    .filter(([, v]) => v >= floor)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return new Map(top.slice(0, TOPIC_WORDS));
}

/** Raises each word's count to its carried whole-text count where that is larger. */
function applyTopic(df: Float64Array, vocab: Vocab, topic: ReadonlyMap<string, number>): void {
  for (const [k, v] of topic) {
    const id = vocab.find(k);
    if (id >= 0 && v > df[id]) df[id] = v;
  }
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

function memoryCands(vocab: Vocab, lines: readonly MemoryLine[], seen: Set<string>, out: SumCand[]): void {
  for (const l of lines) {
    if (seen.has(l.text)) continue;
    seen.add(l.text);
    const c = makeCand(vocab, l.title, l.idx, l.text, out.length);
    if (c !== null) out.push(c);
  }
}

export function updateSummaryMemory(problem: string, memoryText: string, section: string, maxTokens: number): string {
  const mem = parseMemory(memoryText);
  const vocab = new Vocab();
  const seen = new Set<string>();
  const cands: SumCand[] = [];
  memoryCands(vocab, mem.lines, seen, cands);
  const first = cands.length;
  const open = { title: mem.carry?.title ?? null, next: mem.carry?.next ?? 0 };
  const split = splitSummary((mem.carry?.fragment ?? '') + section, open, false);
  const sents = split.sents;
  let carry = split.carry ?? { title: open.title, next: open.next, fragment: '' };
  if (carry.fragment.length > MAX_FRAGMENT) {
    sents.push({ title: carry.title, idx: carry.next, text: carry.fragment.replace(/\s+/g, ' ').trim() });
    carry = { title: carry.title, next: carry.next + 1, fragment: '' };
  }
  memoryCands(vocab, sents, seen, cands);
  const df = new Float64Array(vocab.size);
  countSentences(cands.slice(first), df);
  const topic = mergeTopic(parseTopic(mem.carry?.topic), vocab, df);
  countSentences(cands.slice(0, first), df);
  applyTopic(df, vocab, topic);
  const queryKeys = summaryQueryKeys(problem);
  scoreCands(cands, df, queryIdsOf(vocab, queryKeys), queryKeys.length);
  const carryLine = formatCarry({ ...carry, topic: formatTopic(topic) });
  const budget = budgetFor(maxTokens);
  const picked = pickCentral(cands, vocab.size, {
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
  const vocab = new Vocab();
  const cands: SumCand[] = [];
  memoryCands(vocab, lines, new Set(), cands);
  if (cands.length === 0)
    return lines
      .map((l) => l.text)
      .join(' ')
      .slice(0, maxChars);
  const df = new Float64Array(vocab.size);
  countSentences(cands, df);
  applyTopic(df, vocab, parseTopic(mem.carry?.topic));
  const queryKeys = summaryQueryKeys(problem);
  scoreCands(cands, df, queryIdsOf(vocab, queryKeys), queryKeys.length);
  return writeSummary(cands, vocab.size, Math.min(maxChars, SUMMARY_CHARS));
}
