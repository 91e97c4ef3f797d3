import { test } from 'vitest';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UserError } from '../../../harness/errors.js';
import { completeLines, JsonlAppender, jsonlRows, readJsonl, trimTornTail } from '../../../harness/run-dir/jsonl.js';

const dir = mkdtempSync(join(tmpdir(), 'bench-jsonl-'));
let n = 0;
function file(text: string | Buffer): string {
  const f = join(dir, `f${++n}.jsonl`);
  writeFileSync(f, text);
  return f;
}

function userError(fn: () => unknown, pattern: RegExp): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof UserError, `not a UserError: ${err}`);
    assert.match(err.message, pattern);
    assert.ok(!err.message.includes('\n'), 'one line');
    return true;
  });
}

const rows = (f: string, mode: 'strict' | 'lenient' = 'strict', chunkBytes?: number) => [
  ...jsonlRows(f, { mode, chunkBytes }),
];

test('strict: a corrupt middle line is a UserError naming file and line', () => {
  const f = file('{"a":1}\n{"a":2}\n{"a":\n{"a":4}\n');
  userError(
    () => rows(f),
    new RegExp(
      `^${f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3: not valid JSON \\(.+\\); each line must be one JSON object$`,
    ),
  );
  // Lenient mode forgives only a torn last line, not a damaged middle one.
  userError(() => rows(f, 'lenient'), /:3: not valid JSON/);
});

test('every line must be a JSON object', () => {
  userError(() => rows(file('{"a":1}\n[1,2]\n')), /:2: expected a JSON object on each line, found an array/);
  userError(() => rows(file('{"a":1}\n"x"\n')), /:2: expected a JSON object on each line, found a string/);
  userError(() => rows(file('null\n'), 'lenient'), /:1: expected a JSON object on each line, found null/);
});

test('lenient: a torn last line is skipped and reported; strict refuses it', () => {
  const f = file('{"a":1}\n{"a":2}\n{"id":"torn');
  const torn: number[] = [];
  const got = [...jsonlRows(f, { mode: 'lenient', onTornLastLine: (line) => torn.push(line) })];
  assert.deepEqual(got, [
    { line: 1, value: { a: 1 } },
    { line: 2, value: { a: 2 } },
  ]);
  assert.deepEqual(torn, [3]);
  const read = readJsonl(f, { mode: 'lenient' });
  assert.equal(read.tornLastLine, 3);
  assert.equal(read.lines.length, 2);
  userError(() => readJsonl(f), /:3: not valid JSON/);
  // A file that is nothing but a torn line holds no rows.
  assert.deepEqual(readJsonl(file('{"a'), { mode: 'lenient' }), {
    path: join(dir, `f${n}.jsonl`),
    lines: [],
    tornLastLine: 1,
  });
});

test('a complete last row without its newline is kept in both modes', () => {
  const f = file('{"a":1}\n{"a":2}');
  assert.deepEqual(
    rows(f).map((r) => r.value),
    [{ a: 1 }, { a: 2 }],
  );
  assert.equal(readJsonl(f, { mode: 'lenient' }).tornLastLine, undefined);
});

test('a terminated bad last line is damage, not a torn write: an error in lenient mode too', () => {
  userError(() => rows(file('{"a":1}\n{"a":\n'), 'lenient'), /:2: not valid JSON/);
});

test('CRLF line ends and blank lines; line numbers count every physical line', () => {
  const f = file('\r\n{"a":1}\r\n\r\n   \n{"a":"x\\r"}\r\n\n');
  assert.deepEqual(rows(f), [
    { line: 2, value: { a: 1 } },
    { line: 5, value: { a: 'x\r' } },
  ]);
  userError(() => rows(file('{"a":1}\r\n\r\nnope\r\n')), /:3: not valid JSON/);
});

test('streams a file larger than one chunk: lines across chunk ends, longer than a chunk, multi-byte characters split', () => {
  const values = Array.from({ length: 300 }, (_, i) => ({
    i,
    text: 'é€😀'.repeat(i % 7) + 'x'.repeat((i * 37) % 150),
  }));
  const text = values
    .map((v, i) => JSON.stringify(v) + (i % 3 === 0 ? '\r\n' : '\n') + (i % 50 === 0 ? '\n' : ''))
    .join('');
  const f = file(text);
  for (const chunk of [7, 64, 4096]) {
    const got = rows(f, 'strict', chunk);
    assert.deepEqual(
      got.map((r) => r.value),
      values,
      `chunk ${chunk}`,
    );
  }
  const few = file(text.split('\n').slice(0, 30).join('\n') + '\n');
  assert.deepEqual(
    rows(few, 'strict', 1).map((r) => r.value),
    rows(few).map((r) => r.value),
    'one byte per read',
  );
  // Default chunk size (1 MiB) on a 3 MiB file, with a torn tail.
  const big =
    Array.from({ length: 3000 }, (_, i) => JSON.stringify({ i, pad: 'p'.repeat(1000) })).join('\n') +
    '\n{"i":3000,"pad":"pp';
  const g = file(big);
  let count = 0;
  let torn = 0;
  for (const { line, value } of jsonlRows<{ i: number }>(g, { mode: 'lenient', onTornLastLine: (l) => (torn = l) })) {
    assert.equal(value.i, line - 1);
    count++;
  }
  assert.equal(count, 3000);
  assert.equal(torn, 3001);
});

test('a missing file is a UserError', () => {
  userError(() => rows(join(dir, 'absent.jsonl')), /cannot read .*absent\.jsonl: ENOENT/);
});

test('stopping early closes the file', () => {
  const f = file('{"a":1}\n{"a":2}\n');
  const it = jsonlRows(f);
  assert.deepEqual(it.next().value, { line: 1, value: { a: 1 } });
  it.return(undefined);
  assert.equal(it.next().done, true);
});

test('trimTornTail cuts a torn last line and completes a whole row that lacks its newline', () => {
  const torn = file('{"a":1}\n{"a":2}\n{"a":');
  assert.equal(trimTornTail(torn), 5);
  assert.equal(readFileSync(torn, 'utf8'), '{"a":1}\n{"a":2}\n');
  assert.equal(trimTornTail(torn), 0);
  const whole = file('{"a":1}\n{"a":2}');
  assert.equal(trimTornTail(whole), 0);
  assert.equal(readFileSync(whole, 'utf8'), '{"a":1}\n{"a":2}\n');
  const only = file('{"a":');
  assert.equal(trimTornTail(only), 5);
  assert.equal(readFileSync(only, 'utf8'), '');
  assert.equal(trimTornTail(join(dir, 'absent.jsonl')), 0);
});

test('completeLines gives whole lines by the same rule without touching the file', () => {
  const torn = file('{"a":1}\n{"a":');
  assert.equal(completeLines(torn).toString(), '{"a":1}\n');
  assert.equal(readFileSync(torn, 'utf8'), '{"a":1}\n{"a":');
  assert.equal(completeLines(file('{"a":1}\n{"a":2}')).toString(), '{"a":1}\n{"a":2}\n');
  assert.equal(completeLines(join(dir, 'absent.jsonl')).length, 0);
});

test('JsonlAppender starts on a fresh line after a torn tail and writes whole lines', () => {
  const f = file('{"a":1}\n');
  appendFileSync(f, '{"a":2,"b"');
  const out = new JsonlAppender(f);
  out.append({ a: 3 });
  out.append({ a: 4 });
  out.close();
  assert.equal(readFileSync(f, 'utf8'), '{"a":1}\n{"a":3}\n{"a":4}\n');
  assert.deepEqual(
    rows(f).map((r) => r.line),
    [1, 2, 3],
  );
});

test('resume reading (lenient with a hint): a corrupt earlier line names file:line and what to do', () => {
  const dir = mkdtempSync(join(tmpdir(), 'resume-jsonl-'));
  const file = join(dir, 'samples.jsonl');
  writeFileSync(file, '{"a":1}\n\n{"a":"unterminated\n{"a":3}\n');
  assert.throws(
    () => [...jsonlRows(file, { mode: 'lenient', fixHint: 'or use another --out' })],
    (e: unknown) =>
      e instanceof UserError &&
      e.message.startsWith(`${file}:3: not valid JSON (`) &&
      /only a torn last line is skipped: fix or delete line 3, or use another --out$/.test(e.message),
  );
});
