// The `native` method: a task's own one-shot prompt as its upstream sends it. For RULER (its samples' nativeTemplate
// and answerPrefix): the task template with the context in place, wrapped in a model template from RULER's
// template.py (--chat-template), then the answer prefix, placed as --answer-prefix says: at the end of a raw
// completion prompt (RULER's vllm path), at the end of the user message, or as the start of the assistant message
// the model continues. The reply is the raw continuation, scored by the task's metric. No truncation: RULER sizes
// its prompts to the window, and the window preflight checks the run before it starts.
import { sampleDecoding, type DecodingOverride } from '../protocol/decoding.js';
import {
  ANSWER_PREFIX_PLACEMENTS,
  CHAT_TEMPLATE_NAMES,
  wrapInModelTemplate,
  type AnswerPrefixPlacement,
  type ChatTemplateName,
} from '../protocol/ruler-templates.js';
import type { Method, MethodContext, MethodOutput, ModelRequest, Sample } from '../types.js';
import { callModel, failedOutput } from './call.js';
import { GENERATION_OPTIONS, ONE_SHOT_ANSWER_TOKENS, samplingOf } from './options.js';
import { ANSWER_CALL } from './full-context.js';
import {
  PLAN_OVERHEAD_TOKENS,
  type MethodDefinition,
  type MethodOption,
  type PlannedCall,
  type PlanInput,
} from './registry.js';
import { fillTemplate, FULL_CONTEXT_PHRASE } from './templates.js';

export interface NativeSettings extends DecodingOverride {
  chatTemplate: ChatTemplateName;
  answerPrefix: AnswerPrefixPlacement;
}

export const CHAT_TEMPLATE = {
  flag: 'chat-template',
  type: 'choice',
  choices: CHAT_TEMPLATE_NAMES,
  default: 'base',
  help: "model template around the task's prompt: one of its upstream's (the ruler tasks: template.py), or server (the endpoint's own, through the chat API)",
} satisfies MethodOption & { choices: readonly ChatTemplateName[] };

export const ANSWER_PREFIX = {
  flag: 'answer-prefix',
  type: 'choice',
  choices: ANSWER_PREFIX_PLACEMENTS,
  default: 'completion',
  help: 'where the answer prefix goes: end of a raw completion prompt (/completions), end of the user message, or start of the assistant message the model continues',
} satisfies MethodOption & { choices: readonly AnswerPrefixPlacement[] };

/** The task's own prompt around the context, before any model template: its upstream's layout where it has one
 *  (RULER's), else its one-shot template (the same choice as `bench generate --format ruler`'s input). */
export function taskPrompt(sample: Sample): string {
  const template = sample.prompt?.nativeTemplate ?? sample.prompt?.fullContext ?? FULL_CONTEXT_PHRASE;
  return fillTemplate(template, { question: sample.question.trim(), context: sample.context.text() });
}

/** The request `native` sends for a sample: the wrapped prompt and its answer prefix, placed. */
export function nativeRequest(
  sample: Sample,
  settings: NativeSettings,
  prompt: string,
  params: ModelRequest['params'],
): ModelRequest {
  const wrapped = wrapInModelTemplate(settings.chatTemplate, prompt);
  const prefix = sample.prompt?.answerPrefix ?? '';
  switch (settings.answerPrefix) {
    case 'completion':
      return { messages: [{ role: 'user', content: wrapped + prefix }], prompt: wrapped + prefix, params };
    case 'user':
      return { messages: [{ role: 'user', content: wrapped + prefix }], params };
    case 'assistant-prefill':
      return {
        messages: [
          { role: 'user', content: wrapped },
          { role: 'assistant', content: prefix },
        ],
        continueFinal: true,
        params,
      };
  }
}

export function nativeMethod(settings: NativeSettings): Method {
  return {
    name: 'native',
    async run(sample: Sample, ctx: MethodContext): Promise<MethodOutput> {
      const extra = { chat_template: settings.chatTemplate, answer_prefix: settings.answerPrefix };
      const prompt = taskPrompt(sample);
      const { temperature, topP } = sampleDecoding(settings, sample);
      const maxTokens = sample.prompt?.maxNewTokens ?? ONE_SHOT_ANSWER_TOKENS;
      const request = nativeRequest(sample, settings, prompt, { maxTokens, temperature, topP });
      try {
        const res = await callModel(ctx, sample, 'native', 0, 'answer', request);
        // The raw continuation, as RULER's pred files hold it; its scorer post-processes it (evaluate.py).
        return { prediction: res.text, rawOutput: res.text, status: 'ok', calls: 1, usage: res.usage, extra };
      } catch (err) {
        return failedOutput(err, 1, { promptTokens: 0, completionTokens: 0 }, extra);
      }
    },
  };
}

/** One call: the whole context plus the template and question, and the task's tokens_to_generate. */
export function nativePlan(sample: PlanInput): PlannedCall[] {
  return [
    {
      kind: ANSWER_CALL,
      contextTokens: sample.contextTokens,
      promptTokensMax: sample.contextTokens + PLAN_OVERHEAD_TOKENS,
      maxNewTokens: sample.maxNewTokens ?? ONE_SHOT_ANSWER_TOKENS,
    },
  ];
}

export const native: MethodDefinition<NativeSettings> = {
  name: 'native',
  description:
    "the task's own upstream prompt in one call: model template, task template with the context, answer prefix",
  options: [
    CHAT_TEMPLATE,
    ANSWER_PREFIX,
    ...GENERATION_OPTIONS.filter((o) => o.flag === 'temperature' || o.flag === 'top-p'),
  ],
  templates: [],
  calls: [ANSWER_CALL],
  settings: (read) => ({
    chatTemplate: read.choice(CHAT_TEMPLATE),
    answerPrefix: read.choice(ANSWER_PREFIX),
    ...samplingOf(read),
  }),
  create: nativeMethod,
  plan: nativePlan,
};
