// What the reference reader knows of RULER's variable tracking (vt) prompts (harness/reader-skill.ts): follow
// `VAR X = value` / `VAR Y = VAR X` chains across sections, keeping the chain in a one-line MemAgent memory.
import type { PromptReading, ReaderSkill, SkilledQuestion } from '../../harness/reader-skill.js';

const VT_QUERY = /variables that are assigned the value ([A-Za-z0-9]+)/g;
const ASSIGN = /VAR ([A-Z]{2,}) = (VAR )?([A-Za-z0-9]+)/g;
const MEMORY_PREFIX = 'Variables assigned the value ';

/** The value whose variables the question asks for (its last mention), or null. */
export function vtValue(question: string): string | null {
  const matches = [...question.matchAll(VT_QUERY)];
  return matches.length > 0 ? matches[matches.length - 1][1] : null;
}

export function parseVariables(memory: string, value: string): string[] {
  const at = memory.indexOf(`${MEMORY_PREFIX}${value}:`);
  if (at < 0) return [];
  const lineEnd = memory.indexOf('\n', at);
  const list = memory.slice(at + MEMORY_PREFIX.length + value.length + 1, lineEnd < 0 ? memory.length : lineEnd);
  return list.split(/[\s,]+/).filter((v) => /^[A-Z]{2,}$/.test(v));
}

/** Variables of the chain rooted at `value`, in the order they were found (known ones from memory first). */
export function trackVariables(known: readonly string[], text: string, value: string): string[] {
  const vars = [...known];
  const set = new Set(vars);
  ASSIGN.lastIndex = 0;
  for (let m = ASSIGN.exec(text); m !== null; m = ASSIGN.exec(text)) {
    const [, name, isVar, rhs] = m;
    if (set.has(name)) continue;
    if ((isVar === undefined && rhs === value) || (isVar !== undefined && set.has(rhs))) {
      set.add(name);
      vars.push(name);
    }
  }
  return vars;
}

export function updateVariableTracking(value: string, memory: string, section: string, maxTokens: number): string {
  const vars = trackVariables(parseVariables(memory, value), section, value);
  const line = `${MEMORY_PREFIX}${value}: ${vars.join(', ')}`;
  return line.slice(0, Math.max(0, Math.floor(maxTokens * 3)));
}

function vtQuestion(question: string): SkilledQuestion | null {
  const value = vtValue(question);
  if (value === null) return null;
  const joined = (vars: string[]): string | null => (vars.length > 0 ? vars.join(' ') : null);
  return {
    answerFromText: (text) => joined(trackVariables([], text, value)),
    answerFromMemory: (memory) => joined(parseVariables(memory, value)),
    updateMemory: (memory, section, maxTokens) => updateVariableTracking(value, memory, section, maxTokens),
  };
}

const VT_QUESTION = /Question: (Find all variables that are assigned the value [A-Za-z0-9]+ in the text above\.)/g;

/** RULER's own vt prompt (its template with the lines inside, an in-context example before it): the last question
 *  and the text before it. */
export function readVtPrompt(prompt: string): PromptReading | null {
  if (!prompt.includes('Memorize and track the chain(s) of variable assignment')) return null;
  let last: RegExpExecArray | null = null;
  VT_QUESTION.lastIndex = 0;
  for (let m = VT_QUESTION.exec(prompt); m !== null; m = VT_QUESTION.exec(prompt)) last = m;
  return last === null ? null : { kind: 'question', question: last[1], context: prompt.slice(0, last.index) };
}

export const rulerVtSkill: ReaderSkill = { name: 'ruler-vt', readPrompt: readVtPrompt, question: vtQuestion };
