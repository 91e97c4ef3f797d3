import { test } from 'vitest';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { UserError } from '../../harness/errors.js';
import { invalidUtf8Offset, readTextFile } from '../../harness/text-file.js';
import { mulberry32 } from '../../harness/util/prng.js';

const dir = mkdtempSync(join(tmpdir(), 'text-file-'));

test('invalidUtf8Offset finds the first byte that starts no well-formed sequence', () => {
  const at = (bytes: number[]) => invalidUtf8Offset(Uint8Array.from(bytes));
  assert.equal(at([]), -1);
  assert.equal(at([...Buffer.from('caf\u00e9 \u20ac \u{1F600}', 'utf8')]), -1);
  assert.equal(at([0x61, 0xff]), 1); // never valid
  assert.equal(at([0x61, 0x80]), 1); // stray continuation
  assert.equal(at([0x61, 0x62, 0xe9, 0x61]), 2); // Latin-1 é: a lead byte without its continuations
  assert.equal(at([0xc0, 0xaf]), 0); // overlong
  assert.equal(at([0xed, 0xa0, 0x80]), 0); // surrogate
  assert.equal(at([0xf4, 0x90, 0x80, 0x80]), 0); // above U+10FFFF
  assert.equal(at([0x61, 0xe2, 0x82]), 1); // truncated at the end
});

test('invalidUtf8Offset agrees with the WHATWG decoder on random bytes', () => {
  const rand = mulberry32(7);
  const fatal = new TextDecoder('utf-8', { fatal: true });
  for (let n = 0; n < 3000; n++) {
    const bytes = Uint8Array.from({ length: 1 + Math.floor(rand() * 8) }, () =>
      rand() < 0.5 ? 0x80 + Math.floor(rand() * 0x80) : Math.floor(rand() * 0x80),
    );
    let valid = true;
    try {
      fatal.decode(bytes);
    } catch {
      valid = false;
    }
    const at = invalidUtf8Offset(bytes);
    assert.equal(at === -1, valid, Buffer.from(bytes).toString('hex'));
    if (!valid) fatal.decode(bytes.subarray(0, at)); // everything before the offset decodes
  }
});

test('readTextFile: plain and gzipped UTF-8 read alike; not UTF-8, binary and directories are UserErrors', () => {
  const text = '{"a":"caf\u00e9"}\n';
  writeFileSync(join(dir, 'plain.jsonl'), text);
  writeFileSync(join(dir, 'packed.jsonl'), gzipSync(text));
  assert.equal(readTextFile(join(dir, 'plain.jsonl'), 'fix'), text);
  assert.equal(readTextFile(join(dir, 'packed.jsonl'), 'fix'), text);
  writeFileSync(join(dir, 'latin1.jsonl'), Buffer.from(text, 'latin1'));
  assert.throws(
    () => readTextFile(join(dir, 'latin1.jsonl'), 'save it as UTF-8'),
    /latin1\.jsonl is not UTF-8 text: byte 0xE9 at byte offset 9 is not valid UTF-8; save it as UTF-8$/,
  );
  writeFileSync(join(dir, 'latin1.gz.jsonl'), gzipSync(Buffer.from(text, 'latin1')));
  assert.throws(
    () => readTextFile(join(dir, 'latin1.gz.jsonl'), 'fix'),
    /\(after gunzip\) is not UTF-8 text: byte 0xE9 at byte offset 9/,
  );
  writeFileSync(join(dir, 'bin.jsonl'), Buffer.from([0x7b, 0x00, 0x7d]));
  assert.throws(() => readTextFile(join(dir, 'bin.jsonl'), 'fix'), /is binary, not text: a NUL byte at byte offset 1/);
  writeFileSync(join(dir, 'torn.gz'), gzipSync(text).subarray(0, 12));
  assert.throws(() => readTextFile(join(dir, 'torn.gz'), 'fix'), /starts like gzip but does not decompress/);
  assert.throws(
    () => readTextFile(dir, 'pass a file'),
    (e: unknown) => e instanceof UserError && /is a directory, not a file; pass a file/.test(e.message),
  );
});
