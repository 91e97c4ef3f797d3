// Small LongBench task kinds answered lexically: passage retrieval, passage count, question classification, code.

import { keyOf } from './text.js';

const WORD = /[\p{L}\p{N}]+/gu;

function keySet(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.toLowerCase().matchAll(WORD)) if (m[0].length > 2) out.add(keyOf(m[0]));
  return out;
}

/** Splits "Paragraph {i}: ..." blocks. */
function paragraphs(text: string): { label: string; body: string }[] {
  const out: { label: string; body: string }[] = [];
  const re = /(?:^|\n)(Paragraph \d+):/g;
  const hits = [...text.matchAll(re)];
  for (let i = 0; i < hits.length; i++) {
    const start = (hits[i].index ?? 0) + hits[i][0].length;
    const end = i + 1 < hits.length ? (hits[i + 1].index ?? text.length) : text.length;
    out.push({ label: hits[i][1], body: text.slice(start, end) });
  }
  return out;
}

export function retrieveParagraph(context: string, abstract: string): string {
  const want = keySet(abstract);
  let best = 'Paragraph 1';
  let bestScore = -1;
  for (const p of paragraphs(context)) {
    const have = keySet(p.body);
    let hit = 0;
    for (const k of want) if (have.has(k)) hit++;
    const score = hit / Math.sqrt(have.size + 1);
    if (score > bestScore) {
      bestScore = score;
      best = p.label;
    }
  }
  return best;
}

export function countUniqueParagraphs(context: string): string {
  const bodies = paragraphs(context).map((p) => p.body.replace(/\s+/g, ' ').trim());
  return String(new Set(bodies).size);
}

/** Nearest example by word overlap: "Question: ...\nType: ..." examples, answer with the example's type. */
export function classifyByExample(context: string, question: string): string {
  const want = keySet(question);
  const re = /Question:\s*([^\n]*)\nType:\s*([^\n]*)/g;
  let best = '';
  let bestScore = -1;
  for (const m of context.matchAll(re)) {
    const have = keySet(m[1]);
    let hit = 0;
    for (const k of want) if (have.has(k)) hit++;
    if (hit > bestScore && m[2].trim().length > 0) {
      bestScore = hit;
      best = m[2].trim();
    }
  }
  return best || 'unknown';
}

/** Code completion stand-in: repeats the last non-empty code line. */
export function lastCodeLine(context: string): string {
  const body = context.replace(/Next line of code:\s*$/, '');
  const lines = body.split('\n').filter((l) => l.trim().length > 0);
  return lines.length > 0 ? lines[lines.length - 1] : '';
}
