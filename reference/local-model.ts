import { ModelCallError } from '../harness/errors.js';
import type { Model, ModelRequest, ModelResponse, Tokenizer } from '../harness/types.js';
import { LineCountCache } from '../harness/tokenizer/line-count.js';
import type { ReaderSkill } from '../harness/reader-skill.js';
import { builtinReaderSkills } from './builtin-reader.js';
import { messagesToRead } from './continue-final.js';
import { READER_ID, createReferenceReader } from './reader/index.js';

/**
 * The embedded default model: the deterministic lexical reference reader (not an LLM), behind the same Model
 * interface as any endpoint. It sees only the chat messages. Replies are cut to max_tokens exactly in the run's
 * tokenizer; usage counts completion tokens exactly and takes the caller's prompt count when given. It knows the
 * families' prompts through readerSkills: the catalog's (cli/worker-setup.ts), by default the built-in families'.
 */
export function createLocalModel(
  tokenizer: Tokenizer,
  opts: { maxContext?: number; readerSkills?: readonly ReaderSkill[] } = {},
): Model {
  const lines = new LineCountCache(tokenizer);
  const referenceReply = createReferenceReader(opts.readerSkills ?? builtinReaderSkills());
  return {
    id: `local:${READER_ID}`,
    isReferenceReader: true,
    async generate(request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse> {
      // Let timers, signals and messages run between calls: run in-process (--workers 1, one CPU), the reader's
      // synchronous work otherwise starves the event loop, and Ctrl-C would wait for the whole run to end.
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (signal?.aborted) throw new ModelCallError('request aborted', 'transient');
      const started = performance.now();
      const promptTokens =
        request.promptTokensHint ?? request.messages.reduce((n, m) => n + tokenizer.count(m.content), 0);
      if (opts.maxContext !== undefined && promptTokens > opts.maxContext) {
        throw new ModelCallError(
          `prompt of ${promptTokens} tokens exceeds the maximum context length of ${opts.maxContext}`,
          'context-length',
          400,
        );
      }
      let text = referenceReply(messagesToRead(request), request.params.maxTokens);
      let finishReason = 'stop';
      // Memories repeat line by line between calls: count from cached line counts, encode only to cut.
      let completionTokens = lines.count(text);
      if (completionTokens > request.params.maxTokens) {
        text = tokenizer.decode(tokenizer.encode(text).subarray(0, request.params.maxTokens));
        completionTokens = request.params.maxTokens;
        finishReason = 'length';
      }
      return {
        text,
        usage: { promptTokens, completionTokens },
        latencyMs: Math.round((performance.now() - started) * 1000) / 1000,
        finishReason,
        cached: false,
        retries: 0,
      };
    },
  };
}
