// Chat-template special tokens that a server may leave in a completion (e.g. when it decodes without
// skip_special_tokens, or a stop token is echoed): they are not part of the answer. Predictions are cleaned of them
// before scoring; the raw output is recorded untouched.

/** Qwen2.5's special tokens, as in its tokenizer (datasets/tokenizers/qwen2.5), except <tool_call> and </tool_call>,
 *  which Qwen marks as ordinary content (HF decodes them even with skip_special_tokens). */
export const QWEN_SPECIAL_TOKENS: readonly string[] = [
  '<|endoftext|>',
  '<|im_start|>',
  '<|im_end|>',
  '<|object_ref_start|>',
  '<|object_ref_end|>',
  '<|box_start|>',
  '<|box_end|>',
  '<|quad_start|>',
  '<|quad_end|>',
  '<|vision_start|>',
  '<|vision_end|>',
  '<|vision_pad|>',
  '<|image_pad|>',
  '<|video_pad|>',
  '<|fim_prefix|>',
  '<|fim_middle|>',
  '<|fim_suffix|>',
  '<|fim_pad|>',
  '<|repo_name|>',
  '<|file_sep|>',
];

/** DeepSeek (R1 distills) chat tokens; the bars are U+FF5C and the spaces U+2581, as in their tokenizer. MemAgent's
 *  extract_answer deletes the first two. */
export const DEEPSEEK_SPECIAL_TOKENS: readonly string[] = [
  '<\uFF5CAssistant\uFF5C>',
  '<\uFF5Cend\u2581of\u2581sentence\uFF5C>',
  '<\uFF5Cbegin\u2581of\u2581sentence\uFF5C>',
  '<\uFF5CUser\uFF5C>',
  '<\uFF5C\u2581pad\u2581\uFF5C>',
];

/** Llama 3 chat tokens and OpenAI's end-of-prompt marker (other OpenAI-compatible servers' usual leftovers). */
export const OTHER_SPECIAL_TOKENS: readonly string[] = [
  '<|begin_of_text|>',
  '<|end_of_text|>',
  '<|eot_id|>',
  '<|eom_id|>',
  '<|start_header_id|>',
  '<|end_header_id|>',
  '<|endofprompt|>',
];

export const SPECIAL_TOKENS: readonly string[] = [
  ...QWEN_SPECIAL_TOKENS,
  ...DEEPSEEK_SPECIAL_TOKENS,
  ...OTHER_SPECIAL_TOKENS,
];

const ALTERNATION = SPECIAL_TOKENS.map((t) => t.replace(/[|\\^$.*+?()[\]{}]/g, '\\$&')).join('|');
const ANY = new RegExp(ALTERNATION);
const EVERY = new RegExp(ALTERNATION, 'g');

/** The text with every special token deleted (nothing else changes); null stays null. */
export function stripSpecialTokens<T extends string | null>(text: T): T {
  if (text === null || !ANY.test(text)) return text;
  return text.replace(EVERY, '') as T;
}
