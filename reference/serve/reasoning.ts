// `bench serve --reasoning MODE`: answers as a reasoning model would, around the reader's answer, so the harness's
// handling of thinking can be tested over HTTP. The thinking is one fixed sentence (deterministic); it takes tokens
// from max_tokens first, as a real model's does: a budget that ends inside it returns only part of it, cut
// (finish_reason "length"). A request that continues thinking already closed (an assistant message or prompt
// holding `</think>`, as --thinking-budget's second request does) gets the answer only.
//   field     chat: the thinking in message.reasoning_content, the answer in content (vLLM's reasoning parser);
//             text completions, which have no such field: as inline
//   inline    `<think>\n…\n</think>\n\n` before the answer
//   unclosed  `<think>\n…` then the answer, never closed (a model that ran out of budget or never closes)
import type { ChatMessage, ModelRequest, ModelResponse } from '../../harness/types.js';

export const REASONING_MODES = ['field', 'inline', 'unclosed'] as const;
export type ReasoningMode = (typeof REASONING_MODES)[number];

/** What the served model "thinks" before every answer. */
export const SERVED_THOUGHT =
  'Okay, let me think. I will look through the text for what the question asks about, then answer briefly.';

const CLOSE = '</think>';

/** The request as the reader sees it: without a continued thinking turn, and whether thinking was already closed. */
export function withoutContinuation(request: ModelRequest): { request: ModelRequest; thought: boolean } {
  const last = request.messages[request.messages.length - 1];
  if (request.prompt === undefined && last?.role === 'assistant' && last.content.includes(CLOSE))
    return { request: { ...request, messages: request.messages.slice(0, -1) }, thought: true };
  if (request.prompt !== undefined && request.prompt.includes(CLOSE)) {
    const prompt = request.prompt.slice(0, request.prompt.lastIndexOf('<think>'));
    const messages: ChatMessage[] = [{ role: 'user', content: prompt }];
    return { request: { ...request, prompt, messages }, thought: true };
  }
  return { request, thought: false };
}

/**
 * The reader's response as a reasoning model's: the thinking first, within max_tokens (counted by `count`, cut by
 * `cut`), then as much of the answer as the rest allows.
 */
export function asReasoningReply(
  response: ModelResponse,
  mode: ReasoningMode,
  route: 'chat' | 'completions',
  maxTokens: number,
  count: (text: string) => number,
  cut: (text: string, tokens: number) => string,
): ModelResponse {
  const split = mode === 'field' && route === 'chat';
  const open = split ? '' : '<think>\n';
  const close = mode === 'unclosed' ? ' ' : split ? '' : `\n${CLOSE}\n\n`;
  const thinking = `${open}${SERVED_THOUGHT}${close}`;
  const thinkingTokens = count(thinking);
  if (thinkingTokens >= maxTokens) {
    const part = cut(thinking, maxTokens);
    return {
      ...response,
      text: split ? '' : part,
      ...(split ? { reasoning: part } : {}),
      usage: { ...response.usage, completionTokens: maxTokens },
      finishReason: 'length',
    };
  }
  let answer = response.text;
  let finishReason = response.finishReason;
  const room = maxTokens - thinkingTokens;
  if (count(answer) > room) {
    answer = cut(answer, room);
    finishReason = 'length';
  }
  return {
    ...response,
    text: split ? answer : thinking + answer,
    ...(split ? { reasoning: thinking } : {}),
    usage: { ...response.usage, completionTokens: thinkingTokens + count(answer) },
    finishReason,
  };
}
