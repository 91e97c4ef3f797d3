// What the reference reader knows of LongBench's own prompts (harness/reader-skill.ts): passage retrieval and
// count, trec's question classification and code completion are answered here by small lexical rules; the summary
// prompts (gov_report, multi_news, qmsum, ...) are read into the document and query the reader summarises.
import type { PromptReading, ReaderSkill, ReaderTools } from '../../harness/reader-skill.js';

const WORD = /[\p{L}\p{N}]+/gu;
const DOC_HEADER = /(?:^|\n)(?:News|Report|Transcript|Article|Story|Dialogue|Text|Document):[ \t]*\n?/g;

function keySet(text: string, tools: ReaderTools): Set<string> {
  const out = new Set<string>();
  for (const m of text.toLowerCase().matchAll(WORD)) if (m[0].length > 2) out.add(tools.wordKey(m[0]));
  return out;
}

/** Splits "Paragraph {i}: ..." blocks. */
function paragraphs(text: string): { label: string; body: string }[] {
  const out: { label: string; body: string }[] = [];
  const re = /(?:^|\n)(Paragraph \d+):/g;
  const hits = [...text.matchAll(re)];
  for (let i = 0; i < hits.length; i++) {
    const start = (hits[i].index ?? 0) + hits[i][0].length;
    const end = i + 1 < hits.length ? (hits[i + 1].index ?? text.length) : text.length;
    out.push({ label: hits[i][1], body: text.slice(start, end) });
  }
  return out;
}

/** passage_retrieval: the paragraph sharing the most word keys with the abstract (per square root of its size). */
export function retrieveParagraph(context: string, abstract: string, tools: ReaderTools): string {
  const want = keySet(abstract, tools);
  let best = 'Paragraph 1';
  let bestScore = -1;
  for (const p of paragraphs(context)) {
    const have = keySet(p.body, tools);
    let hit = 0;
    for (const k of want) if (have.has(k)) hit++;
    const score = hit / Math.sqrt(have.size + 1);
    if (score > bestScore) {
      bestScore = score;
      best = p.label;
    }
  }
  return best;
}

/** passage_count: the number of distinct paragraph bodies. */
export function countUniqueParagraphs(context: string): string {
  const bodies = paragraphs(context).map((p) => p.body.replace(/\s+/g, ' ').trim());
  return String(new Set(bodies).size);
}

/** trec: the nearest "Question: ...\nType: ..." example by word overlap; answers with the example's type. */
export function classifyByExample(context: string, question: string, tools: ReaderTools): string {
  const want = keySet(question, tools);
  const re = /Question:\s*([^\n]*)\nType:\s*([^\n]*)/g;
  let best = '';
  let bestScore = -1;
  for (const m of context.matchAll(re)) {
    const have = keySet(m[1], tools);
    let hit = 0;
    for (const k of want) if (have.has(k)) hit++;
    if (hit > bestScore && m[2].trim().length > 0) {
      bestScore = hit;
      best = m[2].trim();
    }
  }
  return best || 'unknown';
}

/** Code completion stand-in: repeats the last non-empty code line. */
export function lastCodeLine(context: string): string {
  const body = context.replace(/Next line of code:\s*$/, '');
  const lines = body.split('\n').filter((l) => l.trim().length > 0);
  return lines.length > 0 ? lines[lines.length - 1] : '';
}

function between(text: string, open: string, close: string): string | null {
  const a = text.indexOf(open);
  if (a < 0) return null;
  const b = text.indexOf(close, a + open.length);
  return b < 0 ? null : text.slice(a + open.length, b);
}

function lastMatch(re: RegExp, text: string): RegExpExecArray | null {
  let last: RegExpExecArray | null = null;
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) last = m;
  return last;
}

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

/** LongBench's task kinds, tried in this order; null for a prompt that is none of them (QA is the reader's own). */
export function readLongBenchPrompt(text: string, tools: ReaderTools): PromptReading | null {
  const tail = text.trimEnd();
  if (/Please enter the number of the paragraph that the abstract is from/.test(tail)) {
    const abstract = between(text, 'The following is an abstract.', 'Please enter the number')?.trim() ?? '';
    return { kind: 'answer', text: retrieveParagraph(text, abstract, tools) };
  }
  if (/how many unique paragraphs there are/.test(text) || /final count of unique paragraphs/.test(text)) {
    return { kind: 'answer', text: countUniqueParagraphs(text) };
  }
  if (/Next line of code:\s*$/.test(text)) return { kind: 'answer', text: lastCodeLine(text) };
  if (/Please determine the type of the question below/.test(text)) {
    const lines = tail.split('\n');
    const question = lines[lines.length - 1].replace(/^Question:\s*/, '').replace(/\s*Type:\s*$/, '');
    return { kind: 'answer', text: classifyByExample(text, question, tools) };
  }
  if (/\bSummary:\s*$/.test(tail)) {
    return { kind: 'summary', query: null, context: documentPart(tail, tail.lastIndexOf('Summary:')) };
  }
  if (/Answer:$/.test(tail)) {
    // qmsum: "Query: ...\nAnswer:" after the transcript (a "Question: ...\nAnswer:" is plain QA).
    const cue = tail.lastIndexOf('Answer:');
    const queryAt = tail.lastIndexOf('Query:', cue);
    if (queryAt > tail.lastIndexOf('Question:', cue)) {
      return {
        kind: 'summary',
        query: tail.slice(queryAt + 'Query:'.length, cue).trim(),
        context: documentPart(tail, queryAt),
      };
    }
  }
  return null;
}

export const longbenchReaderSkill: ReaderSkill = { name: 'longbench', readPrompt: readLongBenchPrompt };
