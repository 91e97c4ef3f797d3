import { test } from 'vitest';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { DatasetMissingError, UserError } from '../../../harness/errors.js';
import {
  fixturePath,
  loadLongBench,
  parseLongBenchJsonl,
  resolveDataFile,
} from '../../../generators/longbench/load.js';
import { jsonl, row, tempDir } from './helpers.js';

function throwsWith(fn: () => unknown, type: new (...a: never[]) => Error, ...parts: Array<string | RegExp>): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof type, `expected ${type.name}, got ${(err as Error)?.name}: ${(err as Error)?.message}`);
    for (const p of parts) {
      if (typeof p === 'string') assert.ok(err.message.includes(p), `"${err.message}" lacks "${p}"`);
      else assert.match(err.message, p);
    }
    return true;
  });
}

test('a dataset missing from the --data directory is a DatasetMissingError naming the file and the fix', () => {
  const dir = tempDir({ 'hotpotqa.jsonl': jsonl([row('hotpotqa', 0)]) });
  throwsWith(
    () => loadLongBench('musique', dir),
    DatasetMissingError,
    `in ${dir} `,
    'musique_e.jsonl',
    "pass --data DIR with LongBench's musique.jsonl",
  );
  assert.equal(loadLongBench('hotpotqa', dir).rows.length, 1);
});

test('without --data a dataset with no bundled fixture is a DatasetMissingError; a bad --data path is a plain UserError', () => {
  throwsWith(() => loadLongBench('qasper'), DatasetMissingError, "pass --data DIR with LongBench's qasper.jsonl");
  assert.throws(
    () => loadLongBench('qasper', '/nonexistent/longbench-dir'),
    (err: unknown) =>
      err instanceof UserError && !(err instanceof DatasetMissingError) && /does not exist/.test(err.message),
  );
});

test('a malformed JSON line is reported with file and line number', () => {
  const text = jsonl([row('qmsum', 0), row('qmsum', 1)]) + '{"input": "x", "context": \n';
  const dir = tempDir({ 'qmsum.jsonl': text });
  throwsWith(() => loadLongBench('qmsum', dir), UserError, `${join(dir, 'qmsum.jsonl')}:3:`, 'not valid JSON');
});

test('a missing or mistyped field is named, with its line', () => {
  const { answers: _drop, ...noAnswers } = row('qasper', 1);
  throwsWith(
    () => parseLongBenchJsonl(jsonl([row('qasper', 0), noAnswers]), 'f.jsonl', 'qasper'),
    UserError,
    'f.jsonl:2:',
    'missing field "answers"',
  );
  throwsWith(
    () => parseLongBenchJsonl(jsonl([{ ...row('qasper', 0), length: '12' }]), 'f.jsonl', 'qasper'),
    UserError,
    'f.jsonl:1:',
    '"length"',
  );
  throwsWith(
    () => parseLongBenchJsonl(jsonl([{ ...row('qasper', 0), answers: 'x' }]), 'f.jsonl', 'qasper'),
    UserError,
    '"answers"',
  );
  throwsWith(
    () => parseLongBenchJsonl(jsonl([{ ...row('qasper', 0), all_classes: 'a' }]), 'f.jsonl', 'qasper'),
    UserError,
    '"all_classes"',
  );
  throwsWith(
    () => parseLongBenchJsonl(jsonl([{ ...row('qasper', 0), _id: 7 }]), 'f.jsonl', 'qasper'),
    UserError,
    '"_id"',
  );
  throwsWith(
    () => parseLongBenchJsonl(jsonl([[1, 2]]), 'f.jsonl', 'qasper'),
    UserError,
    'f.jsonl:1:',
    'not a JSON object',
  );
  throwsWith(() => parseLongBenchJsonl('\n\n', 'f.jsonl', 'qasper'), UserError, 'no rows');
});

test('a row of another dataset is refused (the file was misnamed); `_e` rows count as their base dataset', () => {
  throwsWith(
    () => parseLongBenchJsonl(jsonl([row('hotpotqa', 0), row('musique', 1)]), 'h.jsonl', 'hotpotqa'),
    UserError,
    'h.jsonl:2:',
    '"musique"',
  );
  assert.equal(parseLongBenchJsonl(jsonl([row('hotpotqa_e', 0)]), 'h.jsonl', 'hotpotqa').length, 1);
});

test('blank lines are skipped, file order is kept, line numbers stay true to the file', () => {
  const text = `${JSON.stringify(row('musique', 0))}\n\n${JSON.stringify(row('musique', 1))}\n\n{bad\n`;
  throwsWith(() => parseLongBenchJsonl(text, 'm.jsonl', 'musique'), UserError, 'm.jsonl:5:');
  const rows = parseLongBenchJsonl(text.replace('{bad\n', ''), 'm.jsonl', 'musique');
  assert.deepEqual(
    rows.map((r) => r._id),
    ['id-musique-0', 'id-musique-1'],
  );
});

test('directory lookup: <dataset>.jsonl first, else <dataset>_e.jsonl, also under data/ as data.zip unpacks', () => {
  const dir = tempDir({
    'hotpotqa.jsonl': jsonl([row('hotpotqa', 0)]),
    'hotpotqa_e.jsonl': jsonl([row('hotpotqa', 1), row('hotpotqa', 2)]),
    'qasper_e.jsonl': jsonl([row('qasper', 0)]),
    'data/gov_report.jsonl': jsonl([row('gov_report', 0, { input: '' })]),
  });
  assert.equal(resolveDataFile('hotpotqa', dir).file, join(dir, 'hotpotqa.jsonl'));
  assert.equal(resolveDataFile('qasper', dir).file, join(dir, 'qasper_e.jsonl'));
  assert.equal(resolveDataFile('gov_report', dir).file, join(dir, 'data', 'gov_report.jsonl'));
  assert.equal(resolveDataFile('gov_report', dir).fixture, false);
  assert.equal(loadLongBench('hotpotqa', dir).rows.length, 1);
});

test('a single --data file serves the dataset its rows name; other datasets are DatasetMissingError', () => {
  const dir = tempDir({ 'my-copy.jsonl': jsonl([row('narrativeqa', 0), row('narrativeqa', 1)]) });
  const file = join(dir, 'my-copy.jsonl');
  const data = loadLongBench('narrativeqa', file);
  assert.equal(data.rows.length, 2);
  assert.equal(data.file, file);
  assert.match(data.sha256, /^[0-9a-f]{64}$/);
  throwsWith(() => loadLongBench('qasper', file), DatasetMissingError, "'narrativeqa'", 'qasper.jsonl');
});

test('bundled fixtures: hotpotqa and multi_news exist and parse; they are flagged as fixtures', () => {
  for (const [dataset, n] of [
    ['hotpotqa', 50],
    ['multi_news', 5],
  ] as const) {
    const data = loadLongBench(dataset);
    assert.equal(data.fixture, true);
    assert.equal(data.file, fixturePath(dataset));
    assert.equal(data.rows.length, n);
  }
});
