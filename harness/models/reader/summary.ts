// Extractive summary: the most central sentences (content words frequent in the whole text), optionally
// steered by a query, written in their original order within a character budget.

import { questionInfo } from './question.js';
import { scanText } from './scan.js';
import { STOP_WORDS, keyOf } from './text.js';

const WORD = /[\p{L}\p{N}]+/gu;

export function summarize(context: string, query: string | null, maxChars: number): string {
  const q = questionInfo(query ?? '');
  const scan = scanText(q, context, { title: null, next: 0 }, true);
  const sents = scan.sents.filter((s) => s.end - s.start >= 20);
  if (sents.length === 0) return context.trim().slice(0, maxChars);
  const freq = new Map<string, number>();
  const words: string[][] = [];
  for (const s of sents) {
    const ws: string[] = [];
    for (const m of scan.lower.slice(s.start, s.end).matchAll(WORD)) {
      if (STOP_WORDS.has(m[0]) || m[0].length < 3) continue;
      const k = keyOf(m[0]);
      ws.push(k);
    }
    words.push(ws);
    for (const k of new Set(ws)) freq.set(k, (freq.get(k) ?? 0) + 1);
  }
  const n = sents.length;
  const scored = sents.map((s, i) => {
    const distinct = new Set(words[i]);
    let sum = 0;
    for (const k of distinct) sum += Math.log(1 + (freq.get(k) ?? 0));
    const central = distinct.size === 0 ? 0 : sum / Math.sqrt(words[i].length + 4);
    const lead = 0.3 * (1 - i / n);
    return { s, i, score: central + lead + (query !== null ? 2 * s.base : 0) };
  });
  scored.sort((a, b) => b.score - a.score || a.i - b.i);
  const picked: { i: number; text: string }[] = [];
  let used = 0;
  for (const c of scored) {
    const text = context.slice(c.s.start, c.s.end).replace(/\s+/g, ' ');
    if (used + text.length + 1 > maxChars) continue;
    picked.push({ i: c.i, text });
    used += text.length + 1;
    if (used > maxChars * 0.95) break;
  }
  picked.sort((a, b) => a.i - b.i);
  return picked.map((p) => p.text).join(' ');
}
