// What the reference reader knows of RULER's counting prompts (harness/reader-skill.ts): cwe ("the 10 most common
// words" of a numbered list `1. w 2. w …`) and fwe ("the three most frequently appeared words" of a coded text, the
// dots `...` ignored). Read whole, it counts every word. Through MemAgent's memory it keeps counters in the memory
// line within the memory's budget (the Space-Saving rule: a new word takes the place of the least counted one, with
// that count plus one), so over many sections rare words crowd the table and the answer is approximate: weak at long
// lengths by design (README).
import type { PromptReading, ReaderSkill, SkilledQuestion } from '../../harness/reader-skill.js';

const CWE_QUESTION = 'What are the 10 most common words in the above list?';
const FWE_QUESTION = 'What are the three most frequently appeared words in the above coded text?';
const CWE_HEAD = 'Memorize the ones that appear most often.\n';
const FWE_HEAD = 'Find the three most frequently appeared coded words. ';
const MEMORY_PREFIX = 'Word counts so far:';
const NUMBERED = /(?:^|\s)\d+\. (\S+)/g;
const COUNTED = /(\S+)=(\d+)/g;

type Kind = 'cwe' | 'fwe';

function kindOf(question: string): Kind | null {
  if (question.includes(CWE_QUESTION)) return 'cwe';
  if (question.includes(FWE_QUESTION)) return 'fwe';
  return null;
}

/** The words a text holds: cwe's numbered words, or fwe's whitespace-separated words without the dots. */
export function countedWords(kind: Kind, text: string): string[] {
  if (kind === 'cwe') return [...text.matchAll(NUMBERED)].map((m) => m[1].toLowerCase());
  return text.split(/\s+/).filter((w) => w.length > 0 && !/^\.+$/.test(w));
}

/** Words by count (most first), ties in order of first sight. */
function ranked(counts: Map<string, number>): Array<[string, number]> {
  return [...counts.entries()].sort((a, b) => b[1] - a[1]);
}

function top(kind: Kind, counts: Map<string, number>): string | null {
  const best = ranked(counts).slice(0, kind === 'cwe' ? 10 : 3);
  return best.length > 0 ? best.map(([w]) => w).join(', ') : null;
}

function countAll(words: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
  return counts;
}

export function parseCounts(memory: string): Map<string, number> {
  const counts = new Map<string, number>();
  const at = memory.indexOf(MEMORY_PREFIX);
  if (at < 0) return counts;
  const end = memory.indexOf('\n', at);
  for (const m of memory.slice(at, end < 0 ? memory.length : end).matchAll(COUNTED)) counts.set(m[1], Number(m[2]));
  return counts;
}

/** The memory after a section: the counters updated by the Space-Saving rule, as many as fit in `maxChars`. */
export function updateCounts(kind: Kind, memory: string, section: string, maxChars: number): string {
  const counts = parseCounts(memory);
  // The table holds what the memory can: each entry is about a word and a count.
  const capacity = Math.max(10, Math.floor((maxChars - MEMORY_PREFIX.length) / 12));
  for (const w of countedWords(kind, section)) {
    const c = counts.get(w);
    if (c !== undefined) {
      counts.set(w, c + 1);
      continue;
    }
    if (counts.size < capacity) {
      counts.set(w, 1);
      continue;
    }
    let minWord = '';
    let min = Number.POSITIVE_INFINITY;
    for (const [k, v] of counts)
      if (v < min) {
        min = v;
        minWord = k;
      }
    counts.delete(minWord);
    counts.set(w, min + 1);
  }
  let line = MEMORY_PREFIX;
  for (const [w, c] of ranked(counts)) {
    const entry = ` ${w}=${c}`;
    if (line.length + entry.length > maxChars) break;
    line += entry;
  }
  return line;
}

/** RULER's own cwe / fwe prompt (its template with the list inside): the question and the list. */
function readCountPrompt(prompt: string): PromptReading | null {
  for (const [question, head] of [
    [CWE_QUESTION, CWE_HEAD],
    [FWE_QUESTION, FWE_HEAD],
  ] as const) {
    const q = prompt.lastIndexOf(question);
    if (q < 0) continue;
    const h = prompt.lastIndexOf(head, q);
    const start = h < 0 ? 0 : h + head.length;
    const end = prompt.lastIndexOf('\nQuestion:', q);
    return { kind: 'question', question, context: prompt.slice(start, end >= start ? end : q) };
  }
  return null;
}

function countQuestion(question: string): SkilledQuestion | null {
  const kind = kindOf(question);
  if (kind === null) return null;
  return {
    answerFromText: (text) => top(kind, countAll(countedWords(kind, text))),
    answerFromMemory: (memory) => top(kind, parseCounts(memory)),
    // About 1.5 characters per token: a `word=12` entry costs a token per word piece, per digit and for the `=`.
    updateMemory: (memory, section, maxTokens) => updateCounts(kind, memory, section, Math.floor(maxTokens * 1.5)),
  };
}

export const rulerCountSkill: ReaderSkill = {
  name: 'ruler-count',
  readPrompt: readCountPrompt,
  question: countQuestion,
};
