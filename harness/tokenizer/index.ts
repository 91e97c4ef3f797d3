// Tokenizers by name: exact Qwen2.5 ids (the paper's models) and tiktoken's OpenAI encodings.
import { UserError } from '../errors.js';
import type { Tokenizer } from '../types.js';
import { BpeTokenizer } from './bpe-tokenizer.js';
import { loadQwenVocab, loadTiktokenVocab, type VocabData } from './vocab.js';

export const TOKENIZER_NAMES = ['qwen2.5', 'o200k_base', 'cl100k_base', 'gpt-4o'] as const;
export type TokenizerName = (typeof TOKENIZER_NAMES)[number];
export const DEFAULT_TOKENIZER: TokenizerName = 'qwen2.5';

/** MemAgent's driver counts GPT, Claude and Gemini contexts with gpt-4o's encoding. */
const ALIASES: Partial<Record<TokenizerName, TokenizerName>> = { 'gpt-4o': 'o200k_base' };

export interface TokenizerInfo {
  /** The encoding's id, as Tokenizer.id (an alias resolves to its encoding). */
  id: string;
  /** Where the vocabulary came from. */
  source: string;
  /** sha256 of the vocabulary file. */
  sha256: string;
}

const cache = new Map<string, BpeTokenizer>();

function canonical(name: string): TokenizerName {
  if (!(TOKENIZER_NAMES as readonly string[]).includes(name)) {
    throw new UserError(`unknown tokenizer '${name}': use one of ${TOKENIZER_NAMES.join(', ')}`);
  }
  const known = name as TokenizerName;
  return ALIASES[known] ?? known;
}

function loadVocab(name: TokenizerName): VocabData {
  return name === 'qwen2.5'
    ? loadQwenVocab()
    : loadTiktokenVocab(name === 'cl100k_base' ? 'cl100k_base' : 'o200k_base');
}

function load(name: string): BpeTokenizer {
  const key = canonical(name);
  let tok = cache.get(key);
  if (!tok) {
    tok = new BpeTokenizer(loadVocab(key));
    cache.set(key, tok);
  }
  return tok;
}

/** The tokenizer for a name in TOKENIZER_NAMES; one shared instance per encoding, kept for the process's life. */
export function loadTokenizer(name: string = DEFAULT_TOKENIZER): Tokenizer {
  return load(name);
}

/** What a run manifest records about a tokenizer. */
export function tokenizerInfo(name: string = DEFAULT_TOKENIZER): TokenizerInfo {
  const { vocab } = load(name);
  return { id: vocab.name, source: vocab.source, sha256: vocab.sha256 };
}
