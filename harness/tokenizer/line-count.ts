import type { Tokenizer } from '../types.js';
import { detached } from '../util/detached.js';

/**
 * Exact token counts of texts made of recurring lines (MemAgent memories), from cached per-line counts.
 * Qwen's and tiktoken's pre-tokenizers never put a newline and a following non-space character in one piece, so
 * the text splits there into independently tokenized segments: the count of the whole equals the sum of the
 * segments' counts (tests/harness/tokenizer/line-count.test.ts proves it on real and adversarial text).
 */
export class LineCountCache {
  // Two generations: when the current one fills, it becomes the previous one, whose lines are moved back on use. A
  // memory's lines thus survive a turnover, where emptying one map would count them all again.
  private current = new Map<string, number>();
  private previous = new Map<string, number>();
  constructor(
    private tokenizer: Tokenizer,
    private maxEntries = 50_000,
  ) {}

  count(text: string): number {
    let total = 0;
    let start = 0;
    for (let i = 0; i < text.length - 1; i++) {
      if (text.charCodeAt(i) === 10 && !isSpace(text.charCodeAt(i + 1))) {
        total += this.segment(text.slice(start, i + 1));
        start = i + 1;
      }
    }
    return total + (start < text.length ? this.segment(text.slice(start)) : 0);
  }

  private segment(s: string): number {
    let n = this.current.get(s);
    if (n === undefined) {
      n = this.previous.get(s) ?? this.tokenizer.count(s);
      if (this.current.size >= this.maxEntries) {
        this.previous = this.current;
        this.current = new Map();
      }
      // A copy: the segment is a slice of its text (a whole memory), which the key would otherwise keep alive.
      this.current.set(detached(s), n);
    }
    return n;
  }
}

/** Conservative: anything that might be whitespace (or a combining mark / surrogate) is not a split point. */
function isSpace(c: number): boolean {
  if (c > 0x7f) return true;
  return c === 32 || (c >= 9 && c <= 13);
}
