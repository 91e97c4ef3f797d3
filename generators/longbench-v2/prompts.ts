// Protocol data (docs/PROTOCOLS.md §k): LongBench v2's prompt files, THUDM/LongBench@2e00731 prompts/*.txt, verbatim (none
// ends with a newline; "Let’s" has U+2019), and pred.py's way of filling them: a chain of str.replace calls in a fixed
// order, so a placeholder inside the document or the question is replaced too.
import { UserError } from '../../harness/errors.js';
import { pyStrip } from '../../harness/protocol/pytext.js';

/** prompts/0shot.txt */
export const ZERO_SHOT =
  'Please read the following text and answer the question below.\n\n<text>\n$DOC$\n</text>\n\nWhat is the correct answer to this question: $Q$\nChoices:\n(A) $C_A$\n(B) $C_B$\n(C) $C_C$\n(D) $C_D$\n\nFormat your response as follows: "The correct answer is (insert answer here)".';

/** prompts/0shot_cot.txt */
export const ZERO_SHOT_COT =
  'Please read the following text and answer the questions below.\n\n<text>\n$DOC$\n</text>\n\nWhat is the correct answer to this question: $Q$\nChoices:\n(A) $C_A$\n(B) $C_B$\n(C) $C_C$\n(D) $C_D$\n\nLet’s think step by step:';

/** prompts/0shot_cot_ans.txt */
export const ZERO_SHOT_COT_ANS =
  'Please read the following text and answer the questions below.\n\nThe text is too long and omitted here.\n\nWhat is the correct answer to this question: $Q$\nChoices:\n(A) $C_A$\n(B) $C_B$\n(C) $C_C$\n(D) $C_D$\n\nLet’s think step by step: $COT$\n\nBased on the above, what is the single, most likely answer choice? Format your response as follows: "The correct answer is (insert answer here)".';

/** prompts/0shot_no_context.txt */
export const ZERO_SHOT_NO_CONTEXT =
  'What is the correct answer to this question: $Q$\nChoices:\n(A) $C_A$\n(B) $C_B$\n(C) $C_C$\n(D) $C_D$\n\nWhat is the single, most likely answer choice? Format your response as follows: "The correct answer is (insert answer here)".';

/** prompts/0shot_rag.txt */
export const ZERO_SHOT_RAG =
  'Please read the following retrieved text chunks and answer the question below.\n\n<text>\n$DOC$\n</text>\n\nWhat is the correct answer to this question: $Q$\nChoices:\n(A) $C_A$\n(B) $C_B$\n(C) $C_C$\n(D) $C_D$\n\nFormat your response as follows: "The correct answer is (insert answer here)".';

/** --v2-prompt: pred.py's modes (default, --cot, --rag N, --no_context). */
export const V2_PROMPTS = ['0shot', '0shot_cot', '0shot_rag', '0shot_no_context'] as const;
export type V2Prompt = (typeof V2_PROMPTS)[number];

export function v2PromptOf(value: unknown): V2Prompt {
  const v = value ?? '0shot';
  if (typeof v !== 'string' || !(V2_PROMPTS as readonly string[]).includes(v))
    throw new UserError(`--v2-prompt must be ${V2_PROMPTS.join(', ')}; got '${String(v)}'`);
  return v as V2Prompt;
}

const TEMPLATE: Readonly<Record<V2Prompt, string>> = {
  '0shot': ZERO_SHOT,
  '0shot_cot': ZERO_SHOT_COT,
  '0shot_rag': ZERO_SHOT_RAG,
  '0shot_no_context': ZERO_SHOT_NO_CONTEXT,
};

/** pred.py's max_new_tokens: 128, and 1,024 for the first CoT pass (its second pass: 128). */
export const V2_MAX_NEW_TOKENS = 128;
export const V2_COT_MAX_NEW_TOKENS = 1024;

export interface V2Item {
  question: string;
  choice_A: string;
  choice_B: string;
  choice_C: string;
  choice_D: string;
}

/** Python's `s.replace(old, new)`: every occurrence, left to right, the inserted text never re-read. */
function replaceAll(s: string, old: string, value: string): string {
  return s.split(old).join(value);
}

/** The chain after $DOC$: $Q$, $C_A$ … $C_D$, each value stripped. */
export function fillItem(text: string, item: V2Item): string {
  let out = replaceAll(text, '$Q$', pyStrip(item.question));
  out = replaceAll(out, '$C_A$', pyStrip(item.choice_A));
  out = replaceAll(out, '$C_B$', pyStrip(item.choice_B));
  out = replaceAll(out, '$C_C$', pyStrip(item.choice_C));
  return replaceAll(out, '$C_D$', pyStrip(item.choice_D));
}

/** pred.py's whole prompt: `template.replace('$DOC$', context.strip()).replace('$Q$', …)…`. */
export function v2Prompt(mode: V2Prompt, context: string, item: V2Item): string {
  return fillItem(replaceAll(TEMPLATE[mode], '$DOC$', pyStrip(context)), item);
}

export interface V2PromptParts {
  /** The one-shot template in the harness's slots: the filled text around the document, `{context}` where it goes. */
  fullContext: string;
  /** The document as the chain leaves it (stripped; placeholders inside it replaced). Empty without context. */
  context: string;
  /** 0shot_cot's second prompt, filled but for $COT$. */
  followUp?: string;
}

/**
 * The prompt split around the document, equal to pred.py's: the document sits between newlines, which no placeholder
 * contains, so the chain over the whole prompt equals the chain over each part. `{context}` or `{question}` written
 * in a question or choice would be read as a slot by the harness; such items are refused (none in LongBench v2's
 * data is known to hold one).
 */
export function v2PromptParts(mode: V2Prompt, context: string, item: V2Item): V2PromptParts {
  for (const [k, v] of Object.entries(item))
    if (/\{(context|question)\}/.test(v))
      throw new UserError(
        `LongBench v2 item field ${k} holds a literal {context} or {question}, which this harness cannot send verbatim`,
      );
  const [before, after = ''] = TEMPLATE[mode].split('$DOC$');
  const hasDoc = TEMPLATE[mode].includes('$DOC$');
  return {
    fullContext: hasDoc ? `${fillItem(before, item)}{context}${fillItem(after, item)}` : fillItem(before, item),
    context: hasDoc ? fillItem(pyStrip(context), item) : '',
    ...(mode === '0shot_cot' ? { followUp: fillItem(ZERO_SHOT_COT_ANS, item) } : {}),
  };
}

/** What MemAgent reads as its problem in every call: the question and the four choices, as the prompts lay them out. */
export function v2Problem(item: V2Item): string {
  return fillItem(
    'What is the correct answer to this question: $Q$\nChoices:\n(A) $C_A$\n(B) $C_B$\n(C) $C_C$\n(D) $C_D$',
    item,
  );
}

/**
 * MemAgent's final prompt on LongBench v2 (a harness choice: upstream has no memory-agent protocol for v2): MemAgent's
 * answer-from-memory prompt with LongBench v2's required answer sentence in place of its own.
 */
export const V2_MEMAGENT_FINAL =
  'You are presented with a problem and a previous memory. Please answer the problem based on the previous memory and format your response as follows: "The correct answer is (insert answer here)".\n\n<problem> \n{question}\n</problem>\n\n<memory>\n{memory}\n</memory>\n\nYour answer:\n';
