// Recognises the prompt kinds the reader answers, from the prompt text alone: the method templates (MemAgent,
// full context), then the families' own prompts through their reader skills (harness/reader-skill.ts), then a
// trailing "Question: ...\nAnswer:".

import type { ReaderSkill } from '../../harness/reader-skill.js';
import { keyOf } from './text.js';

export type ParsedPrompt =
  | { kind: 'update'; question: string; memory: string; section: string }
  | { kind: 'final'; question: string; memory: string; boxed: boolean }
  | { kind: 'fullContext'; question: string; context: string; boxed: boolean }
  | { kind: 'qa'; question: string; context: string }
  | { kind: 'summary'; query: string | null; context: string }
  | { kind: 'answer'; text: string }
  | { kind: 'other'; text: string };

function between(text: string, open: string, close: string, from = 0): { inner: string; end: number } | null {
  const a = text.indexOf(open, from);
  if (a < 0) return null;
  const b = text.indexOf(close, a + open.length);
  if (b < 0) return null;
  return { inner: text.slice(a + open.length, b), end: b + close.length };
}

function stripOneNewline(s: string): string {
  let out = s;
  if (out.startsWith('\n')) out = out.slice(1);
  if (out.endsWith('\n')) out = out.slice(0, -1);
  return out;
}

function parseMemAgent(text: string): ParsedPrompt | null {
  const problem = between(text, '<problem>', '</problem>');
  if (problem === null) return null;
  const memStart = text.indexOf('<memory>', problem.end);
  if (memStart < 0) return null;
  const question = problem.inner.trim();
  const sectionOpen = text.indexOf('\n\n<section>\n', memStart);
  if (sectionOpen >= 0) {
    const memEnd = text.lastIndexOf('</memory>', sectionOpen);
    const sectionClose = text.lastIndexOf('</section>');
    if (memEnd < 0 || sectionClose < sectionOpen) return null;
    const memory = stripOneNewline(text.slice(memStart + '<memory>'.length, memEnd));
    const section = stripOneNewline(text.slice(sectionOpen + '\n\n<section>\n'.length - 1, sectionClose));
    return { kind: 'update', question, memory, section };
  }
  const memEnd = text.lastIndexOf('</memory>');
  if (memEnd < memStart) return null;
  const memory = stripOneNewline(text.slice(memStart + '<memory>'.length, memEnd));
  const boxed = /boxed/.test(text.slice(0, problem.end)) || /boxed/.test(text.slice(memEnd));
  return { kind: 'final', question, memory, boxed };
}

function parseFullContext(text: string): ParsedPrompt | null {
  const open = text.indexOf('<text>\n');
  const close = text.lastIndexOf('\n</text>');
  if (open < 0 || close < open) return null;
  const context = text.slice(open + '<text>\n'.length, close);
  let rest = text.slice(close + '\n</text>'.length).trim();
  const fmt = rest.search(/\n\s*(Format your response|Please put|Put (the|your final) answer)/i);
  if (fmt >= 0) rest = rest.slice(0, fmt).trim();
  const boxed = /boxed/.test(text.slice(close));
  return { kind: 'fullContext', question: rest, context, boxed };
}

const TOOLS = { wordKey: keyOf };

export function parsePrompt(text: string, skills: readonly ReaderSkill[] = []): ParsedPrompt {
  if (text.includes('<problem>') && text.includes('<memory>')) {
    const p = parseMemAgent(text);
    if (p !== null) return p;
  }
  if (text.includes('<text>') && text.includes('</text>')) {
    const p = parseFullContext(text);
    if (p !== null) return p;
  }
  for (const skill of skills) {
    const read = skill.readPrompt?.(text, TOOLS) ?? null;
    if (read === null) continue;
    return read.kind === 'question' ? { kind: 'qa', question: read.question, context: read.context } : read;
  }
  const tail = text.trimEnd();
  if (/Answer:$/.test(tail)) {
    const cue = tail.lastIndexOf('Answer:');
    const qAt = tail.lastIndexOf('Question:', cue);
    if (qAt >= 0)
      return { kind: 'qa', question: tail.slice(qAt + 'Question:'.length, cue).trim(), context: tail.slice(0, qAt) };
  }
  return { kind: 'other', text };
}
