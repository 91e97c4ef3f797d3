// The Qwen3 chat template as InfMem renders it client-side (tokenizer.apply_chat_template(..., tokenize=False,
// add_generation_prompt=True, enable_thinking=...)) for plain system/user turns: the text its /completions requests
// continue. With thinking off the template opens an empty <think></think> block.
import type { ChatMessage } from '../types.js';

export function qwen3Prompt(messages: readonly ChatMessage[], enableThinking: boolean): string {
  let out = '';
  for (const m of messages) out += `<|im_start|>${m.role}\n${m.content}<|im_end|>\n`;
  out += '<|im_start|>assistant\n';
  return enableThinking ? out : `${out}<think>\n\n</think>\n\n`;
}
