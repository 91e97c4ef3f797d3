// What the reference reader knows of LongBench v2's prompts: it picks the choice whose words the text (or its
// memory) shares most, and replies in the sentence the prompts ask for. A lexical stand-in, not a reader of the
// question's meaning; it sees only the prompt text.
import type { PromptReading, ReaderSkill, ReaderTools, SkilledQuestion } from '../../harness/reader-skill.js';

const WORD = /[\p{L}\p{N}]+/gu;
const LETTERS = ['A', 'B', 'C', 'D'] as const;
const PROBLEM = 'What is the correct answer to this question:';

function keys(text: string, tools: ReaderTools): Set<string> {
  const out = new Set<string>();
  for (const m of text.toLowerCase().matchAll(WORD)) if (m[0].length > 1) out.add(tools.wordKey(m[0]));
  return out;
}

/** The four choices of a "Choices:\n(A) …\n(B) …" block, or null. */
export function choicesOf(text: string): string[] | null {
  const at = text.lastIndexOf('Choices:\n(A) ');
  if (at < 0) return null;
  const block = text.slice(at);
  const out: string[] = [];
  for (const letter of LETTERS) {
    const m = new RegExp(`\\n\\(${letter}\\) ([^\\n]*)`).exec(block);
    if (!m) return null;
    out.push(m[1]);
  }
  return out;
}

/** The letter of the choice sharing the most word keys with `text` (ties: the earlier letter). */
export function pickChoice(choices: readonly string[], text: string, tools: ReaderTools): (typeof LETTERS)[number] {
  const have = keys(text, tools);
  let best = 0;
  let bestScore = -1;
  choices.forEach((c, i) => {
    const want = [...keys(c, tools)];
    const score = want.length === 0 ? 0 : want.filter((k) => have.has(k)).length / want.length;
    if (score > bestScore) {
      bestScore = score;
      best = i;
    }
  });
  return LETTERS[best];
}

const reply = (letter: string) => `The correct answer is (${letter}).`;

function readPrompt(prompt: string, tools: ReaderTools): PromptReading | null {
  if (!prompt.includes(PROBLEM)) return null;
  const choices = choicesOf(prompt);
  if (!choices) return null;
  // 0shot_cot_ans: the answer is the letter the first pass reached.
  const cot = /Let’s think step by step: ([\s\S]*)\n\nBased on the above/.exec(prompt);
  if (cot) {
    const m = /The correct answer is \(?([A-D])/.exec(cot[1]);
    return { kind: 'answer', text: reply(m ? m[1] : pickChoice(choices, cot[1], tools)) };
  }
  const open = prompt.indexOf('<text>\n');
  const close = prompt.lastIndexOf('\n</text>');
  const text = open >= 0 && close > open ? prompt.slice(open + 7, close) : '';
  const letter = pickChoice(choices, text, tools);
  if (/Let’s think step by step:$/.test(prompt))
    return { kind: 'answer', text: `The text names choice ${letter} most often. ${reply(letter)}` };
  return { kind: 'answer', text: reply(letter) };
}

function question(q: string): SkilledQuestion | null {
  if (!q.startsWith(PROBLEM)) return null;
  const choices = choicesOf(q);
  if (!choices) return null;
  // The reader wraps these in its own answer sentence; the regex of pred.py still finds the letter inside.
  return {
    answerFromText: (text) => reply(pickChoice(choices, text, TOOLS_OF.tools)),
    answerFromMemory: (memory) => reply(pickChoice(choices, memory, TOOLS_OF.tools)),
  };
}

/** question() gets no tools: the reader's word key is approximated by lower-casing and dropping a plural -s. */
const TOOLS_OF: { tools: ReaderTools } = {
  tools: { wordKey: (w) => (w.length > 3 && w.endsWith('s') ? w.slice(0, -1) : w) },
};

export const longbenchV2ReaderSkill: ReaderSkill = { name: 'longbench-v2', readPrompt, question };
