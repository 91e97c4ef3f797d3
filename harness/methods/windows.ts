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

/** One window of a context: its token count and its text, as decoding its ids gives it. */
export interface WindowText {
  tokens: number;
  text: string;
}

/**
 * The windows of skipWindows(context.pieces(), size, skip), each with its text. Where the context knows its pieces'
 * texts, a window takes whole pieces' texts as they are and decodes only the pieces it cuts: decoding is per byte,
 * and every piece ends on a character boundary, so the concatenation equals decoding the window's ids at once.
 */
export function* windowTexts(
  context: ContextSource,
  size: number,
  skip: number,
  tokenizer: Pick<Tokenizer, 'decode'>,
): Generator<WindowText> {
  if (context.pieceTexts === undefined) {
    for (const w of skipWindows(context.pieces(), size, skip)) yield { tokens: w.length, text: tokenizer.decode(w) };
    return;
  }
  const texts = context.pieceTexts()[Symbol.iterator]();
  let toSkip = skip * size;
  // Appended piece by piece: V8 keeps the window as a rope and copies it once, where the prompt is built from it.
  let text = '';
  let fill = 0;
  for (const piece of context.pieces()) {
    const next = texts.next();
    if (next.done) throw new Error('a context has fewer piece texts than pieces');
    let at = 0;
    if (toSkip > 0) {
      if (toSkip >= piece.length) {
        toSkip -= piece.length;
        continue;
      }
      at = toSkip;
      toSkip = 0;
    }
    while (at < piece.length) {
      const take = Math.min(size - fill, piece.length - at);
      text += at === 0 && take === piece.length ? next.value : tokenizer.decode(piece.subarray(at, at + take));
      fill += take;
      at += take;
      if (fill === size) {
        yield { tokens: fill, text };
        text = '';
        fill = 0;
      }
    }
  }
  if (fill > 0) yield { tokens: fill, text };
}
