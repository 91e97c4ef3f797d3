// MemAgent's reply handling (docs/PROTOCOLS.md §a.6), reproduced from BytedTsinghua-SIA/MemAgent
// taskutils/memory_eval/{ruler_hqa.py, utils/__init__.py}: the driver strips the response, keeps the text after the
// last </think> (extract_solution), then takes what follows the last lowercase "the answer is" (extract_answer).
// The memory a MemAgent update call leaves is extract_solution's result on the raw reply.
import type { PromptSpec } from '../types.js';
import { pyStrip } from './pytext.js';
import { stripSpecialTokens } from './special-tokens.js';

const THINK_CLOSE = '</think>';
const PHRASE = 'the answer is';
/** DeepSeek chat tokens that upstream's extract_answer deletes: <｜Assistant｜> and <｜end▁of▁sentence｜>. */
export const DEEPSEEK_TOKENS: readonly string[] = [
  '<\uFF5CAssistant\uFF5C>',
  '<\uFF5Cend\u2581of\u2581sentence\uFF5C>',
];

/**
 * Upstream's extract_solution (utils/__init__.py): the text after the last </think>, Python-stripped; a reply with no
 * </think> comes back unchanged (not stripped). It is both the memory a MemAgent update leaves and, applied to the
 * stripped response, the first step of answer extraction.
 */
export function afterLastThink(text: string): string {
  const at = text.lastIndexOf(THINK_CLOSE);
  return at < 0 ? text : pyStrip(text.slice(at + THINK_CLOSE.length));
}

/**
 * extract_answer: remove every `*`; if the case-sensitive phrase "the answer is" occurs, take what follows its last
 * occurrence, strip, delete the DeepSeek tokens, strip, strip '.' from both ends, strip. Otherwise null.
 * The result can be '' (e.g. "the answer is."), which upstream scores 0.
 */
export function answerAfterPhrase(text: string): string | null {
  const cleaned = text.replaceAll('*', '');
  const at = cleaned.lastIndexOf(PHRASE);
  if (at < 0) return null;
  let ans = pyStrip(cleaned.slice(at + PHRASE.length));
  for (const token of DEEPSEEK_TOKENS) ans = ans.replaceAll(token, '');
  return pyStrip(pyStrip(pyStrip(ans), '.'));
}

/**
 * The whole MemAgent pipeline on a raw model response. Upstream quirk kept: when nothing follows the last </think>,
 * the phrase is searched in the whole response instead (`extract_answer(pred) if pred else extract_answer(response)`).
 * Upstream's FORCE_THINK environment switch is not emulated (off by default there).
 */
export function extractPhraseAnswer(text: string): string | null {
  const response = pyStrip(text);
  const afterThink = afterLastThink(response);
  return answerAfterPhrase(afterThink !== '' ? afterThink : response);
}

/**
 * Content of the last \boxed{...} (braces balanced), as upstream's extract_boxed_answer. Upstream quirks kept:
 * if "\boxed " (with a space) occurs anywhere, the answer is what follows its last occurrence up to the first `$`;
 * a last `\boxed` without a balanced group gives null. Where upstream would fail an assertion (a `\fbox{..}` or
 * `\boxed` not followed directly by `{`), this returns null.
 */
export function extractBoxedAnswer(text: string): string | null {
  const spaced = '\\boxed ';
  if (text.includes(spaced)) {
    const parts = text.split(spaced);
    return parts[parts.length - 1].split('$')[0];
  }
  let idx = text.lastIndexOf('\\boxed');
  if (idx < 0) idx = text.lastIndexOf('\\fbox');
  if (idx < 0) return null;
  let open = 0;
  let close = -1;
  for (let i = idx; i < text.length; i++) {
    const ch = text[i];
    if (ch === '{') open++;
    if (ch === '}') {
      open--;
      if (open === 0) {
        close = i;
        break;
      }
    }
  }
  if (close < 0) return null;
  const group = text.slice(idx, close + 1);
  const left = '\\boxed{';
  if (!group.startsWith(left)) return null;
  return group.slice(left.length, -1);
}

/** The answer a method reports, taken from the final output per the sample's answer format (default 'phrase'),
 *  without chat-template special tokens (<|im_end|>, ...) a server may leave in it. The raw output is recorded as is. */
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
