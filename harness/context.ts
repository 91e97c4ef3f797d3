import type { ContextSource, Tokenizer } from './types.js';

/** A context given as text: encoded once, lazily. */
export function textContext(text: string, tokenizer: Tokenizer): ContextSource {
  let ids: Uint32Array | undefined;
  const get = () => (ids ??= tokenizer.encode(text));
  return {
    get tokenCount() {
      return get().length;
    },
    *pieces() {
      yield get();
    },
    text: () => text,
  };
}

/** A context assembled from pieces of token ids whose concatenation equals the encoding of the joined text. */
export function piecesContext(
  tokenCount: number,
  pieces: () => Iterable<Uint32Array>,
  tokenizer: Tokenizer,
): ContextSource {
  return {
    tokenCount,
    pieces,
    text() {
      const parts: string[] = [];
      for (const p of pieces()) parts.push(tokenizer.decode(p));
      return parts.join('');
    },
  };
}
