// Request builder for POST /completions (text completion): the prompt text as given, no chat template applied.
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

/** The text a request completes: its `prompt`. */
export function promptText(request: ModelRequest): string {
  if (request.prompt === undefined) throw new Error('a text completion needs request.prompt');
  return request.prompt;
}

export function textCompletionBody(request: ModelRequest, settings: WireSettings): Record<string, unknown> {
  return {
    ...settings.extraBody,
    model: settings.modelName,
    prompt: promptText(request),
    // The legacy completions API knows only max_tokens.
    ...samplingFields(request.params, 'max_tokens'),
  };
}

/** A 200 body as a text completion: choices[0].text. */
export function readTextCompletion(text: string): WireAnswer {
  const body = parseChoices(text);
  const out = body.choices[0]?.text;
  if (out !== undefined && out !== null && typeof out !== 'string') throw malformed('choices[0].text is not text');
  return answerOf(body, out ?? '');
}

export function textWire(settings: WireSettings): WireFormat {
  return {
    route: '/completions',
    answer: 'a text completion',
    promptChars: (request) => promptText(request).length,
    body: (request) => textCompletionBody(request, settings),
    send: (client: OpenAI, body, options) =>
      client.completions.create(body as unknown as OpenAI.CompletionCreateParamsNonStreaming, options).asResponse(),
    read: readTextCompletion,
  };
}
