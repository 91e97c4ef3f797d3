// The built `bench` binary on other tools' data: malformed input is one stderr line naming the file, the line or
// item and the field, exit 2, and no run directory; and the peak RSS of a 25600-document index-form run.
// Needs `npm run build` (dist/).
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { closeSync, existsSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { assertOneLine, runBench } from '../../helpers/cli.js';
import { BUNDLED_POOL, jsonl, jsonList, memagentRows, rulerRow, tempDir, write } from './helpers.js';

const GOOD = {
  context: 'Oslo is the capital of Norway.',
  question: 'What is the capital of Norway?',
  answers: ['Oslo'],
};

async function refused(args: string[], message: RegExp): Promise<void> {
  const dir = tempDir('cli-refused');
  const out = join(dir, 'run');
  const r = await runBench(['run', ...args, '--workers', '1', '--no-progress', '--out', out]);
  assertOneLine(r, 2, message);
  assert.ok(!existsSync(out), `refused input must not create ${out}`);
}

test('malformed data: exit 2, one line with file, line/item and field; nothing written', async () => {
  const dir = tempDir('cli-bad');
  // Bad JSON on line 3 of a JSONL file.
  const badJson = write(
    join(dir, 'bad.jsonl'),
    `${JSON.stringify(GOOD)}\n${JSON.stringify(GOOD)}\n{"context": "x", "question": \n`,
  );
  await refused(
    ['jsonl', '--data', badJson],
    /^bench: .*bad\.jsonl: line 3: not valid JSON \(.*\); expected one JSON object per line$/,
  );
  // A missing field in item 1 of MemAgent's JSON list.
  const rows = memagentRows(50, 2).textRows.map((r) => ({ ...r })) as Array<Record<string, unknown>>;
  delete rows[1].answers;
  const missing = write(join(dir, 'eval_50.json'), jsonList(rows));
  await refused(
    ['ruler-hqa', '--data', missing],
    /^bench: .*eval_50\.json: item 1: missing field "answers"; MemAgent's RULER-HQA rows have context, input, answers, num_docs, index$/,
  );
  // An unknown per-row metric.
  const metric = write(join(dir, 'metric.jsonl'), jsonl([GOOD, { ...GOOD, metric: 'bleu' }]));
  await refused(
    [`file:${metric}`],
    /^bench: .*metric\.jsonl: line 2: field "metric": unknown metric "bleu"; known metrics: sub_em, .*$/,
  );
  // An index outside the --pool file's paragraphs.
  const idx = memagentRows(12800, 1, 4, { text: false }).indexRows;
  idx[0].context[17] = 999_999;
  const outOfRange = write(join(dir, 'eval_12800.json'), jsonList(idx));
  await refused(
    ['ruler-hqa', '--data', outOfRange, '--pool', BUNDLED_POOL],
    /^bench: .*eval_12800\.json: item 0: field "context"\[17\] = 999999 is not a paragraph index of --pool .* \(15397 paragraphs, indices 0\.\.15396\); was the file built from another HotpotQA file\?$/,
  );
  // Index form without --pool.
  await refused(
    ['ruler-hqa', '--data', outOfRange],
    /^bench: .*eval_12800\.json: item 0: field "context" is a list of paragraph indices .*: pass the HotpotQA dev file it indexes with --pool FILE/,
  );
  // Invalid UTF-8, with its byte offset.
  const before = Buffer.from(`${JSON.stringify(GOOD)}\n{"context": "Caf`);
  const utf8 = write(
    join(dir, 'latin1.jsonl'),
    Buffer.concat([before, Buffer.from([0xe9]), Buffer.from('", "question": "q", "answers": ["a"]}\n')]),
  );
  await refused(
    ['jsonl', '--data', utf8],
    new RegExp(
      `^bench: .*latin1\\.jsonl: invalid UTF-8 at byte offset ${before.length} \\(line 2\\); the file must be UTF-8 text$`,
    ),
  );
  // A RULER row of a task that is not NIAH (qa_1) cannot be split for MemAgent.
  const qa = write(
    join(dir, 'qa_1', 'validation.jsonl'),
    jsonl([
      {
        index: 0,
        input: 'Answer the question based on the given documents.\n\nDocument 1:\nx\n\nQuestion: who?',
        outputs: ['x'],
        length: 900,
      },
    ]),
  );
  // Its folder names RULER's qa_1, which has a reader of its own.
  await refused(
    ['niah_single_1', '--data', qa],
    /^bench: .*qa_1\/validation\.jsonl is RULER's qa_1 data, not niah_single_1: run `bench run qa_1 --data /,
  );
  // RULER data of another NIAH task.
  const other = write(join(dir, 'niah_multikey_1', 'validation.jsonl'), jsonl([rulerRow('a-b', '1234567', 5)]));
  await refused(
    ['niah_single_1', '--data', other],
    /^bench: .* is RULER's niah_multikey_1 data, not niah_single_1: run `bench run niah_multikey_1 --data /,
  );
  // A file for another task.
  await refused(
    ['jsonl', '--data', missing],
    /^bench: .*eval_50\.json holds MemAgent's RULER-HQA eval file, which task jsonl does not read: run `bench run ruler-hqa --data /,
  );
  // Flags.
  await refused(['ruler-hqa', '--pool', BUNDLED_POOL], /^bench: --pool goes with --data/);
  await refused(
    [`file:${metric}`, '--data', metric],
    /^bench: file:.* is a task with its own data: run it alone and without --data$/,
  );
  await refused(['jsonl'], /^bench: task jsonl reads your file/);
  await refused(['jsonl', '--data', join(dir, 'nope.jsonl')], /^bench: --data .*nope\.jsonl does not exist$/);
});

test('a 25600-document index-form file (3.5M tokens a sample) runs from cached pool ids: peak RSS', async () => {
  const dir = tempDir('cli-rss');
  // MemAgent's layout for N > 10000: json.dump(indent=4) of 128 rows whose context lists pool indices (over the
  // bundled pool's 15,397 paragraphs, so indices repeat; MemAgent's dev pool has 66,635).
  const { indexRows } = memagentRows(25600, 128, 4, { text: false });
  const file = join(dir, 'eval_25600.json');
  const fd = openSync(file, 'w');
  writeSync(fd, '[\n');
  indexRows.forEach((row, i) =>
    writeSync(fd, JSON.stringify(row, null, 4).replace(/^/gm, '    ') + (i < indexRows.length - 1 ? ',\n' : '\n')),
  );
  writeSync(fd, ']');
  closeSync(fd);
  const run = async (args: string[]) => {
    const r = await runBench(
      [
        'run',
        'ruler-hqa',
        ...args,
        '--samples',
        '1',
        '--workers',
        '1',
        '--no-progress',
        '--no-cache',
        '--out',
        join(dir, `run-${args[0]}`),
      ],
      { timeoutMs: 600_000 },
    );
    assert.equal(r.code, 0, r.stderr);
    const rss = Number(/peak RSS (\d+) MB/.exec(r.stdout)?.[1]);
    assert.ok(rss > 0, r.stdout);
    return { rss, stdout: r.stdout };
  };
  const fromFile = await run(['--data', file, '--pool', BUNDLED_POOL]);
  assert.match(
    fromFile.stdout,
    /ruler-hqa: lengths docs:25600 \(1 point\); data .*eval_25600\.json: memagent-hqa \(index form\), 128 rows, sha256 [0-9a-f]{12}; pool /,
  );
  const generated = await run(['--lengths', 'docs:25600']);
  console.log(`peak RSS, 25600-document sample: index-form file ${fromFile.rss} MB, generated ${generated.rss} MB`);
  assert.ok(fromFile.rss < 1024, `peak RSS ${fromFile.rss} MB`);
  rmSync(dir, { recursive: true, force: true }); // a 60 MB file
});
