// Wraps a pure reply function as a Model, for serving or testing before/without the tokenizer-backed local model.
import type { ChatMessage, Model, ModelRequest, ModelResponse } from '../../harness/types.js';

export type ReplyFn = (messages: ChatMessage[], maxTokens: number) => string;

export interface ReplyModelOptions {
  id?: string;
  isReferenceReader?: boolean;
  /** Token counter for usage and max_tokens truncation. Default: whitespace-separated words (an approximation). */
  countTokens?: (text: string) => number;
  /** Cuts text to at most n tokens. Default: the first n whitespace-separated words. */
  truncate?: (text: string, n: number) => string;
}

const countWords = (text: string): number => text.match(/\S+/g)?.length ?? 0;
const firstWords = (text: string, n: number): string => (text.match(/\S+\s*/g) ?? []).slice(0, n).join('').trimEnd();

export function modelFromReply(reply: ReplyFn, options: ReplyModelOptions = {}): Model {
  const count = options.countTokens ?? countWords;
  const truncate = options.truncate ?? firstWords;
  return {
    id: options.id ?? 'local:reply-fn',
    isReferenceReader: options.isReferenceReader ?? false,
    async generate(request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse> {
      signal?.throwIfAborted();
      const started = performance.now();
      const { messages, params } = request;
      let text = reply(messages, params.maxTokens);
      let finishReason = 'stop';
      let stopped = false;
      for (const s of params.stop ?? []) {
        const at = s ? text.indexOf(s) : -1;
        if (at >= 0) {
          text = text.slice(0, at);
          stopped = true;
        }
      }
      if (count(text) > params.maxTokens) {
        text = truncate(text, params.maxTokens);
        finishReason = 'length';
      } else if (stopped) finishReason = 'stop';
      const promptTokens = messages.reduce((s, m) => s + count(m.content), 0);
      return {
        text,
        usage: { promptTokens, completionTokens: count(text) },
        latencyMs: performance.now() - started,
        finishReason,
        cached: false,
        retries: 0,
      };
    },
  };
}
