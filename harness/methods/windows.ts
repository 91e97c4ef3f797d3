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
