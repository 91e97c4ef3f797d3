// The rival methods' prompts (harness/methods: chain-of-agents, refine, map-reduce, compress, infmem, rememr1),
// recognised from the text the model is sent, and the reader's replies that only these prompts need: InfMem's
// retrieval planner, ReMemR1's tagged memory, LangChain's map step. Everything else reuses the reader's update,
// final and question readings (index.ts).

import type { ChatMessage } from '../../harness/types.js';
import type { ParsedPrompt } from './prompt.js';
import type { QuestionInfo } from './question.js';
import { keyOf } from './text.js';

const COA_WORKER = /^Worker \d+:\n/;
const COA_SUMMARY = '\nHere is the summary of the previous source text: ';
const COA_ASK =
  '\nYou need to read current source text and summary of previous source text (if any) and generate a summary';
const COA_MANAGER =
  '\nThe following are given passages. However, the source text is too long and has been summarized. You need to answer based on the summary:\n';
const PLANNER = 'You are a Retrieval Planner.';
const REFINE_INITIAL = 'Context information is below.\n------------\n';
const REFINE_STEP =
  'We have the opportunity to refine the existing answer (only if needed) with some more context below.\n------------\n';
const DASHES = '\n------------\n';
const MAP =
  'Use the following portion of a long document to see if any of the text is relevant to answer the question. \nReturn any relevant text verbatim.\n______________________\n';
const COMBINE =
  "Given the following extracted parts of a long document and a question, create a final answer. \nIf you don't know the answer, just say that you don't know. Don't try to make up an answer.\n______________________\n";
const COMPRESS_EN = '\nSummerize the context above. The max length of the summary is 200 words.';
const COMPRESS_ZH = '\n请对上面的文本进行总结。最大长度为200个字。';
export const NO_RECALLED = 'No memory was recalled.';

/** Extra prompt kinds of the rival methods, beside prompt.ts's. */
export type RivalPrompt =
  | { kind: 'plan'; question: string; memory: string }
  | { kind: 'extract'; question: string; context: string }
  | { kind: 'refine'; question: string; answer: string; context: string }
  | { kind: 'tagged-update'; question: string; memory: string; section: string };

function inner(text: string, open: string, close: string): string | null {
  const a = text.indexOf(open);
  if (a < 0) return null;
  const b = text.lastIndexOf(close);
  if (b < a) return null;
  let s = text.slice(a + open.length, b);
  if (s.startsWith('\n')) s = s.slice(1);
  if (s.endsWith('\n')) s = s.slice(0, -1);
  return s;
}

/** ReMemR1's memory is the whole reply minus <recall>: the reader's own memory sits inside <update>…</update>. */
export function untagMemory(memory: string): string {
  const update = /<update>([\s\S]*?)(<\/update>|$)/.exec(memory);
  const text = update ? update[1] : memory.replace(/<thinking>[\s\S]*?<\/thinking>/g, '');
  return text.trim();
}

/** The reader's memory with the lines of ReMemR1's recalled memory before it (none when nothing was recalled). */
function withRecalled(memory: string, recalled: string | null): string {
  const mine = untagMemory(memory);
  if (recalled === null || recalled.trim() === NO_RECALLED || recalled.trim() === 'None') return mine;
  const lines = untagMemory(recalled)
    .split('\n')
    .filter((l) => !l.startsWith('>> '));
  return [...lines, mine].join('\n');
}

/** A single-text prompt of a rival method, or null. */
export function parseRivalText(text: string): ParsedPrompt | RivalPrompt | null {
  if (COA_WORKER.test(text)) {
    const ask = text.lastIndexOf(COA_ASK);
    const q = text.lastIndexOf('\nQuestion: ', ask);
    const s = text.lastIndexOf(COA_SUMMARY, q);
    if (ask > 0 && q > 0 && s > 0) {
      const memory = text.slice(s + COA_SUMMARY.length, q);
      const section = text.slice(text.indexOf('\n') + 1, s);
      return { kind: 'update', question: text.slice(q + '\nQuestion: '.length, ask), memory, section };
    }
  }
  const m = text.indexOf(COA_MANAGER);
  if (m >= 0) {
    const q = text.lastIndexOf('\nQuestion: ');
    if (q > m) {
      const question = text.slice(q + '\nQuestion: '.length).replace(/\nAnswer:\s*$/, '');
      const boxed = /boxed/.test(text.slice(0, m));
      return { kind: 'final', question: question.trim(), memory: text.slice(m + COA_MANAGER.length, q), boxed };
    }
  }
  if (text.includes(PLANNER)) {
    const question = inner(text, 'ORIGINAL QUESTION:\n', '\n\n<retrieval_history>');
    const at = text.indexOf('CURRENT MEMORY:\n');
    if (question !== null && at >= 0) return { kind: 'plan', question: question.trim(), memory: text.slice(at + 16) };
  }
  if (text.includes('<retrieved_chunk>') && text.includes('<recurrent_chunk>')) {
    const question = inner(text, '<problem>', '</problem>');
    const retrieved = inner(text, '<retrieved_chunk>', '</retrieved_chunk>');
    const chunk = inner(text, '<recurrent_chunk>', '</recurrent_chunk>');
    const memory = inner(text, '\n<memory>', '</memory>');
    if (question !== null && retrieved !== null && chunk !== null && memory !== null) {
      // Retrieved units start and end mid-sentence; put them first so the carried tail stays the chunk's own.
      const section = retrieved.replace(/\[Retrieved #\d+\] /g, '') + '\n\n' + chunk;
      return { kind: 'update', question: question.trim(), memory, section };
    }
  }
  if (text.includes('<recalled_memory>')) {
    const question = inner(text, '<problem>', '</problem>');
    const recalled = inner(text, '<recalled_memory>', '</recalled_memory>');
    const section = text.includes('\n<section>\n') ? inner(text, '\n<section>\n', '</section>') : null;
    const memEnd =
      section === null ? text.lastIndexOf('</memory>') : text.lastIndexOf('</memory>', text.indexOf('\n<section>\n'));
    const memStart = text.indexOf('\n<memory>\n');
    if (question !== null && recalled !== null && memStart >= 0 && memEnd > memStart) {
      const memory = withRecalled(text.slice(memStart + 10, memEnd).replace(/\n$/, ''), recalled);
      if (section !== null) return { kind: 'tagged-update', question: question.trim(), memory, section };
      return { kind: 'final', question: question.trim(), memory, boxed: true };
    }
  }
  for (const ask of [COMPRESS_EN, COMPRESS_ZH])
    if (text.endsWith(ask)) return { kind: 'summary', query: null, context: text.slice(0, -ask.length) };
  return null;
}

/** A chat of LangChain's chains (a system message holding the document, the question as the human turn), or null. */
export function parseRivalChat(messages: readonly ChatMessage[]): ParsedPrompt | RivalPrompt | null {
  const [first, second, third] = messages;
  if (messages.length === 2 && first.role === 'system' && second.role === 'user') {
    const question = second.content.trim();
    if (first.content.startsWith(REFINE_INITIAL)) {
      const end = first.content.lastIndexOf(DASHES);
      return { kind: 'qa', question, context: first.content.slice(REFINE_INITIAL.length, end) };
    }
    if (first.content.startsWith(MAP)) return { kind: 'extract', question, context: first.content.slice(MAP.length) };
    if (first.content.startsWith(COMBINE))
      return { kind: 'qa', question, context: first.content.slice(COMBINE.length) };
  }
  if (messages.length === 3 && first.role === 'user' && second.role === 'assistant' && third.role === 'user') {
    if (third.content.startsWith(REFINE_STEP)) {
      const end = third.content.lastIndexOf(DASHES);
      const context = third.content.slice(REFINE_STEP.length, end);
      return { kind: 'refine', question: first.content.trim(), answer: second.content, context };
    }
  }
  return null;
}

/** The question's content terms (names, numbers, content words) that the memory does not contain. */
export function missingTerms(q: QuestionInfo, memory: string): string[] {
  const have = new Set<string>();
  for (const m of memory.matchAll(/[\p{L}\p{N}]+/gu)) have.add(keyOf(m[0]));
  const out: string[] = [];
  for (const [key, i] of q.termIndex) if (q.isStop[i] === 0 && q.weight[i] >= 1 && !have.has(key)) out.push(key);
  return out;
}

/**
 * InfMem's planner: STOP once the memory holds every content term of the question (the reader's reading of "MEMORY
 * already contains all necessary information"), else one retrievesearch call for the missing terms.
 */
export function planReply(q: QuestionInfo, memory: string): string {
  const missing = missingTerms(q, memory);
  if (missing.length === 0) return 'STOP';
  return `✿FUNCTION✿: retrievesearch\n✿ARGS✿: ${JSON.stringify({ query: missing.join(' '), top_k: 8 })}`;
}
