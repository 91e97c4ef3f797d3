// BABILong's background text: public-domain books (BABILong draws from PG19, Project Gutenberg books before 1919).
// We bundle two Project Gutenberg books, their licence header and footer removed (datasets/babilong/README.md), split
// into sentences once per process.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { datasetPath } from '../../harness/paths.js';
import { decodeTextBytes } from '../../harness/text-file.js';

export interface Book {
  /** Stable name, recorded in the manifest. */
  name: string;
  title: string;
  author: string;
  /** Project Gutenberg eBook number. */
  ebook: number;
  file: string;
}

export const BOOKS: readonly Book[] = [
  { name: 'moby-dick', title: 'Moby Dick; Or, The Whale', author: 'Herman Melville', ebook: 2701, file: 'moby-dick.txt.gz' },
  { name: 'pride-and-prejudice', title: 'Pride and Prejudice', author: 'Jane Austen', ebook: 1342, file: 'pride-and-prejudice.txt.gz' },
];

/** What the manifest names as the background text. */
export function backgroundLabel(): string {
  return BOOKS.map((b) => `${b.title} (${b.author}, Project Gutenberg #${b.ebook})`).join('; ');
}

// Abbreviations after which a period does not end a sentence (Punkt learns these; the books need only a few).
const ABBREVIATIONS = new Set(['mr', 'mrs', 'ms', 'dr', 'st', 'messrs', 'capt', 'col', 'gen', 'esq', 'rev', 'vol', 'no', 'viz', 'etc', 'i.e', 'e.g']);

// A sentence ends at . ! or ? (closing quotes and brackets kept with it) before whitespace and an opening capital,
// digit or quote.
const END = /[.!?]+["'”’)\]_]*(?=\s+["'“‘(\[_]*[A-Z0-9])/g;

/**
 * The sentences of a text, in order, each trimmed: an approximation of NLTK's PunktSentenceTokenizer (which BABILong
 * uses) by end punctuation, a following capital and a list of abbreviations. Line breaks inside a sentence stay, as
 * Punkt leaves them.
 */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (const m of text.matchAll(END)) {
    const end = m.index + m[0].length;
    const word = /([A-Za-z.]+)\.$/.exec(text.slice(Math.max(start, m.index - 12), m.index + 1));
    if (m[0].startsWith('.') && m[0].length === 1 && word && ABBREVIATIONS.has(word[1].toLowerCase())) continue;
    const s = text.slice(start, end).trim();
    if (s !== '') out.push(s);
    start = end;
  }
  const tail = text.slice(start).trim();
  if (tail !== '') out.push(tail);
  return out;
}

let cache: { sentences: string[][]; sha256: string[] } | undefined;

function load(): { sentences: string[][]; sha256: string[] } {
  if (cache) return cache;
  const sentences: string[][] = [];
  const sha256: string[] = [];
  for (const b of BOOKS) {
    const file = datasetPath('babilong', 'books', b.file);
    const bytes = readFileSync(file);
    sha256.push(createHash('sha256').update(bytes).digest('hex'));
    sentences.push(splitSentences(decodeTextBytes(bytes, file, 'reinstall memagent-bench: its bundled books are damaged')));
  }
  return (cache = { sentences, sha256 });
}

/** Each bundled book's sentences, read once per process. */
export function bookSentences(): string[][] {
  return load().sentences;
}

/** Each bundled book file's sha256, for the manifest. */
export function bookHashes(): string[] {
  return load().sha256;
}
