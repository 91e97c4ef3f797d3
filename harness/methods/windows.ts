import type { ContextSource, Tokenizer } from '../types.js';

/** Cuts a stream of token-id pieces into consecutive windows of `size` ids (the last one shorter); no overlap. */
export function* tokenWindows(pieces: Iterable<Uint32Array>, size: number): Generator<Uint32Array> {
  let buf = new Uint32Array(size);
  let fill = 0;
  for (const piece of pieces) {
    let at = 0;
    while (at < piece.length) {
      const take = Math.min(size - fill, piece.length - at);
      buf.set(piece.subarray(at, at + take), fill);
      fill += take;
      at += take;
      if (fill === size) {
        yield buf;
        buf = new Uint32Array(size);
        fill = 0;
      }
    }
  }
  if (fill > 0) yield buf.subarray(0, fill);
}

/** Skips the first `n` windows without materialising them (used when resuming a sample mid-way). */
export function* skipWindows(pieces: Iterable<Uint32Array>, size: number, n: number): Generator<Uint32Array> {
  let toSkip = n * size;
  function* trimmed(): Generator<Uint32Array> {
    for (const piece of pieces) {
      if (toSkip >= piece.length) {
        toSkip -= piece.length;
        continue;
      }
      yield toSkip > 0 ? piece.subarray(toSkip) : piece;
      toSkip = 0;
    }
  }
  yield* tokenWindows(trimmed(), size);
}

/** A window's token count and its text (the decode of its ids). */
export interface TextWindow {
  tokens: number;
  text: string;
}

/**
 * The windows of skipWindows(source.pieces(), size, skip), each as its token count and decoded text. A context that
 * has its pieces' texts (ContextSource.decodedPieces) is not decoded again: a piece wholly inside a window gives its
 * text, and only the pieces a window boundary cuts are decoded (their parts). The result is the same string: every
 * piece is complete UTF-8, so the only cuts inside a character are at the window's ends, in both ways of decoding.
 */
export function* windowTexts(
  source: ContextSource,
  size: number,
  skip: number,
  tokenizer: Pick<Tokenizer, 'decode'>,
): Generator<TextWindow> {
  if (!source.decodedPieces) {
    for (const w of skipWindows(source.pieces(), size, skip)) yield { tokens: w.length, text: tokenizer.decode(w) };
    return;
  }
  let toSkip = skip * size;
  // Concatenated with + (a rope, flattened once where it is read) rather than joined: no copy per window.
  let text = '';
  let fill = 0;
  for (const piece of source.decodedPieces()) {
    const ids = piece.ids;
    let at = 0;
    if (toSkip > 0) {
      at = Math.min(toSkip, ids.length);
      toSkip -= at;
    }
    while (at < ids.length) {
      const take = Math.min(size - fill, ids.length - at);
      text += at === 0 && take === ids.length ? piece.text : tokenizer.decode(ids.subarray(at, at + take));
      fill += take;
      at += take;
      if (fill === size) {
        yield { tokens: size, text };
        text = '';
        fill = 0;
      }
    }
  }
  if (fill > 0) yield { tokens: fill, text };
}
