// What the reference reader knows of RULER's needle-in-a-haystack prompts (harness/reader-skill.ts). Needles read
// "One of the special magic {type} for {key} is: {value}."; the question asks for the values of one or more keys.
import type { PromptReading, ReaderSkill, SkilledQuestion } from '../../harness/reader-skill.js';

const NIAH_QUESTION = /(What (?:are all|is) the special magic [A-Za-z]+ for .+? mentioned in the provided text\?)/g;
const NIAH_QUERY = /special magic ([A-Za-z]+) for (.+?) mentioned in the provided text/;
const NEEDLE = /special magic ([A-Za-z]+) for (.{1,120}?) is:? (\S+?)\.?(?=\s|$)/y;
const MARK = 'special magic ';

export interface Needle {
  key: string;
  value: string;
}

function lastMatch(re: RegExp, text: string): RegExpExecArray | null {
  let last: RegExpExecArray | null = null;
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) last = m;
  return last;
}

/** The last NIAH question in a bare RULER prompt, and the haystack before it. */
export function findNiahQuestion(prompt: string): PromptReading | null {
  if (!prompt.includes('special magic')) return null;
  const m = lastMatch(NIAH_QUESTION, prompt);
  return m === null ? null : { kind: 'question', question: m[1], context: prompt.slice(0, m.index) };
}

/** The queried keys, in query order ("a, b, and c" → [a, b, c]); empty when it is not a NIAH question. */
export function niahKeys(question: string): string[] {
  const m = NIAH_QUERY.exec(question);
  if (m === null) return [];
  return m[2]
    .split(/,\s*(?:and\s+)?|\s+and\s+/)
    .map((k) => k.trim())
    .filter((k) => k.length > 0);
}

/** All needles in the text, in order (linear: one indexOf pass plus a sticky match at each hit). */
export function findNeedles(text: string): Needle[] {
  const out: Needle[] = [];
  let from = 0;
  for (;;) {
    const at = text.indexOf(MARK, from);
    if (at < 0) break;
    NEEDLE.lastIndex = at;
    const m = NEEDLE.exec(text);
    if (m !== null) out.push({ key: m[2].trim(), value: m[3] });
    from = at + MARK.length;
  }
  return out;
}

/** Values of the queried keys, keys in query order and values in text order, without repeats. */
export function needleValues(keys: readonly string[], texts: readonly string[]): string[] {
  const needles = texts.flatMap((t) => findNeedles(t));
  const values: string[] = [];
  const seen = new Set<string>();
  for (const key of keys) {
    const k = key.toLowerCase();
    for (const n of needles) {
      if (n.key.toLowerCase() !== k || seen.has(n.value)) continue;
      seen.add(n.value);
      values.push(n.value);
    }
  }
  return values;
}

function niahQuestion(question: string): SkilledQuestion | null {
  const keys = niahKeys(question);
  if (keys.length === 0) return null;
  const answer = (text: string): string | null => {
    const values = needleValues(keys, [text]);
    return values.length > 0 ? values.join(', ') : null;
  };
  return {
    answerFromText: answer,
    answerFromMemory: answer,
    keep: { keys, isFact: (lower) => lower.includes('special magic') },
  };
}

export const rulerNiahSkill: ReaderSkill = {
  name: 'ruler-niah',
  readPrompt: findNiahQuestion,
  question: niahQuestion,
};
