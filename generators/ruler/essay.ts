// The Paul Graham essay haystack: words, sentence ends and the token ids of every word, cached per tokenizer.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { datasetPath } from '../../harness/paths.js';
import type { Tokenizer } from '../../harness/types.js';
import { sentenceEnds } from './sentences.js';

export interface EssayText {
  /** The essays' words after whitespace normalisation, in file-name order. */
  words: string[];
  /** Word indices that end a sentence in the repeated text (see sentences.ts). */
  ends: Uint32Array;
  files: string[];
  /** sha256 of the essay files concatenated (before whitespace normalisation). */
  sha256: string;
}

export interface EssayTokens extends EssayText {
  /** Ids of " w0 w1 … w(n-1)": every word with its leading space. */
  flat: Uint32Array;
  /** tokOff[i] = index in `flat` where word i starts; tokOff[n] = flat.length. */
  tokOff: Uint32Array;
  /** charOff[i] = offset of word i's leading space in " w0 w1 …"; charOff[n] = total length. */
  charOff: Float64Array;
  /** Ids of the first word without a leading space (the context's first word). */
  firstWordIds: Uint32Array;
}

let essayText: EssayText | undefined;

export function loadEssayText(): EssayText {
  if (essayText) return essayText;
  const dir = datasetPath('essays', 'paul_graham');
  // Byte order of the file names, so the haystack never depends on the platform's locale.
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.txt'))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  // RULER's download_paulgraham_essay.py: text += f.read() for each file, no separator, so the last word of one essay
  // and the first of the next fuse where a file ends without a newline ("this.October"); then re.sub(r'\s+', ' ').
  const raw = files.map((f) => readFileSync(`${dir}/${f}`, 'utf8')).join('');
  const words = raw.replace(/\s+/g, ' ').trim().split(' ');
  essayText = { words, ends: sentenceEnds(words), files, sha256: createHash('sha256').update(raw).digest('hex') };
  return essayText;
}

const byTokenizer = new WeakMap<Tokenizer, EssayTokens>();

/** Encodes every word once (" w"); checks that the pieces concatenate to the encoding of the joined text. */
export function essayTokens(tokenizer: Tokenizer): EssayTokens {
  const cached = byTokenizer.get(tokenizer);
  if (cached) return cached;
  const text = loadEssayText();
  const n = text.words.length;
  const parts: Uint32Array[] = new Array(n);
  const tokOff = new Uint32Array(n + 1);
  const charOff = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) {
    parts[i] = tokenizer.encode(' ' + text.words[i]);
    tokOff[i + 1] = tokOff[i] + parts[i].length;
    charOff[i + 1] = charOff[i] + 1 + text.words[i].length;
  }
  const flat = new Uint32Array(tokOff[n]);
  for (let i = 0; i < n; i++) flat.set(parts[i], tokOff[i]);
  const whole = tokenizer.encode(' ' + text.words.join(' '));
  if (!equalIds(whole, flat)) {
    throw new Error(
      `tokenizer ${tokenizer.id} merges tokens across word boundaries of the essay; the NIAH essay haystack cannot be streamed with it`,
    );
  }
  const result: EssayTokens = { ...text, flat, tokOff, charOff, firstWordIds: tokenizer.encode(text.words[0]) };
  byTokenizer.set(tokenizer, result);
  return result;
}

export function equalIds(a: Uint32Array, b: Uint32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
