import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { poolCacheDir } from '../../harness/cache/cache-root.js';
import { writeFileAtomic } from '../../harness/run-dir/atomic-write.js';
import { roundTrips } from '../../harness/tokenizer/round-trip.js';
import type { Tokenizer } from '../../harness/types.js';
import { type HotpotData, renderParagraph } from './hotpotqa.js';

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
  /** Exactly what decoding `ids[i]` gives: `texts[i] + "\n\n"`, decoded only where that text would not round-trip. */
  pieceText(i: number): string;
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
  return poolFromTexts(
    data.sha256,
    () => {
      const unique = new Set<string>();
      for (const r of data.records)
        for (const [title, sentences] of r.paragraphs) unique.add(renderParagraph(title, sentences));
      return [...unique].sort(compareCodePoints);
    },
    tokenizer,
  );
}

/**
 * The pool of a HotpotQA file whose paragraphs are already rendered, deduplicated and sorted (`texts`, called only on
 * a miss), tokenized once per (file sha256, tokenizer) and cached in memory and on disk like buildPool's.
 */
export function poolFromTexts(sha256: string, textsOf: () => string[], tokenizer: Tokenizer): ParagraphPool {
  const key = `${sha256}|${tokenizer.id}`;
  const hit = pools.get(key);
  if (hit) return hit;
  const texts = textsOf();
  const cacheFile = join(cacheDir(), `hotpot-${sha256.slice(0, 16)}-${tokenizer.id}-v${POOL_CACHE_VERSION}.bin`);
  const ids = loadCachedIds(cacheFile, texts, tokenizer) ?? texts.map((t) => tokenizer.encode(t + DOC_SEPARATOR));
  if (!existsSync(cacheFile)) saveCachedIds(cacheFile, ids);
  const counts = new Int32Array(texts.length);
  const indexOf = new Map<string, number>();
  let totalTokens = 0;
  for (let i = 0; i < texts.length; i++) {
    counts[i] = ids[i].length;
    totalTokens += counts[i];
    indexOf.set(texts[i], i);
  }
  // Kept once made: every window of every sample that holds a paragraph takes its text from here.
  const pieceTexts: (string | undefined)[] = new Array(texts.length);
  const pieceText = (i: number): string =>
    (pieceTexts[i] ??= roundTrips(texts[i]) ? texts[i] + DOC_SEPARATOR : tokenizer.decode(ids[i]));
  const pool = { texts, ids, counts, indexOf, totalTokens, pieceText };
  pools.set(key, pool);
  return pool;
}

const POOL_CACHE_VERSION = 1;

/** Where tokenized pools are kept between runs: $BENCH_CACHE_DIR or ./.bench-cache (harness/cache/cache-root.ts). */
export function cacheDir(): string {
  return poolCacheDir();
}

/** Layout: u32 count, count × u32 lengths, then all ids. Spot-checked against fresh encodes; any doubt → rebuild. */
function loadCachedIds(file: string, texts: string[], tokenizer: Tokenizer): Uint32Array[] | undefined {
  try {
    if (!existsSync(file)) return undefined;
    const buf = readFileSync(file);
    const all = new Uint32Array(buf.buffer, buf.byteOffset, buf.byteLength >> 2);
    if (all[0] !== texts.length) return undefined;
    const out: Uint32Array[] = new Array(texts.length);
    let at = 1 + texts.length;
    for (let i = 0; i < texts.length; i++) {
      const n = all[1 + i];
      if (at + n > all.length) return undefined;
      out[i] = all.subarray(at, at + n);
      at += n;
    }
    if (at !== all.length) return undefined;
    for (const i of [0, texts.length >> 1, texts.length - 1]) {
      const fresh = tokenizer.encode(texts[i] + DOC_SEPARATOR);
      if (fresh.length !== out[i].length || fresh.some((x, k) => x !== out[i][k])) return undefined;
    }
    return out;
  } catch {
    return undefined;
  }
}

function saveCachedIds(file: string, ids: Uint32Array[]): void {
  try {
    writeIdsFile(file, idsFileBytes(ids));
  } catch {
    // a cache that cannot be written only costs time
  }
}

/** The ids cache layout: u32 count, count × u32 lengths, then all ids. */
export function idsFileBytes(ids: readonly Uint32Array[]): Uint32Array {
  const total = ids.reduce((n, x) => n + x.length, 0);
  const all = new Uint32Array(1 + ids.length + total);
  all[0] = ids.length;
  let at = 1 + ids.length;
  ids.forEach((x, i) => {
    all[1 + i] = x.length;
    all.set(x, at);
    at += x.length;
  });
  return all;
}

/** Writes a cache file atomically, creating its folder; throws when it cannot. */
export function writeIdsFile(file: string, data: NodeJS.ArrayBufferView): void {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileAtomic(file, data);
}
