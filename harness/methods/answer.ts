import { extractBoxedAnswer, extractPhraseAnswer } from '../scorers/extract.js';
import { stripSpecialTokens } from '../protocol/special-tokens.js';
import type { PromptSpec } from '../types.js';

/** The answer a method reports, taken from the final output per the sample's answer format, without chat-template
 *  special tokens (<|im_end|>, ...) a server may leave in it. The caller records the raw output untouched. */
export function takeAnswer(raw: string, format: PromptSpec['answerFormat'] | undefined): string | null {
  const text = stripSpecialTokens(raw);
  switch (format ?? 'phrase') {
    case 'boxed':
      return extractBoxedAnswer(text);
    case 'raw':
      return text;
    default:
      return extractPhraseAnswer(text);
  }
}

/** MemAgent keeps the text after the last </think> as memory (the whole reply if there is none). */
export function afterThink(text: string): string {
  const at = text.lastIndexOf('</think>');
  return at >= 0 ? text.slice(at + '</think>'.length) : text;
}
