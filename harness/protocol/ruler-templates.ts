// RULER's model templates (protocol data: NVIDIA/RULER@c3f5e3b scripts/data/template.py, `Templates`), as the Python
// literals hold them after escape processing. prepare.py wraps the task template in one
// (`model_template.format(task_template=task_template)`) and appends the task's answer prefix; the generator then
// fills the context in. `server` is ours: no wrapping, the endpoint's own chat template applies (chat API only).
export const RULER_MODEL_TEMPLATES = {
  base: '{task_template}',
  'meta-chat': '[INST] {task_template} [/INST]',
  'vicuna-chat':
    "A chat between a curious user and an artificial intelligence assistant. The assistant gives helpful, detailed, and polite answers to the user's questions. USER: {task_template} ASSISTANT:",
  'lwm-chat': 'You are a helpful assistant. USER: {task_template} ASSISTANT: ',
  'command-r-chat':
    '<BOS_TOKEN><|START_OF_TURN_TOKEN|><|USER_TOKEN|>{task_template}<|END_OF_TURN_TOKEN|><|START_OF_TURN_TOKEN|><|CHATBOT_TOKEN|>',
  'chatglm-chat': '[gMASK]sop<|user|> \n {task_template}<|assistant|> \n ',
  RWKV: 'User: hi\n\nAssistant: Hi. I am your assistant and I will provide expert full response in full details. Please feel free to ask any question and I will always answer it\n\nUser: {task_template}\n\nAssistant:',
  Phi3: '<|user|>\n{task_template}<|end|>\n<|assistant|>\n',
  'meta-llama3':
    '<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\n{task_template}<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n',
  jamba: '<|startoftext|><|bom|><|system|> <|eom|><|bom|><|user|> {task_template}<|eom|><|bom|><|assistant|>',
  'nemotron5-instruct': '<SPECIAL_10>System\n\n<SPECIAL_11>User\n{task_template}\n<SPECIAL_11>Assistant\n',
} as const;

export type RulerModelTemplate = keyof typeof RULER_MODEL_TEMPLATES;

/** --chat-template values: RULER's names, then `server`. */
export const CHAT_TEMPLATE_NAMES = [...(Object.keys(RULER_MODEL_TEMPLATES) as RulerModelTemplate[]), 'server'] as const;
export type ChatTemplateName = RulerModelTemplate | 'server';

/** Where the answer prefix goes (RULER's placements; docs/PROTOCOLS.md). */
export const ANSWER_PREFIX_PLACEMENTS = ['completion', 'user', 'assistant-prefill'] as const;
export type AnswerPrefixPlacement = (typeof ANSWER_PREFIX_PLACEMENTS)[number];

/** The task prompt wrapped in a model template (one pass: the prompt's own braces are never read). `server`: as is. */
export function wrapInModelTemplate(name: ChatTemplateName, taskPrompt: string): string {
  if (name === 'server') return taskPrompt;
  return RULER_MODEL_TEMPLATES[name].replace('{task_template}', () => taskPrompt);
}

/** The RULER model template a prompt is wrapped in (its text before and after {task_template}), the longest that
 *  fits; `base` when none does. What RULER's rows hold: prepare.py wraps every task template in one. */
export function modelTemplateAround(prompt: string): { name: RulerModelTemplate; head: string; tail: string } {
  let best: { name: RulerModelTemplate; head: string; tail: string } = { name: 'base', head: '', tail: '' };
  for (const name of Object.keys(RULER_MODEL_TEMPLATES) as RulerModelTemplate[]) {
    const [head, tail] = RULER_MODEL_TEMPLATES[name].split('{task_template}');
    const fits = prompt.length >= head.length + tail.length && prompt.startsWith(head) && prompt.endsWith(tail);
    if (fits && head.length + tail.length > best.head.length + best.tail.length) best = { name, head, tail };
  }
  return best;
}
