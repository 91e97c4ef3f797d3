// What a reply's thinking is, for records and reports: the server's reasoning_content (split off by its reasoning
// parser) and any `<think>` text left in the answer. Methods take their memory and answers from the answer text only
// (content), under their upstream's rule for a `<think>` there (MemAgent: after the last `</think>`, else the whole
// reply); this module only measures.
import type { ModelResponse, Tokenizer } from '../types.js';

export const THINK_OPEN = '<think>';
export const THINK_CLOSE = '</think>';

/** The reply opens `<think>` and never closes it after that. */
export function hasUnclosedThink(text: string): boolean {
  const open = text.lastIndexOf(THINK_OPEN);
  return open >= 0 && text.indexOf(THINK_CLOSE, open) < 0;
}

/** The thinking inside the answer text: up to and including its last `</think>`, or all of it after an unclosed
 *  `<think>`; '' when it has none. */
export function inlineThinking(text: string): string {
  if (hasUnclosedThink(text)) return text.slice(text.indexOf(THINK_OPEN));
  const close = text.lastIndexOf(THINK_CLOSE);
  return close < 0 ? '' : text.slice(0, close + THINK_CLOSE.length);
}

/** A call's thinking tokens (reasoning_content by the server's count, else the run tokenizer's, plus inline
 *  thinking) and whether its `<think>` was left open. */
export function thinkingOf(
  res: Pick<ModelResponse, 'text' | 'reasoning' | 'reasoningTokens'>,
  tokenizer: Pick<Tokenizer, 'count'>,
): { tokens: number; unclosed: boolean } {
  const split = res.reasoning ? (res.reasoningTokens ?? tokenizer.count(res.reasoning)) : 0;
  const inline = inlineThinking(res.text);
  return { tokens: split + (inline ? tokenizer.count(inline) : 0), unclosed: hasUnclosedThink(res.text) };
}
