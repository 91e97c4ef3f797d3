// Where each vocabulary's data comes from, and how it is read.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { packageRoot } from '../paths.js';

export interface VocabData {
  /** Encoding name: 'qwen2.5', 'o200k_base' or 'cl100k_base'. */
  name: string;
  /** Where the data came from (package, version, file). */
  source: string;
  /** sha256 of the data file as stored on disk. */
  sha256: string;
  /** Path of the data file. */
  path: string;
  patStr: string;
  specialTokens: Record<string, number>;
  /** tiktoken's rank text. */
  bpeRanks: string;
  /** Qwen's tokenizer.json applies NFC before splitting; tiktoken's encodings do not normalise. */
  nfc: boolean;
}

interface RankFile {
  pat_str: string;
  special_tokens: Record<string, number>;
  bpe_ranks: string;
  source?: string;
}

export const QWEN_DATA_FILE = 'datasets/tokenizers/qwen2.5.tiktoken.json.gz';

function sha256(buf: Buffer): string {
  return createHash('sha256').update(buf).digest('hex');
}

function fromFile(name: string, path: string, raw: Buffer, json: RankFile, source: string, nfc: boolean): VocabData {
  return {
    name,
    source,
    sha256: sha256(raw),
    path,
    patStr: json.pat_str,
    specialTokens: json.special_tokens,
    bpeRanks: json.bpe_ranks,
    nfc,
  };
}

export function loadQwenVocab(): VocabData {
  const path = join(packageRoot(), QWEN_DATA_FILE);
  const raw = readFileSync(path);
  const json = JSON.parse(gunzipSync(raw).toString('utf8')) as RankFile;
  return fromFile('qwen2.5', path, raw, json, json.source ?? 'Qwen2.5 tokenizer.json', true);
}

export function loadTiktokenVocab(name: 'o200k_base' | 'cl100k_base'): VocabData {
  const require = createRequire(import.meta.url);
  const path = require.resolve(`tiktoken/encoders/${name}.json`);
  // tiktoken's exports map hides its package.json; it sits one folder above encoders/.
  const manifest = JSON.parse(readFileSync(join(dirname(path), '..', 'package.json'), 'utf8')) as { version: string };
  const version = manifest.version;
  const raw = readFileSync(path);
  const json = JSON.parse(raw.toString('utf8')) as RankFile;
  return fromFile(name, path, raw, json, `tiktoken@${version} encoders/${name}.json`, false);
}
