// Shared fixtures for server and client tests: a trivial deterministic reply model and request builders.
import type { ChatMessage, ModelRequest } from '../../../harness/types.js';
import { modelFromReply } from '../../../reference/serve/reply-model.js';

/** Replies with the last message's words in reverse order, prefixed, so every prompt has its own answer. */
export function echoReply(messages: ChatMessage[]): string {
  const words = messages[messages.length - 1].content.split(/\s+/).filter(Boolean);
  return `Therefore, the answer is ${words.reverse().slice(0, 12).join(' ')}`;
}

export const echoModel = () => modelFromReply(echoReply, { id: 'local:echo' });

export function request(content: string, maxTokens = 64): ModelRequest {
  return { messages: [{ role: 'user', content }], params: { maxTokens, temperature: 0.7, topP: 0.95 } };
}

export function promptFor(i: number): string {
  return `Question ${i}: which city hosts item ${i * 7} near marker m${i % 13}? context word${i} alpha${i % 5}`;
}
