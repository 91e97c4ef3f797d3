// Contexts of vt, cwe, fwe and qa as sequences of short segments (a line, a numbered word, a coded word, a
// document), each with cached token ids. Every segment starts at a pre-tokenizer boundary, so the context's ids are
// the segments' ids in order and a 512K-token context is streamed without being materialised; the tasks' codecs check
// that on real encodes when they are built, and the tests compare the streamed ids with encode(context.text()).
import type { Tokenizer } from '../../harness/types.js';
import { IdBatcher, TextBatcher, type StreamingContext } from './context.js';
import type { SeamCounter } from './sizing.js';

/** Segment i's ids and text, apart (streaming the ids builds no text); both pure functions of i, called once per
 *  pass. */
export interface Segments {
  ids(i: number): Uint32Array;
  text(i: number): string;
}

/** A context of `count` segments. */
export function segmentContext(count: number, segments: Segments, tokenCount: number): StreamingContext {
  return {
    tokenCount,
    *pieces() {
      const batch = new IdBatcher(8192);
      for (let i = 0; i < count; i++) {
        const out = batch.add(segments.ids(i));
        if (out) yield out;
      }
      const rest = batch.take();
      if (rest) yield rest;
    },
    *textPieces() {
      const batch = new TextBatcher(65536);
      for (let i = 0; i < count; i++) {
        const out = batch.add(segments.text(i));
        if (out) yield out;
      }
      const rest = batch.take();
      if (rest) yield rest;
    },
    text() {
      return Array.from(this.textPieces()).join('');
    },
  };
}

/** The one-shot prompt around the context: the template split at its {context} slot, the answer prefix appended. */
export interface ContextFrame {
  before: string;
  after: string;
}

export function frameOf(template: string, answerPrefix: string): ContextFrame {
  const at = template.indexOf('{context}');
  if (at < 0 || template.indexOf('{context}', at + 1) >= 0)
    throw new Error('a RULER template needs exactly one {context} slot');
  return { before: template.slice(0, at), after: template.slice(at + '{context}'.length) + answerPrefix };
}

/**
 * Tokens of before + context + after, from the context's own count and the two seams: `head` and `tail` are the
 * context's first and last few characters, ending or starting at a pre-tokenizer boundary.
 */
export function framedTokens(
  seams: SeamCounter,
  frame: ContextFrame,
  contextTokens: number,
  head: string,
  tail: string,
): number {
  return (
    seams.count(frame.before) +
    contextTokens +
    seams.count(frame.after) +
    seams.seam(frame.before, head) +
    seams.seam(tail, frame.after)
  );
}

/** Ids of short strings, encoded once (cwe's numbers, fwe's words, vt's statements). */
export class IdMemo {
  private readonly memo = new Map<string, Uint32Array>();
  constructor(
    private readonly tokenizer: Tokenizer,
    private readonly limit = 200_000,
  ) {}
  encode(text: string): Uint32Array {
    let ids = this.memo.get(text);
    if (!ids) {
      if (this.memo.size >= this.limit) this.memo.clear();
      ids = this.tokenizer.encode(text);
      this.memo.set(text, ids);
    }
    return ids;
  }
}

/** Throws unless the streamed ids of a context equal the encoding of its text (a codec's start-up check). */
export function checkStreams(tokenizer: Tokenizer, context: StreamingContext, what: string): void {
  const text = context.text();
  const want = tokenizer.encode(text);
  let at = 0;
  let same = true;
  for (const piece of context.pieces()) {
    for (let k = 0; k < piece.length && same; k++) same = want[at + k] === piece[k];
    at += piece.length;
  }
  if (!same || at !== want.length || context.tokenCount !== want.length)
    throw new Error(
      `tokenizer ${tokenizer.id} merges tokens across the segments of a ${what} context; it cannot be streamed with it`,
    );
}
