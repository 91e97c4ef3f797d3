// What the reference reader knows of RULER's qa prompts (harness/reader-skill.ts): RULER's own template puts the
// documents between "The following are given documents." and a repeated instruction, and the question last, without
// a trailing "Answer:" (the answer prefix is not sent). The reader answers it with its lexical reading.
import type { PromptReading, ReaderSkill } from '../../harness/reader-skill.js';

const INSTRUCTION =
  'Answer the question based on the given documents. Only give me the answer and do not output any other words.';
const DOCS_HEAD = 'The following are given documents.\n\n';
const QUESTION = `\n\n${INSTRUCTION}\n\nQuestion: `;

/** RULER's own qa prompt: the question after the last instruction, the documents before it. */
export function readQaPrompt(prompt: string): PromptReading | null {
  const q = prompt.lastIndexOf(QUESTION);
  if (q < 0) return null;
  const head = prompt.lastIndexOf(DOCS_HEAD, q);
  if (head < 0) return null;
  const question = prompt.slice(q + QUESTION.length).trim();
  if (question === '') return null;
  return { kind: 'question', question, context: prompt.slice(head + DOCS_HEAD.length, q) };
}

/** MemAgent's qa `input` is its instruction and the question on one line: the reader weighs the question alone. */
const MEMAGENT_QA = /^Answer the question based on the given documents\. (\S[\s\S]*)$/;

export function qaQuestionText(question: string): string | null {
  return MEMAGENT_QA.exec(question)?.[1] ?? null;
}

export const rulerQaSkill: ReaderSkill = { name: 'ruler-qa', readPrompt: readQaPrompt, questionText: qaQuestionText };
