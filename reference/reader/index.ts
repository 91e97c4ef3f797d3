// The reference reader: a deterministic, CPU-only lexical reader that stands in for an LLM when no model server
// is available. It is NOT a language model: it scores sentences by weighted overlap with the question, keeps the
// best in a MemAgent-style memory, and answers with a short typed span. Its output depends only on the messages.
// What it knows of a family's own prompts (RULER's needles, its variable chains) comes in as that family's reader
// skills (harness/reader-skill.ts), handed over where the embedded model is built (reference/local-model.ts).

import type { ReaderSkill } from '../../harness/reader-skill.js';
import type { ChatMessage } from '../../harness/types.js';
import { answerFromCands } from './answer.js';
import { parsePrompt, type ParsedPrompt } from './prompt.js';
import { questionInfo as info, type QuestionInfo } from './question.js';
import { isSummaryProblem, summarize } from './summary.js';
import { SUMMARY_CHARS, summaryFromMemory, updateSummaryMemory } from './summary-memory.js';
import { EMPTY_MEMORY } from './memory.js';
import { memoryLines, readWhole, updateMemory } from './update.js';
import { missingTerms, parseRivalChat, parseRivalText, planReply, type RivalPrompt } from './rivals.js';

export const READER_ID = 'reference-reader-v1';
export const READER_LABEL = 'reference reader (lexical, deterministic; not an LLM)';

/** Internal reading budget (tokens) for one-pass reading of a whole text. */
const WHOLE_TEXT_BUDGET = 1024;
const FALLBACK = 'unknown';

function promptText(messages: ChatMessage[]): string {
  const users = messages.filter((m) => m.role === 'user');
  if (users.length === 0) return messages.map((m) => m.content).join('\n\n');
  return users[users.length - 1].content;
}

function phrase(answer: string, boxed: boolean): string {
  const a = answer.trim().replace(/\.+$/, '');
  return boxed ? `The answer is \\boxed{${a}}.` : `Therefore, the answer is ${a}.`;
}

/** A summary as the answer: braces would end a \boxed{} group early, so they become parentheses there. */
function summaryPhrase(summary: string, boxed: boolean): string {
  return phrase(boxed ? summary.replace(/\{/g, '(').replace(/\}/g, ')') : summary, boxed);
}

/** Characters left for the answer after the phrase around it, of a reply limited to maxChars. */
function answerRoom(maxChars: number): number {
  return Math.max(16, maxChars - 40);
}

function answerFromText(q: QuestionInfo, context: string): string {
  for (const sq of q.skilled) {
    const answer = sq.answerFromText?.(context) ?? null;
    if (answer !== null) return answer;
  }
  return answerFromCands(q, readWhole(q, context, WHOLE_TEXT_BUDGET));
}

function answerFromMemory(q: QuestionInfo, memory: string): string {
  for (const sq of q.skilled) {
    const answer = sq.answerFromMemory?.(memory) ?? null;
    if (answer !== null) return answer;
  }
  return answerFromCands(q, memoryLines(q, memory));
}

function lastQuestionLine(text: string): string | null {
  const lines = text.split('\n').map((l) => l.trim());
  for (let i = lines.length - 1; i >= 0; i--) if (lines[i].endsWith('?')) return lines[i];
  return null;
}

/** Characters of the tags around ReMemR1's memory and its recall request. */
const TAGGED_ROOM = 24;

function reply(p: ParsedPrompt | RivalPrompt, maxTokens: number, skills: readonly ReaderSkill[]): string {
  const questionInfo = (question: string): QuestionInfo => info(question, skills);
  const maxChars = Math.max(16, Math.floor(maxTokens * 3.5));
  switch (p.kind) {
    case 'plan':
      return planReply(questionInfo(p.question), p.memory);
    case 'extract': {
      const relevant = readWhole(questionInfo(p.question), p.context, WHOLE_TEXT_BUDGET)
        .filter((c) => c.final > 0)
        .slice(0, 3);
      return relevant.length === 0 ? 'No relevant text.' : relevant.map((c) => c.text).join(' ');
    }
    case 'refine': {
      const answer = answerFromText(questionInfo(p.question), p.context);
      return answer === FALLBACK ? p.answer : answer;
    }
    case 'tagged-update': {
      const q = questionInfo(p.question);
      const memory = updateMemory(q, p.memory, p.section, Math.max(16, maxTokens - TAGGED_ROOM));
      // Partial evidence: the memory lacks some of the question's terms; the recall asks for them.
      const missing = p.memory.trim() === EMPTY_MEMORY ? [] : missingTerms(q, memory);
      return `<update>\n${memory}\n</update>${missing.length > 0 ? `\n<recall>${missing.join(' ')}</recall>` : ''}`;
    }
    case 'update':
      if (isSummaryProblem(p.question)) return updateSummaryMemory(p.question, p.memory, p.section, maxTokens);
      return updateMemory(questionInfo(p.question), p.memory, p.section, maxTokens);
    case 'final':
      if (isSummaryProblem(p.question))
        return summaryPhrase(summaryFromMemory(p.question, p.memory, answerRoom(Math.floor(maxChars * 0.9))), p.boxed);
      return phrase(answerFromMemory(questionInfo(p.question), p.memory), p.boxed);
    case 'fullContext':
      if (isSummaryProblem(p.question))
        return summaryPhrase(
          summarize(p.context, p.question, Math.min(SUMMARY_CHARS, answerRoom(Math.floor(maxChars * 0.9)))),
          p.boxed,
        );
      return phrase(answerFromText(questionInfo(p.question), p.context), p.boxed);
    case 'qa':
      return answerFromText(questionInfo(p.question), p.context);
    case 'summary':
      return summarize(p.context, p.query, Math.floor(maxChars * 0.9));
    case 'answer':
      return p.text;
    default: {
      const question = lastQuestionLine(p.text);
      return question === null ? FALLBACK : answerFromText(questionInfo(question), p.text);
    }
  }
}

/** The reader's reply to a chat request, limited to about maxTokens * 3.5 characters. */
export type ReferenceReply = (messages: ChatMessage[], maxTokens: number) => string;

/**
 * The reader, knowing the given families' prompts (in order: the first skill that recognises a prompt or answers a
 * question wins). Its reply is a pure function of the messages (and the length limit). Never throws; an unexpected
 * failure yields a short fallback answer.
 */
export function createReferenceReader(skills: readonly ReaderSkill[]): ReferenceReply {
  const known = [...skills];
  return (messages, maxTokens) => {
    const limit = Math.max(1, Math.floor(Math.max(1, maxTokens) * 3.5));
    let out: string;
    try {
      const text = promptText(messages);
      const parsed = parseRivalChat(messages) ?? parseRivalText(text) ?? parsePrompt(text, known);
      out = reply(parsed, Math.max(1, maxTokens), known);
    } catch {
      out = FALLBACK;
    }
    return out.length > limit ? out.slice(0, limit) : out;
  };
}
