// What the reference reader knows of BABILong's prompts (harness/reader-skill.ts): the context between <context> tags
// and the question after the last "Question: "; for qa1 ("Where is John?") and qa6 ("Is John in the garden?") the
// named person's moves, its MemAgent memory keeping the person's latest move; for qa2 ("Where is the football?") who
// holds the object or where it was put down, and everyone's latest move. The other tasks fall back to the reader's
// lexical reading, which rarely gets them right. It sees only the prompt text.
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

const WHERE_OBJECT = /^Where is the ([a-z]+)\?$/;
const EVENT = new RegExp(
  String.raw`\b([A-Z][a-z]+) (?:(went back|moved|went|journeyed|travelled) to the ([a-z]+)|(got|took|picked up|grabbed|dropped|discarded|put down|left) the ([a-z]+)(?: there)?)\.|\bThe ([a-z]+) is in the ([a-z]+)\.`,
  'g',
);
const TAKE = new Set(['got', 'took', 'picked up', 'grabbed']);

/** Where an object is after `text` (bAbI qa2): everyone's latest place, and its holder or the place it was put down. */
interface ObjectState {
  places: Map<string, { sentence: string; place: string }>;
  holder: string | null;
  /** The place it was put down in, or null while held or unknown. */
  place: string | null;
  /** The sentence that says who last took or dropped it, where no place follows from it. */
  note: string | null;
}

function follow(object: string, text: string, state: ObjectState): ObjectState {
  for (const m of text.matchAll(EVENT)) {
    if (m[6] !== undefined) {
      if (m[6] === object) Object.assign(state, { holder: null, place: m[7], note: null });
    } else if (m[2] !== undefined) state.places.set(m[1], { sentence: m[0], place: m[3] });
    else if (m[5] === object) {
      if (TAKE.has(m[4])) Object.assign(state, { holder: m[1], place: null, note: m[0] });
      else {
        const at = state.places.get(m[1])?.place ?? null;
        Object.assign(state, { holder: null, place: at, note: at === null ? m[0] : null });
      }
    }
  }
  return state;
}

const objectState = (object: string, text: string): ObjectState =>
  follow(object, text, { places: new Map(), holder: null, place: null, note: null });

function objectTracker(object: string): SkilledQuestion {
  const answer = (text: string) => {
    const s = objectState(object, text);
    const place = s.holder !== null ? (s.places.get(s.holder)?.place ?? null) : s.place;
    return place === null ? null : `The ${object} is in the ${place}.`;
  };
  return {
    answerFromText: answer,
    answerFromMemory: answer,
    // The memory replays to the same state: everyone's latest move, then the object's holder or place.
    updateMemory(memory, section) {
      const s = follow(object, section, objectState(object, memory));
      const lines = [...s.places.values()].map((p) => p.sentence);
      if (s.place !== null) lines.push(`The ${object} is in the ${s.place}.`);
      else if (s.note !== null) lines.push(s.note);
      return lines.length > 0 ? lines.join(' ') : memory;
    },
  };
}

function question(q: string): SkilledQuestion | null {
  const asked = babilongQuestion(q);
  const object = WHERE_OBJECT.exec(asked);
  if (object) return objectTracker(object[1]);
  const where = WHERE.exec(asked);
  if (where) return tracker(where[1], (place) => `The most recent location of ${where[1]} is ${place}.`);
  const isIn = IS_IN.exec(asked);
  if (isIn) return tracker(isIn[1], (place) => (place === isIn[2] ? 'yes' : 'no'));
  return null;
}

export const babilongReaderSkill: ReaderSkill = { name: 'babilong', readPrompt, question };
