// passage_retrieval_en / _zh: the answer names its paragraph ("Paragraph 12", "段落12"), so the generator knows where
// the evidence lies: that paragraph's block, from its header to the next header (or the context's end).
import type { EvidenceSpan, Tokenizer } from '../../harness/types.js';

const ANSWER = /^(Paragraph |段落)(\p{Nd}+)$/u;
const HEADER = /(?:^|\n)(Paragraph \p{Nd}+:|段落\p{Nd}+：)/gu;

/** The character range [start, end) of the paragraph `answer` names, or undefined when the context has no such block. */
export function retrievalParagraph(
  context: string,
  answer: string,
): { label: string; start: number; end: number } | undefined {
  const m = ANSWER.exec(answer.trim());
  if (!m) return undefined;
  const wanted = `${m[1]}${m[2]}`;
  const heads = [...context.matchAll(HEADER)].map((h) => ({
    name: h[1].slice(0, -1),
    at: h.index + h[0].length - h[1].length,
  }));
  const i = heads.findIndex((h) => h.name === wanted);
  if (i < 0) return undefined;
  return { label: `the answer's paragraph (${wanted})`, start: heads[i].at, end: heads[i + 1]?.at ?? context.length };
}

/** The named paragraph as a token span of the context (prefix counts: within a token of a merge at its edges). */
export function retrievalEvidence(context: string, answers: readonly string[], tokenizer: Tokenizer): EvidenceSpan[] {
  const p = answers.length > 0 ? retrievalParagraph(context, answers[0]) : undefined;
  if (!p) return [];
  const start = tokenizer.count(context.slice(0, p.start));
  const end = tokenizer.count(context.slice(0, p.end).trimEnd());
  return end > start ? [{ label: p.label, start, end }] : [];
}
