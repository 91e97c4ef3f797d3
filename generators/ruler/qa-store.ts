// Where qa_1 / qa_2 keep their document pool: on disk, read one document at a time, so a 512K-token sample holds a
// few documents in memory, not the whole pool (15K HotpotQA paragraphs: about 9 MB of text and 8.5 MB of ids).
// - Documents and questions of a data file (keyed by its sha256): <cache>/qa-docs-<dataset>-<sha>-v1.bin, a u32
//   header length, a JSON header (sha256, questions, each document's UTF-8 length and first character), then the
//   documents' UTF-8 bytes. A hit skips reading the data file itself (it is only hashed).
// - Token ids of `document + "\n\n"` per tokenizer: <cache>/qa-ids-<dataset>-<sha>-<tokenizer>-v1.bin, the layout of
//   the RULER-HQA pools (generators/ruler-hqa/pool.ts), spot-checked against fresh encodes when opened.
// A cache that cannot be written or read back keeps the pool in memory: same documents, same ids.
import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { poolCacheDir } from '../../harness/cache/cache-root.js';
import type { Tokenizer } from '../../harness/types.js';
import { DOC_SEPARATOR, idsFileBytes, writeIdsFile } from '../ruler-hqa/pool.js';

const VERSION = 1;
/** The documents file's own version: 2 since its questions carry their gold documents. */
const DOCS_VERSION = 2;

/** The sorted distinct documents of a qa data file. */
export interface QaDocs {
  readonly count: number;
  text(i: number): string;
  /** The document's first character (a whole code point), '' for an empty document. */
  first(i: number): string;
}

/** The token ids of `document + "\n\n"` per document. */
export interface QaIds {
  readonly counts: Int32Array;
  ids(i: number): Uint32Array;
}

const firstOf = (text: string) => (text.length === 0 ? '' : String.fromCodePoint(text.codePointAt(0)!));

export function arrayDocs(texts: readonly string[]): QaDocs {
  return { count: texts.length, text: (i) => texts[i], first: (i) => firstOf(texts[i]) };
}

/** sha256 of a file, read in 1 MiB chunks. */
export function sha256OfFile(file: string): string {
  const hash = createHash('sha256');
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.allocUnsafe(1 << 20);
    for (let at = 0; ;) {
      const n = readSync(fd, buf, 0, buf.length, at);
      if (n === 0) break;
      hash.update(buf.subarray(0, n));
      at += n;
    }
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}

/** Bytes [at, at + length) of an open file, or undefined when the file is shorter. */
function readAt(fd: number, at: number, length: number, into?: Uint8Array): Uint8Array | undefined {
  const buf = into ?? Buffer.allocUnsafe(length);
  let got = 0;
  while (got < length) {
    const n = readSync(fd, buf, got, length - got, at + got);
    if (n === 0) return undefined;
    got += n;
  }
  return buf;
}

interface DocsHeader<Q> {
  version: number;
  dataset: string;
  sha256: string;
  bytes: number[];
  firsts: string[];
  questions: Q[];
}

const docsFile = (dataset: string, sha256: string) =>
  join(poolCacheDir(), `qa-docs-${dataset}-${sha256.slice(0, 16)}-v${DOCS_VERSION}.bin`);

/** Opens a documents file; undefined when it is missing or not the one for (dataset, sha256). */
function openDocs<Q>(file: string, dataset: string, sha256: string): { docs: QaDocs; questions: Q[] } | undefined {
  if (!existsSync(file)) return undefined;
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const size = fstatSync(fd).size;
    const lenBuf = readAt(fd, 0, 4);
    if (!lenBuf) throw new Error('short');
    const headerBytes = Buffer.from(lenBuf).readUInt32LE(0);
    const raw = readAt(fd, 4, headerBytes);
    if (!raw) throw new Error('short');
    const header = JSON.parse(Buffer.from(raw).toString('utf8')) as DocsHeader<Q>;
    if (header.version !== DOCS_VERSION || header.dataset !== dataset || header.sha256 !== sha256)
      throw new Error('stale');
    const { bytes, firsts } = header;
    const offsets = new Float64Array(bytes.length + 1);
    offsets[0] = 4 + headerBytes;
    for (let i = 0; i < bytes.length; i++) offsets[i + 1] = offsets[i] + bytes[i];
    if (offsets[bytes.length] !== size || firsts.length !== bytes.length) throw new Error('size');
    const handle = fd;
    const docs: QaDocs = {
      count: bytes.length,
      text(i) {
        const buf = readAt(handle, offsets[i], bytes[i]);
        if (!buf) throw new Error(`${file} was truncated while in use: delete it and run again`);
        return Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength).toString('utf8');
      },
      first: (i) => firsts[i],
    };
    // The descriptor stays open for the process: documents are read from it on demand.
    return { docs, questions: header.questions };
  } catch {
    if (fd !== undefined) closeSync(fd);
    return undefined;
  }
}

function writeDocs<Q>(
  file: string,
  dataset: string,
  sha256: string,
  texts: readonly string[],
  questions: Q[],
): boolean {
  try {
    const encoded = texts.map((t) => Buffer.from(t, 'utf8'));
    const header: DocsHeader<Q> = {
      version: DOCS_VERSION,
      dataset,
      sha256,
      bytes: encoded.map((b) => b.length),
      firsts: texts.map(firstOf),
      questions,
    };
    const head = Buffer.from(JSON.stringify(header), 'utf8');
    const len = Buffer.alloc(4);
    len.writeUInt32LE(head.length, 0);
    writeIdsFile(file, Buffer.concat([len, head, ...encoded]));
    return true;
  } catch {
    return false;
  }
}

const openedDocs = new Map<string, { docs: QaDocs; questions: unknown[] }>();

/**
 * The documents and questions of a data file: from the documents cache when it holds this file, else from `load`
 * (the parsed file), written to the cache and read back from there (in memory when the cache cannot be written).
 */
export function cachedQaDocs<Q>(
  dataset: string,
  sha256: string,
  load: () => { docs: string[]; questions: Q[] },
): { docs: QaDocs; questions: Q[] } {
  const file = docsFile(dataset, sha256);
  const hit = openedDocs.get(file) ?? openDocs<Q>(file, dataset, sha256);
  if (hit) {
    openedDocs.set(file, hit);
    return hit as { docs: QaDocs; questions: Q[] };
  }
  const loaded = load();
  const written = writeDocs(file, dataset, sha256, loaded.docs, loaded.questions);
  const back = written ? openDocs<Q>(file, dataset, sha256) : undefined;
  const out = back ?? { docs: arrayDocs(loaded.docs), questions: loaded.questions };
  openedDocs.set(file, out);
  return out;
}

const idsFile = (dataset: string, sha256: string, tokenizer: Tokenizer) =>
  join(poolCacheDir(), `qa-ids-${dataset}-${sha256.slice(0, 16)}-${tokenizer.id}-v${VERSION}.bin`);

/** Opens an ids file (u32 count, count × u32 lengths, the ids) for `docs`, spot-checked against fresh encodes. */
function openIds(file: string, docs: QaDocs, tokenizer: Tokenizer): QaIds | undefined {
  if (!existsSync(file)) return undefined;
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const size = fstatSync(fd).size;
    const head = readAt(fd, 0, 4 * (1 + docs.count));
    if (!head) throw new Error('short');
    const words = new Uint32Array(head.buffer.slice(head.byteOffset, head.byteOffset + head.byteLength));
    if (words[0] !== docs.count) throw new Error('count');
    const counts = Int32Array.from(words.subarray(1));
    const offsets = new Float64Array(docs.count + 1);
    offsets[0] = 4 * (1 + docs.count);
    for (let i = 0; i < docs.count; i++) offsets[i + 1] = offsets[i] + 4 * counts[i];
    if (offsets[docs.count] !== size) throw new Error('size');
    const handle = fd;
    const ids = (i: number) => {
      const out = new Uint32Array(counts[i]);
      if (!readAt(handle, offsets[i], out.byteLength, new Uint8Array(out.buffer)))
        throw new Error(`${file} was truncated while in use: delete it and run again`);
      return out;
    };
    for (const i of [0, docs.count >> 1, docs.count - 1]) {
      const fresh = tokenizer.encode(docs.text(i) + DOC_SEPARATOR);
      const got = ids(i);
      if (fresh.length !== got.length || fresh.some((x, k) => x !== got[k])) throw new Error('stale');
    }
    return { counts, ids };
  } catch {
    if (fd !== undefined) closeSync(fd);
    return undefined;
  }
}

const openedIds = new Map<string, QaIds>();

/** The ids of a pool's documents for a tokenizer: from the ids cache, else encoded once, cached and read back. */
export function cachedQaIds(dataset: string, sha256: string, docs: QaDocs, tokenizer: Tokenizer): QaIds {
  const file = idsFile(dataset, sha256, tokenizer);
  let out = openedIds.get(file) ?? openIds(file, docs, tokenizer);
  if (!out) {
    const all = Array.from({ length: docs.count }, (_, i) => tokenizer.encode(docs.text(i) + DOC_SEPARATOR));
    let written = false;
    try {
      writeIdsFile(file, idsFileBytes(all));
      written = true;
    } catch {
      // a cache that cannot be written only costs memory
    }
    out = (written ? openIds(file, docs, tokenizer) : undefined) ?? {
      counts: Int32Array.from(all, (x) => x.length),
      ids: (i) => all[i],
    };
  }
  openedIds.set(file, out);
  return out;
}
