// qa_1 / qa_2's on-disk pool (generators/ruler/qa-store.ts): documents and ids read back from the cache equal the
// parsed ones; a hit does not parse the data file; a damaged cache is rebuilt; an unwritable cache keeps the pool in
// memory with the same documents and ids.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, test } from 'vitest';
import { loadTokenizer } from '../../../harness/tokenizer/index.js';
import { cachedQaDocs, cachedQaIds, sha256OfFile } from '../../../generators/ruler/qa-store.js';

const DOCS = ['Alpha paragraph.', '', 'Ünïcode · text', '😀 starts astral', 'x'.repeat(5000)];
const QUESTIONS = [{ query: 'q?', outputs: ['a'], own: [0], more: [2], gold: [0] }];
const SHA = 'ab'.repeat(32);
const tokenizer = loadTokenizer('qwen2.5');

let root: string;
const saved = process.env.BENCH_CACHE_DIR;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'qa-store-'));
});
afterEach(() => {
  if (saved === undefined) delete process.env.BENCH_CACHE_DIR;
  else process.env.BENCH_CACHE_DIR = saved;
});

function useCache(name: string): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  process.env.BENCH_CACHE_DIR = dir;
  return dir;
}

function texts(docs: { count: number; text(i: number): string }): string[] {
  return Array.from({ length: docs.count }, (_, i) => docs.text(i));
}

test('documents come back from the cache as parsed, and a hit does not parse the file', () => {
  const a = useCache('a');
  let loads = 0;
  const first = cachedQaDocs('squad', SHA, () => (loads++, { docs: DOCS, questions: QUESTIONS }));
  assert.equal(loads, 1);
  assert.deepEqual(texts(first.docs), DOCS);
  assert.deepEqual(
    DOCS.map((_, i) => first.docs.first(i)),
    ['A', '', 'Ü', '😀', 'x'],
  );
  const files = readdirSync(a);
  assert.deepEqual(files, [`qa-docs-squad-${SHA.slice(0, 16)}-v2.bin`]);

  // Another process (another cache folder holding the same file): served from the file alone.
  const b = useCache('b');
  copyFileSync(join(a, files[0]), join(b, files[0]));
  const hit = cachedQaDocs('squad', SHA, () => {
    throw new Error('parsed although cached');
  });
  assert.deepEqual(texts(hit.docs), DOCS);
  assert.deepEqual(hit.questions, QUESTIONS);
});

test('a truncated or foreign documents file is rebuilt', () => {
  const a = useCache('src');
  cachedQaDocs('hotpotqa', SHA, () => ({ docs: DOCS, questions: QUESTIONS }));
  const name = readdirSync(a)[0];
  const c = useCache('truncated');
  copyFileSync(join(a, name), join(c, name));
  truncateSync(join(c, name), 40);
  let loads = 0;
  const rebuilt = cachedQaDocs('hotpotqa', SHA, () => (loads++, { docs: DOCS, questions: QUESTIONS }));
  assert.equal(loads, 1);
  assert.deepEqual(texts(rebuilt.docs), DOCS);
  // A file named for this sha256 but written for another one.
  const d = useCache('foreign');
  const other = 'cd'.repeat(32);
  cachedQaDocs('hotpotqa', other, () => ({ docs: ['other'], questions: [] }));
  const otherName = readdirSync(d)[0];
  writeFileSync(join(d, name), readFileSync(join(d, otherName)));
  loads = 0;
  const again = cachedQaDocs('hotpotqa', SHA, () => (loads++, { docs: DOCS, questions: QUESTIONS }));
  assert.equal(loads, 1);
  assert.deepEqual(texts(again.docs), DOCS);
});

test('ids read from the cache equal fresh encodes; a stale ids file is re-encoded', () => {
  const a = useCache('ids');
  const { docs } = cachedQaDocs('squad', SHA, () => ({ docs: DOCS, questions: QUESTIONS }));
  const want = DOCS.map((t) => Array.from(tokenizer.encode(`${t}\n\n`)));
  const ids = cachedQaIds('squad', SHA, docs, tokenizer);
  assert.deepEqual(
    DOCS.map((_, i) => Array.from(ids.ids(i))),
    want,
  );
  assert.deepEqual(
    Array.from(ids.counts),
    want.map((w) => w.length),
  );
  const idsName = readdirSync(a).find((f) => f.startsWith('qa-ids-'))!;
  // Another folder whose ids file has a wrong id in the first document: the spot check rejects it.
  const b = useCache('ids-stale');
  for (const f of readdirSync(a)) copyFileSync(join(a, f), join(b, f));
  const bytes = readFileSync(join(b, idsName));
  const firstId = 4 * (1 + DOCS.length);
  bytes.writeUInt32LE(bytes.readUInt32LE(firstId) + 1, firstId);
  writeFileSync(join(b, idsName), bytes);
  const fresh = cachedQaIds(
    'squad',
    SHA,
    cachedQaDocs('squad', SHA, () => assert.fail('docs are cached')).docs,
    tokenizer,
  );
  assert.deepEqual(
    DOCS.map((_, i) => Array.from(fresh.ids(i))),
    want,
  );
});

test('an unwritable cache keeps the pool in memory, with the same documents and ids', () => {
  const blocker = join(root, 'not-a-folder');
  writeFileSync(blocker, 'a file where the cache folder should be');
  process.env.BENCH_CACHE_DIR = join(blocker, 'cache');
  const { docs } = cachedQaDocs('squad', SHA, () => ({ docs: DOCS, questions: QUESTIONS }));
  assert.deepEqual(texts(docs), DOCS);
  const ids = cachedQaIds('squad', SHA, docs, tokenizer);
  assert.deepEqual(
    DOCS.map((_, i) => Array.from(ids.ids(i))),
    DOCS.map((t) => Array.from(tokenizer.encode(`${t}\n\n`))),
  );
});

test('sha256OfFile hashes the whole file across chunks', () => {
  const file = join(root, 'big.bin');
  const data = Buffer.alloc((1 << 20) * 2 + 17, 7);
  writeFileSync(file, data);
  assert.equal(sha256OfFile(file), createHash('sha256').update(data).digest('hex'));
});
