// The row reader: JSON lists and JSONL told apart by content, byte ranges that read a row again, strict UTF-8.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { firstInvalidUtf8, readRowAgain, scanRows, type RowRef } from '../../../harness/data/read.js';
import { pyStrip } from '../../../harness/data/source.js';
import { tempDir, write } from '../../generators/file/helpers.js';

function scan(path: string) {
  const rows: Array<{ value: unknown; ref: RowRef }> = [];
  const file = scanRows(path, (value, ref) => void rows.push({ value, ref }));
  return { file, rows };
}

test('a pretty-printed JSON list and JSONL give the same rows; each row reads again from its byte range', () => {
  const dir = tempDir('read');
  const rows = [
    { a: 'x]y,{z}"q"', b: [1, [2, 3]] },
    { a: 'é\u2028 ok', b: [] },
    { a: '\\"', b: [{}] },
  ];
  const list = write(join(dir, 'list.json'), '\ufeff' + JSON.stringify(rows, null, 4) + '\n');
  const lines = write(join(dir, 'rows.jsonl'), rows.map((r) => JSON.stringify(r)).join('\r\n') + '\n\n');
  for (const path of [list, lines]) {
    const { file, rows: got } = scan(path);
    assert.equal(file.container, path === list ? 'json-array' : 'jsonl');
    assert.equal(file.rows, 3);
    assert.deepEqual(
      got.map((g) => g.value),
      rows,
    );
    for (const g of got) assert.deepEqual(readRowAgain(file, g.ref), g.value);
  }
  assert.deepEqual(
    scan(list).rows.map((g) => g.ref.line),
    [2, 12, 16],
  );
  assert.deepEqual(
    scan(lines).rows.map((g) => g.ref.line),
    [1, 2, 3],
  );
  assert.equal(scan(write(join(dir, 'compact.json'), '[1,"a",{"k":[]}]')).rows.length, 3);
});

test('malformed files: line or item, and the byte offset of invalid UTF-8', () => {
  const dir = tempDir('read-bad');
  const bad = (name: string, text: string | Buffer) => () => scan(write(join(dir, name), text));
  assert.throws(
    bad('a.jsonl', '{"a":1}\n\n{"a":2\n'),
    /a\.jsonl: line 3: not valid JSON \(.*\); expected one JSON object per line/,
  );
  assert.throws(bad('b.json', '[\n  {"a": 1},\n  {"a": }\n]'), /b\.json: item 1: not valid JSON/);
  assert.throws(bad('c.json', '[{"a": 1},]'), /ends with a comma after item 0/);
  assert.throws(bad('d.json', '[{"a": 1}, {"a": 2}'), /the JSON list is not closed \(the file ends inside item 1\)/);
  assert.throws(bad('e.json', '[{"a": 1}] x'), /unexpected content after the JSON list at byte offset 11/);
  assert.throws(bad('f.jsonl', ''), /is empty/);
  assert.throws(bad('g.json', '[]'), /holds no rows/);
  const utf8 = Buffer.concat([Buffer.from('{"a":"ok"}\n{"a":"caf'), Buffer.from([0xc3, 0x28]), Buffer.from('"}\n')]);
  assert.throws(
    bad('h.jsonl', utf8),
    /h\.jsonl: invalid UTF-8 at byte offset 20 \(line 2\); the file must be UTF-8 text/,
  );
  assert.throws(bad('i.jsonl', Buffer.from([0x1f, 0x8b, 0x08, 0x00])), /is gzip-compressed: decompress it first/);
});

test('firstInvalidUtf8 agrees with TextDecoder (fatal) on random and edge-case bytes', () => {
  const fatal = new TextDecoder('utf-8', { fatal: true });
  const valid = (b: Uint8Array) => {
    try {
      fatal.decode(b);
      return true;
    } catch {
      return false;
    }
  };
  const edge = [
    [0xc0, 0x80],
    [0xe0, 0x80, 0x80],
    [0xed, 0xa0, 0x80],
    [0xf4, 0x90, 0x80, 0x80],
    [0xf0, 0x9f, 0x98, 0x80],
    [0xe2, 0x82],
    [0x80],
    [0xef, 0xbf, 0xbf],
    [0xf5, 0x80, 0x80, 0x80],
  ];
  let s = 12345;
  const rnd = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) % 256;
  const cases = [
    ...edge.map((e) => Uint8Array.from(e)),
    ...Array.from({ length: 3000 }, () =>
      Uint8Array.from({ length: 1 + (rnd() % 6) }, () => (rnd() < 128 ? 0x41 : 0x80 + (rnd() % 128))),
    ),
  ];
  for (const c of cases) {
    const at = firstInvalidUtf8(c);
    assert.equal(at === -1, valid(c), `bytes ${[...c].map((x) => x.toString(16)).join(' ')}`);
    if (at >= 0) assert.ok(valid(c.subarray(0, at)), 'the prefix before the offset is valid');
  }
});

test("pyStrip strips what Python's str.strip() strips", () => {
  assert.equal(pyStrip('\u001c\u0085 a b \t\n\u3000'), 'a b');
  assert.equal(pyStrip('\ufeffx\ufeff'), '\ufeffx\ufeff', 'U+FEFF is not whitespace in Python');
});
