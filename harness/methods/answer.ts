import { afterLastThink, extractBoxedAnswer, extractPhraseAnswer } from '../scorers/extract.js';
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

/**
 * MemAgent's new memory, as upstream's `memory, _ = extract_solution(reply)`: the text after the last </think>,
 * stripped; the whole reply, unchanged, when it has none.
 */
export function afterThink(text: string): string {
  return afterLastThink(text);
}
