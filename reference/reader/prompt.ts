// Recognises the prompt kinds the reader answers, from the prompt text alone: the method templates (MemAgent,
// full context), the families' own questions through their skills (harness/reader-skill.ts), then LongBench's kinds.

import type { ReaderSkill } from '../../harness/reader-skill.js';

export type ParsedPrompt =
  | { kind: 'update'; question: string; memory: string; section: string }
  | { kind: 'final'; question: string; memory: string; boxed: boolean }
  | { kind: 'fullContext'; question: string; context: string; boxed: boolean }
  | { kind: 'qa'; question: string; context: string }
  | { kind: 'summary'; query: string | null; context: string }
  | { kind: 'retrieval'; abstract: string; context: string }
  | { kind: 'count'; context: string }
  | { kind: 'classify'; question: string; context: string }
  | { kind: 'code'; context: string }
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

function lastMatch(re: RegExp, text: string): RegExpExecArray | null {
  let last: RegExpExecArray | null = null;
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) last = m;
  return last;
}

const DOC_HEADER = /(?:^|\n)(?:News|Report|Transcript|Article|Story|Dialogue|Text|Document):[ \t]*\n?/g;

/** The document inside a summarisation prompt: after its last header ("Report:", "Dialogue:") and before the
 *  repeated instruction ("\n\nNow, ...") that precedes the cue at `end`. */
function documentPart(text: string, end: number): string {
  let start = 0;
  const head = lastMatch(DOC_HEADER, text.slice(0, end));
  if (head !== null) start = head.index + head[0].length;
  let stop = end;
  const now = text.lastIndexOf('\n\nNow, ', end);
  if (now > start) stop = now;
  return text.slice(start, stop);
}

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
    const found = skill.findQuestion?.(text) ?? null;
    if (found !== null) return { kind: 'qa', question: found.question, context: found.context };
  }
  const tail = text.trimEnd();
  if (/Please enter the number of the paragraph that the abstract is from/.test(tail)) {
    const abs = between(text, 'The following is an abstract.', 'Please enter the number');
    return { kind: 'retrieval', abstract: abs?.inner.trim() ?? '', context: text };
  }
  if (/how many unique paragraphs there are/.test(text) || /final count of unique paragraphs/.test(text)) {
    return { kind: 'count', context: text };
  }
  if (/Next line of code:\s*$/.test(text)) return { kind: 'code', context: text };
  if (/Please determine the type of the question below/.test(text)) {
    const lines = tail.split('\n');
    return {
      kind: 'classify',
      question: lines[lines.length - 1].replace(/^Question:\s*/, '').replace(/\s*Type:\s*$/, ''),
      context: text,
    };
  }
  if (/\bSummary:\s*$/.test(tail)) {
    const cue = tail.lastIndexOf('Summary:');
    return { kind: 'summary', query: null, context: documentPart(tail, cue) };
  }
  if (/Answer:$/.test(tail)) {
    const cue = tail.lastIndexOf('Answer:');
    const qAt = tail.lastIndexOf('Question:', cue);
    const queryAt = tail.lastIndexOf('Query:', cue);
    if (queryAt > qAt) {
      return {
        kind: 'summary',
        query: tail.slice(queryAt + 'Query:'.length, cue).trim(),
        context: documentPart(tail, queryAt),
      };
    }
    if (qAt >= 0)
      return { kind: 'qa', question: tail.slice(qAt + 'Question:'.length, cue).trim(), context: tail.slice(0, qAt) };
  }
  return { kind: 'other', text };
}
