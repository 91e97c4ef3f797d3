import { test } from 'vitest';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UserError } from '../../../harness/errors.js';
import { readJsonl } from '../../../harness/runner/jsonl.js';

const dir = mkdtempSync(join(tmpdir(), 'runner-jsonl-'));

test('a torn last line is skipped; a corrupt earlier line is a UserError naming file:line', () => {
  const file = join(dir, 'samples.jsonl');
  writeFileSync(file, '{"a":1}\n{"a":2}\n{"a":');
  assert.deepEqual(readJsonl(file), { rows: [{ a: 1 }, { a: 2 }], tornBytes: 5 });
  writeFileSync(file, '{"a":1}\n\n{"a":"unterminated\n{"a":3}\n');
  assert.throws(() => readJsonl(file), (e: unknown) => e instanceof UserError &&
    e.message.startsWith(`${file}:3: not valid JSON (`) && /fix or delete line 3, or use another --out$/.test(e.message));
});
