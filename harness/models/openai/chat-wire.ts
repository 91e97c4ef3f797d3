// Request builder for POST /chat/completions: chat messages in; text, usage and finish reason out.
import type OpenAI from 'openai';
import type { ModelRequest } from '../../types.js';
import {
  answerOf,
  malformed,
  parseChoices,
  samplingFields,
  type WireAnswer,
  type WireFormat,
  type WireSettings,
} from './wire.js';

export function chatCompletionBody(request: ModelRequest, settings: WireSettings): Record<string, unknown> {
  return {
    ...settings.extraBody,
    model: settings.modelName,
    messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
    ...samplingFields(request.params, settings.maxTokensField ?? 'max_tokens'),
    // vLLM / SGLang: continue the last (assistant) message instead of opening a new assistant turn.
    ...(request.continueFinal ? { continue_final_message: true, add_generation_prompt: false } : {}),
  };
}

/** A 200 body as a chat completion (see parseChoices for what is refused and how). */
export function readChatCompletion(text: string): WireAnswer {
  const body = parseChoices(text);
  const message = body.choices[0]?.message as
    { content?: unknown; reasoning_content?: unknown; reasoning?: unknown } | undefined;
  const content = message?.content;
  if (content !== undefined && content !== null && typeof content !== 'string')
    throw malformed('message.content is not text');
  // vLLM's reasoning parsers send the thinking apart: reasoning_content (older), reasoning (newer).
  const split = message?.reasoning_content ?? message?.reasoning;
  return answerOf(body, content ?? '', typeof split === 'string' ? split : undefined);
}

export function chatWire(settings: WireSettings): WireFormat {
  return {
    route: '/chat/completions',
    answer: 'a chat completion',
    promptChars: (request) => request.messages.reduce((s, m) => s + m.content.length, 0),
    body: (request) => chatCompletionBody(request, settings),
    send: (client: OpenAI, body, options) =>
      client.chat.completions
        .create(body as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming, options)
        .asResponse(),
    read: readChatCompletion,
  };
}
