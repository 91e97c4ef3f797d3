import type { Tokenizer } from '../../harness/types.js';
import { type HotpotData, renderParagraph } from '../../datasets/hotpotqa/load.js';

/** Separator between documents; encoded together with the paragraph before it (".\n\n" is one Qwen token). */
export const DOC_SEPARATOR = '\n\n';

/**
 * MemAgent's paragraph pool: every paragraph of the data rendered as title + newline + sentences, deduplicated and
 * sorted by code point (Python's order), each tokenized once with the separator attached.
 */
export interface ParagraphPool {
  texts: string[];
  /** Token ids of `text + "\n\n"`. */
  ids: Uint32Array[];
  /** Token counts of `text + "\n\n"`. */
  counts: Int32Array;
  indexOf: Map<string, number>;
  totalTokens: number;
}

export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates (astral code points) sort after the rest of the BMP in code point order.
    const sx = x >= 0xd800 && x <= 0xdfff ? x + 0x10000 : x;
    const sy = y >= 0xd800 && y <= 0xdfff ? y + 0x10000 : y;
    return sx - sy;
  }
  return a.length - b.length;
}

const pools = new Map<string, ParagraphPool>();

export function buildPool(data: HotpotData, tokenizer: Tokenizer): ParagraphPool {
  const key = `${data.sha256}|${tokenizer.id}`;
  const hit = pools.get(key);
  if (hit) return hit;
  const unique = new Set<string>();
  for (const r of data.records) for (const [title, sentences] of r.paragraphs) unique.add(renderParagraph(title, sentences));
  const texts = [...unique].sort(compareCodePoints);
  const ids: Uint32Array[] = new Array(texts.length);
  const counts = new Int32Array(texts.length);
  const indexOf = new Map<string, number>();
  let totalTokens = 0;
  for (let i = 0; i < texts.length; i++) {
    ids[i] = tokenizer.encode(texts[i] + DOC_SEPARATOR);
    counts[i] = ids[i].length;
    totalTokens += counts[i];
    indexOf.set(texts[i], i);
  }
  const pool = { texts, ids, counts, indexOf, totalTokens };
  pools.set(key, pool);
  return pool;
}
