// What the reference reader knows of BABILong's prompts (harness/reader-skill.ts): the context between <context> tags
// and the question after the last "Question: ", and, for qa1 ("Where is John?") and qa6 ("Is John in the garden?"),
// the named person's moves: its MemAgent memory keeps the person's latest move. The other tasks fall back to the
// reader's lexical reading, which rarely gets them right. It sees only the prompt text.
import type { PromptReading, ReaderSkill, SkilledQuestion } from '../../harness/reader-skill.js';

const QUESTION_MARK = 'Question: ';
const CONTEXT_OPEN = '<context>\n';
const CONTEXT_CLOSE = '\n</context>\n\nQuestion: ';

/** The question itself: what follows the last "Question: " of a prompt part, stripped. */
export function babilongQuestion(text: string): string {
  const at = text.lastIndexOf(QUESTION_MARK);
  return (at >= 0 ? text.slice(at + QUESTION_MARK.length) : text).trim();
}

/** BABILong's own one-shot prompt: the text inside its last <context> block, and its question. */
function readPrompt(prompt: string): PromptReading | null {
  const close = prompt.lastIndexOf(CONTEXT_CLOSE);
  if (close < 0) return null;
  const open = prompt.lastIndexOf(CONTEXT_OPEN, close);
  if (open < 0) return null;
  return {
    kind: 'question',
    question: prompt.slice(close + CONTEXT_CLOSE.length).trim(),
    context: prompt.slice(open + CONTEXT_OPEN.length, close),
  };
}

const WHERE = /^Where is ([A-Z][a-z]+)\?$/;
const IS_IN = /^Is ([A-Z][a-z]+) in the ([a-z]+)\?$/;

/** bAbI's moves of one person (qa1, qa6): "Mary went back to the kitchen." */
function moves(person: string): RegExp {
  return new RegExp(`\\b${person} (?:went back|moved|went|journeyed|travelled) to the ([a-z]+)\\.`, 'g');
}

/** The latest move of `person` in `text`, as its sentence, or null. */
export function latestMove(person: string, text: string): { sentence: string; place: string } | null {
  let last: RegExpExecArray | null = null;
  for (const m of text.matchAll(moves(person))) last = m;
  return last ? { sentence: last[0], place: last[1] } : null;
}

function tracker(person: string, reply: (place: string) => string): SkilledQuestion {
  const answer = (text: string) => {
    const move = latestMove(person, text);
    return move ? reply(move.place) : null;
  };
  return {
    answerFromText: answer,
    answerFromMemory: answer,
    // The memory is the person's latest move so far: a later section's move replaces it.
    updateMemory: (memory, section) => latestMove(person, section)?.sentence ?? latestMove(person, memory)?.sentence ?? memory,
  };
}

function question(q: string): SkilledQuestion | null {
  const asked = babilongQuestion(q);
  const where = WHERE.exec(asked);
  if (where) return tracker(where[1], (place) => `The most recent location of ${where[1]} is ${place}.`);
  const isIn = IS_IN.exec(asked);
  if (isIn) return tracker(isIn[1], (place) => (place === isIn[2] ? 'yes' : 'no'));
  return null;
}

export const babilongReaderSkill: ReaderSkill = { name: 'babilong', readPrompt, question };
