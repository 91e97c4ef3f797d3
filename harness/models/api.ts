// `--api chat|completions`: which OpenAI route a run's calls take. A method builds chat messages (or, for a protocol
// that sends raw text, a `prompt`); with --api completions every call goes to POST /completions with the prompt text
// exactly as built, no chat template applied by the server.
import type { ApiKind } from '../config/run-config.js';
import type { ChatMessage, Model, ModelRequest } from '../types.js';

export const API_KINDS: readonly ApiKind[] = ['chat', 'completions'];

/**
 * The text a completions call continues, from chat messages: their contents joined in order. One user message (every
 * method's calls) is its content as it is; a trailing assistant message (an answer prefix as prefill) is continued.
 */
export function promptOfMessages(messages: readonly ChatMessage[]): string {
  return messages.map((m) => m.content).join('');
}

/** The request as the chosen route takes it: for completions, with `prompt` set (kept when the method set one). */
export function requestFor(api: ApiKind, request: ModelRequest): ModelRequest {
  if (api === 'chat' || request.prompt !== undefined) return request;
  return { ...request, prompt: promptOfMessages(request.messages) };
}

/** A model whose calls take `api`'s route. Outermost, so the response cache keys on the prompt that is sent. */
export function withApi<M extends Model>(model: M, api: ApiKind): M {
  if (api === 'chat') return model;
  return { ...model, generate: (request, signal) => model.generate(requestFor(api, request), signal) };
}
