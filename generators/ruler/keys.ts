// Needle keys and values: `{adjective}-{noun}` words, 7-digit numbers, uuid4 strings.
import { readFileSync } from 'node:fs';
import { datasetPath } from '../../harness/paths.js';
import { type Rng, uuid4 } from '../../harness/util/rng.js';

export interface WordLists {
  adjectives: string[];
  nouns: string[];
}

let lists: WordLists | undefined;

export function loadWordLists(): WordLists {
  if (lists) return lists;
  const read = (f: string) => JSON.parse(readFileSync(datasetPath('words', f), 'utf8')) as string[];
  lists = { adjectives: read('adjectives.json'), nouns: read('nouns.json') };
  return lists;
}

/** A words key as list indices, so token ids can be looked up per part. */
export interface WordKey {
  adjective: number;
  noun: number;
}

export function drawWordKey(rng: Rng, words: WordLists): WordKey {
  return { adjective: rng.below(words.adjectives.length), noun: rng.below(words.nouns.length) };
}

export function wordKeyText(key: WordKey, words: WordLists): string {
  return `${words.adjectives[key.adjective]}-${words.nouns[key.noun]}`;
}

export function drawKey(rng: Rng, kind: 'words' | 'uuids', words: WordLists): string {
  return kind === 'words' ? wordKeyText(drawWordKey(rng, words), words) : uuid4(rng);
}

/** numbers: 7-digit integers 1000000–9999999; uuids: uuid4. */
export function drawValue(rng: Rng, kind: 'numbers' | 'uuids'): string {
  return kind === 'numbers' ? String(rng.int(1_000_000, 9_999_999)) : uuid4(rng);
}

/** `count` distinct keys. */
export function drawDistinctKeys(rng: Rng, kind: 'words' | 'uuids', words: WordLists, count: number): string[] {
  const out: string[] = [];
  for (let guard = 0; out.length < count; guard++) {
    if (guard > 1000 * count) throw new Error('could not draw distinct needle keys');
    const key = drawKey(rng, kind, words);
    if (!out.includes(key)) out.push(key);
  }
  return out;
}
