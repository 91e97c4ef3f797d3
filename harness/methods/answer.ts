import { extractBoxedAnswer, extractPhraseAnswer } from '../scorers/extract.js';
import type { PromptSpec } from '../types.js';

/** The answer a method reports, taken from the final output per the sample's answer format. */
export function takeAnswer(text: string, format: PromptSpec['answerFormat'] | undefined): string | null {
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
