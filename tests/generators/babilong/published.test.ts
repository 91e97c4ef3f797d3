// bench score of BABILong's published predictions (real files of booydar/babilong's babilong_evals, copied into
// tests/fixtures/babilong/evals) against the accuracies BABILong's own collect_results.py computed for them
// (expected.json, written by scripts/parity-babilong.py collect); read_csv's rules on small texts; the refusal of a
// CSV without its question column (a real published one) from a child process; and bench export --format babilong
// read back by bench score (the run's own scores).
import { afterAll as after, beforeAll as before, describe, it } from 'vitest';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scoreTarget, type ScoreRow } from '../../../cli/commands/score.js';
import { csvRecords, readPredictionCsv } from '../../../generators/babilong/published-csv.js';
import { UserError } from '../../../harness/errors.js';
import { pyRound } from '../../../harness/protocol/round.js';
import { assertOneLine, dirFingerprint, runBench } from '../../helpers/cli.js';

const FIXTURE = join(__dirname, '..', '..', 'fixtures', 'babilong', 'evals');

interface ExpectedCell {
  model: string;
  cfg: string;
  task: string;
  length: string;
  accuracy: number;
}
const expected = JSON.parse(readFileSync(join(FIXTURE, 'expected.json'), 'utf8')) as {
  cells: ExpectedCell[];
  refused: Array<{ model: string; error: string }>;
};

/** The count of correct rows behind a row's mean (means are sums of 0/1 over n). */
const correct = (r: ScoreRow) => Math.round((r.mean ?? 0) * r.n);

describe("bench score on BABILong's published predictions", () => {
  it('gives collect_results.py accuracy in every cell of the fixture, and no other cell', async () => {
    const table = await scoreTarget(join(FIXTURE, 'published'));
    assert.equal(table.format, 'babilong');
    assert.equal(table.rows.length, expected.cells.length);
    for (const cell of expected.cells) {
      const row = table.rows.find(
        (r) =>
          r.model.endsWith(cell.model.split('/').pop()!) &&
          r.method === cell.cfg &&
          r.task === cell.task &&
          r.lengthLabel === cell.length,
      );
      assert.ok(row, `no row for ${JSON.stringify(cell)}`);
      // collect_results: 100 * correct / rows, as a float; bench prints it to 2 decimals.
      assert.equal((100 * correct(row)) / row.n, cell.accuracy, `${cell.model} ${cell.task} ${cell.length}`);
      assert.equal(row.percent, pyRound(cell.accuracy, 2));
    }
  });

  it('reads one model folder, one CSV, and --format babilong; refuses --format babilong on another folder', async () => {
    const gpt4 = join(FIXTURE, 'published', 'openai', 'gpt-4-0125-preview');
    const folder = await scoreTarget(gpt4, { format: 'babilong' });
    assert.equal(folder.rows.length, expected.cells.filter((c) => c.model === 'openai/gpt-4-0125-preview').length);
    assert.ok(folder.rows.every((r) => r.model === 'openai/gpt-4-0125-preview'));
    // collect_results' order: run configuration, then task (qa1 … qa20), then length (0k, 1k, …).
    assert.deepEqual(
      folder.rows.map((r) => `${r.task}/${r.lengthLabel}`),
      ['qa1/0k', 'qa1/1k', 'qa1/2k', 'qa2/0k', 'qa6/0k', 'qa7/0k', 'qa8/0k', 'qa10/0k'],
    );
    const one = await scoreTarget(join(gpt4, 'qa8_0k_instruction_yes_examples_yes_post_prompt_yes.csv'));
    assert.equal(one.rows.length, 1);
    await assert.rejects(
      scoreTarget(__dirname, { format: 'babilong' }),
      (err: unknown) => err instanceof UserError && /--format babilong: no BABILong prediction CSVs/.test(err.message),
    );
  });
});

describe("read_csv's rules (pandas' defaults, as pandas 2.2 reads these texts)", () => {
  it('quoted fields keep commas, doubled quotes and line breaks; blank and white-space lines are no rows', () => {
    const text = 'a,b\r\n1,"x, ""y""\nz"\n\n   \n2,"q"r\n';
    assert.deepEqual(
      csvRecords(text).map((r) => [r.line, r.fields]),
      [
        [1, ['a', 'b']],
        [2, ['1', 'x, "y"\nz']],
        [6, ['2', 'qr']],
      ],
    );
  });

  it("pandas' missing-value strings read as '' (None among them); a header one short names an index column", () => {
    const rows = readPredictionCsv('f.csv', 'target,output,question\n0,none,None,Q?\n1,one,NA,Q?\n2,two,two,Q?\n');
    assert.deepEqual(
      rows.map((r) => [r.target, r.output, r.question]),
      [
        ['none', '', 'Q?'],
        ['one', '', 'Q?'],
        ['two', 'two', 'Q?'],
      ],
    );
    assert.throws(() => readPredictionCsv('f.csv', ',target,output\n0,a,b\n'), /f\.csv: no 'question' column/);
  });
});

describe('a published CSV without its question column (Yukang/LongAlpaca-13B)', () => {
  it('collect_results.py stopped on it; bench score exits 2 with one line naming the file, and writes nothing', async () => {
    assert.match(expected.refused[0].error, /KeyError: 'question'/);
    const dir = join(FIXTURE, 'missing-column');
    const before = dirFingerprint(dir);
    const r = await runBench(['score', dir]);
    assertOneLine(
      r,
      2,
      /qa1_0k_instruction_no_examples_no_post_prompt_no_system_prompt_yes\.csv: no 'question' column/,
    );
    assert.equal(r.stdout, '');
    assert.equal(dirFingerprint(dir), before);
  });
});

describe('bench export --format babilong', () => {
  let root: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'bench-babilong-export-'));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it("writes a model folder of CSVs and prompt .json that bench score reads back as the run's scores", async () => {
    const run = join(root, 'run');
    const ran = await runBench([
      'run',
      'qa1,qa8',
      '--lengths',
      '0k,1k',
      '--samples',
      '3',
      '--no-progress',
      '--out',
      run,
    ]);
    assert.equal(ran.code, 0, ran.stderr);
    // One reply that pandas would read as missing: the export must keep it a string.
    const samples = join(run, 'samples.jsonl');
    const lines = readFileSync(samples, 'utf8').trimEnd().split('\n');
    const first = JSON.parse(lines[0]) as Record<string, unknown>;
    lines[0] = JSON.stringify({ ...first, rawOutput: 'None' });
    writeFileSync(samples, lines.join('\n') + '\n');

    const out = join(root, 'export');
    const exported = await runBench(['export', run, '--format', 'babilong', '--out', out]);
    assert.equal(exported.code, 0, exported.stderr);
    assert.match(exported.stdout, /python -m babilong\.collect_results --model_name \S+ --evals_path/);
    const [name] = readdirSync(out).filter((f) => !f.startsWith('.'));
    const files = readdirSync(join(out, name)).sort();
    assert.deepEqual(
      files.filter((f) => f.endsWith('.csv')),
      [
        'qa1_0k_instruction_yes_examples_yes_post_prompt_yes.csv',
        'qa1_1k_instruction_yes_examples_yes_post_prompt_yes.csv',
        'qa8_0k_instruction_yes_examples_yes_post_prompt_yes.csv',
        'qa8_1k_instruction_yes_examples_yes_post_prompt_yes.csv',
      ],
    );
    for (const csv of files.filter((f) => f.endsWith('.csv'))) {
      const text = readFileSync(join(out, name, csv), 'utf8');
      assert.equal(text.split('\n')[0], ',target,output,question');
      const json = JSON.parse(readFileSync(join(out, name, csv.replace('.csv', '.json')), 'utf8')) as {
        prompt: Record<string, string>;
      };
      assert.ok(json.prompt.instruction.length > 0 && json.prompt.template.includes('{context}'));
    }
    const task = String(first.task);
    const csvOf = files.find((f) => f.startsWith(`${task}_${String(first.lengthLabel)}_`))!;
    const back = readPredictionCsv(csvOf, readFileSync(join(out, name, csvOf), 'utf8'));
    assert.ok(
      back.some((r) => r.output === 'None '),
      'the reply None is exported as a string',
    );

    const ours = await scoreTarget(run);
    const theirs = await scoreTarget(join(out, name));
    assert.equal(theirs.format, 'babilong');
    assert.equal(theirs.rows.length, ours.rows.length);
    for (const r of ours.rows) {
      const t = theirs.rows.find((x) => x.task === r.task && x.lengthLabel === r.lengthLabel);
      assert.ok(t, `no exported cell for ${r.task} ${r.lengthLabel}`);
      assert.deepEqual([t.n, correct(t)], [r.n, correct(r)], `${r.task} ${r.lengthLabel}`);
    }
    assert.ok(existsSync(join(out, '.bench-export.json')));
  });
});

// The fixture is real published data: a copy keeps its licence beside it.
it('the fixture keeps its licence and attribution', () => {
  assert.match(readFileSync(join(FIXTURE, 'LICENSE'), 'utf8'), /Apache License\s+Version 2\.0/);
  assert.match(readFileSync(join(FIXTURE, 'README.md'), 'utf8'), /booydar\/babilong/);
});
