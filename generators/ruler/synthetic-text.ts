// The prompt strings of vt, cwe, fwe and qa in both flavours (protocol data): RULER's task templates and answer
// prefixes from NVIDIA/RULER@c3f5e3b scripts/data/synthetic/constants.py, MemAgent's from
// BytedTsinghua-SIA/MemAgent@76b7a65 taskutils/memory_data/synthetic/constants.py. MemAgent's templates have no
// {context} slot (its `input` is the question alone) and its vt answer prefix keeps the typo "assgined", which RULER
// fixed in 4a216f4 (2025-05-13); MemAgent stores that prefix in its files and never sends it (docs/PROTOCOLS.md §c.9).
import type { RulerFlavour, SyntheticKind } from './synthetic-spec.js';
import { VT_HOPS } from './synthetic-spec.js';

export const VT_NOISE = 'The grass is green. The sky is blue. The sun is yellow. Here we go. There and back again.';

export const RULER_TEMPLATES: Readonly<Record<SyntheticKind, string>> = {
  vt: 'Memorize and track the chain(s) of variable assignment hidden in the following text.\n\n{context}\nQuestion: Find all variables that are assigned the value {query} in the text above.',
  cwe: 'Below is a numbered list of words. In these words, some appear more often than others. Memorize the ones that appear most often.\n{context}\nQuestion: What are the 10 most common words in the above list?',
  fwe: "Read the following coded text and track the frequency of each coded word. Find the three most frequently appeared coded words. {context}\nQuestion: Do not provide any explanation. Please ignore the dots '....'. What are the three most frequently appeared words in the above coded text?",
  qa: 'Answer the question based on the given documents. Only give me the answer and do not output any other words.\n\nThe following are given documents.\n\n{context}\n\nAnswer the question based on the given documents. Only give me the answer and do not output any other words.\n\nQuestion: {query}',
};

export const RULER_ANSWER_PREFIXES: Readonly<Record<SyntheticKind, string>> = {
  vt: ' Answer: According to the chain(s) of variable assignment in the text above, {num_v} variables are assigned the value {query}, they are: ',
  cwe: ' Answer: The top 10 words that appear most often in the list are:',
  fwe: ' Answer: According to the coded text above, the three most frequently appeared words are:',
  qa: ' Answer:',
};

/** MemAgent's `input` templates: the question without the context. */
export const MEMAGENT_INPUTS: Readonly<Record<SyntheticKind, string>> = {
  vt: 'Memorize and track the chain(s) of variable assignment hidden in the following text. Question: Find all variables that are assigned the value {query} in the text above.',
  cwe: 'Below is a numbered list of words. In these words, some appear more often than others. Memorize the ones that appear most often. Question: What are the 10 most common words in the above list?',
  fwe: "Read the following coded text and track the frequency of each coded word. Find the three most frequently appeared coded words. Question: Do not provide any explanation. Please ignore the dots '....'. What are the three most frequently appeared words in the above coded text?",
  qa: 'Answer the question based on the given documents. {query}',
};

/** MemAgent's stored answer prefixes: RULER's, except vt's "assgined" (sic). */
export const MEMAGENT_ANSWER_PREFIXES: Readonly<Record<SyntheticKind, string>> = {
  ...RULER_ANSWER_PREFIXES,
  vt: ' Answer: According to the chain(s) of variable assignment in the text above, {num_v} variables are assgined the value {query}, they are: ',
};

/** Fills {query} and {num_v} in one pass (a value is never re-read), leaving {context} in place. */
function fill(template: string, query: string): string {
  return template.replace(/\{(query|num_v)\}/g, (_, name: string) => (name === 'query' ? query : String(VT_HOPS + 1)));
}

export interface SyntheticPromptParts {
  /** MemAgent's `input`: the task's question without the context (what methods put in <problem>). */
  question: string;
  /** RULER's one-shot layout with one {context} slot: the flavour's in-context example first (RULER's vt and cwe),
   *  then the task template with its query filled in. */
  template: string;
  /** The flavour's answer prefix, filled (leading space kept). */
  answerPrefix: string;
}

/**
 * A sample's prompt parts. `query` is vt's value or qa's question (cwe and fwe have none); `example` is RULER's
 * in-context example (vt) or demonstration (cwe), which RULER puts before the task template with a newline between.
 */
export function syntheticPrompt(
  kind: SyntheticKind,
  flavour: RulerFlavour,
  parts: { query?: string; example?: string } = {},
): SyntheticPromptParts {
  const query = parts.query ?? '';
  const head = parts.example !== undefined ? `${parts.example}\n` : '';
  const prefixes = flavour === 'ruler' ? RULER_ANSWER_PREFIXES : MEMAGENT_ANSWER_PREFIXES;
  return {
    question: fill(MEMAGENT_INPUTS[kind], query),
    template: head + fill(RULER_TEMPLATES[kind], query),
    answerPrefix: fill(prefixes[kind], query),
  };
}

/** RULER's vt in-context example: its prompt with the answer prefix, a space, the chain's names, a newline. */
export function vtExampleText(context: string, value: string, names: readonly string[]): string {
  const p = syntheticPrompt('vt', 'ruler', { query: value });
  return `${p.template.replace('{context}', () => context)}${p.answerPrefix} ${names.join(' ')}\n`;
}

/** `1. w 2. w …`: cwe's numbered list (and the form its answers are given in). */
export function numberedList(words: readonly string[]): string {
  return words.map((w, i) => `${i + 1}. ${w}`).join(' ');
}

/** RULER's cwe demonstration: the whole prompt of a small list, its answer prefix, a space and its 10 words. */
export function cweDemoText(list: readonly string[], common: readonly string[]): string {
  const p = syntheticPrompt('cwe', 'ruler');
  return `${p.template.replace('{context}', () => numberedList(list))}${p.answerPrefix} ${numberedList(common)}`;
}

/** `Document {i}:\n{document}` blocks joined by a blank line (RULER's qa.py DOCUMENT_PROMPT). */
export function qaDocumentBlock(i: number, document: string): string {
  return `Document ${i}:\n${document}`;
}
