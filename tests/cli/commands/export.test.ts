// bench export: the exact file layouts the peers' own scorers read (RULER scripts/eval/evaluate.py, LongBench eval.py,
// MemAgent taskutils/memory_eval/visualize.py), and the round trip: `bench score` of the export gives the run's own
// scores per task × length (errored and truncated samples included, as failed generations).
import { afterAll as after, beforeAll as before, describe, it } from 'vitest';
import assert from 'node:assert/strict';
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parseCli } from '../../../cli/parse.js';
import { helpText } from '../../../cli/help.js';
import { builtinCatalog, FAMILIES } from '../../../generators/index.js';
import type { ExportLayout } from '../../../harness/formats/export-layout.js';
import { Catalog, type Family } from '../../../harness/registry/family.js';
import {
  EXPORT_OWNERS,
  exportName,
  exportRun,
  type ExportFormat,
  type ExportResult,
} from '../../../cli/commands/export.js';
import { scoreTarget, type ScoreRow } from '../../../cli/commands/score.js';
import { UserError } from '../../../harness/errors.js';
import { createLocalModel } from '../../../reference/local-model.js';
import { LONGBENCH_METRICS } from '../../../generators/longbench/protocol.js';
import { executeRun } from '../../../harness/runner/runner.js';
import { runHooks } from '../../../cli/run-hooks.js';
import { RULER_TASKS } from '../../../generators/ruler/score-source.js';
import type { SampleRecord } from '../../../harness/types.js';
import { summarize } from '../../../reports/summary.js';
import { longbenchReportFacet } from '../../../generators/longbench/report-facet.js';
import { assertOneLine, runBench } from '../../helpers/cli.js';

/** The export folder's entries the peer tool reads: all but bench export's own record of which run wrote what. */
const peerFiles = (out: string) => {
  const names = readdirSync(out);
  assert.ok(names.includes(EXPORT_OWNERS), `${out} has no ${EXPORT_OWNERS}`);
  return names.filter((f) => f !== EXPORT_OWNERS);
};

const catalog = builtinCatalog();

let root: string;
const runs = { niah: '', hqaDocs: '', hqaTokens: '', longbench: '', longbenchE: '' };

async function run(out: string, args: string[]): Promise<void> {
  const cmd = parseCli(['run', ...args, '--no-progress', '--workers', '1', '--out', out]);
  if (cmd.command !== 'run') throw new Error('not a run command');
  const result = await executeRun(cmd.config, {
    ...runHooks(catalog),
    createModel: async (_c, tokenizer) => createLocalModel(tokenizer),
  });
  assert.ok(result.kind === 'finished' && !result.interrupted);
}

function lines(file: string): Array<Record<string, unknown>> {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

function records(dir: string): SampleRecord[] {
  const latest = new Map<string, SampleRecord>();
  for (const r of lines(join(dir, 'samples.jsonl')) as unknown as SampleRecord[]) {
    latest.delete(`${r.id}#${r.method}`);
    latest.set(`${r.id}#${r.method}`, r);
  }
  return [...latest.values()];
}

/**
 * A copy of a run where, as a resumed run would append them, one sample ends in error (no output) and one is
 * truncated although its reply holds the right answer: the run scores both 0.
 */
function withFailures(dir: string, name: string): string {
  const to = join(root, name);
  cpSync(dir, to, { recursive: true });
  const [a, b] = records(dir).filter((r) => r.status === 'ok' && r.score > 0);
  const failed: SampleRecord[] = [
    {
      ...a,
      status: 'error',
      error: 'HTTP 500 after 5 attempts',
      prediction: null,
      rawOutput: '',
      score: 0,
      scores: {},
    },
    { ...b, status: 'truncated', error: 'context length exceeded', score: 0, scores: {} },
  ];
  appendFileSync(join(to, 'samples.jsonl'), failed.map((r) => JSON.stringify(r) + '\n').join(''));
  return to;
}

let scratch = 0;
function fresh(): string {
  return join(root, `export-${++scratch}`);
}

function exportTo(runDir: string, format: ExportFormat, tasks?: string[]): ExportResult {
  return exportRun({ runDir, format, out: fresh(), tasks }, catalog);
}

/** n and score of each row, by a key the caller builds from the row. */
function byKey(rows: ScoreRow[], key: (r: ScoreRow) => string): Map<string, [number, number | null]> {
  const m = new Map<string, [number, number | null]>();
  for (const r of rows) {
    const k = key(r);
    assert.ok(!m.has(k), `two rows for ${k}`);
    m.set(k, [r.n, r.percent]);
  }
  return m;
}

async function runScores(runDir: string, task: (t: string) => string): Promise<Map<string, [number, number | null]>> {
  const table = await scoreTarget(runDir);
  return byKey(table.rows, (r) => `${exportName(r)}|${task(r.task)}|${r.lengthLabel}`);
}

before(async () => {
  root = mkdtempSync(join(tmpdir(), 'bench-export-'));
  runs.niah = join(root, 'niah');
  await run(runs.niah, [
    'niah_single_1,niah_multivalue',
    '--lengths',
    '4k,8k',
    '--samples',
    '3',
    '--method',
    'memagent,full-context',
  ]);
  runs.hqaDocs = join(root, 'hqa-docs');
  await run(runs.hqaDocs, ['ruler-hqa', '--lengths', 'docs:50', '--samples', '6']);
  runs.hqaTokens = join(root, 'hqa-tokens');
  await run(runs.hqaTokens, ['ruler-hqa', '--lengths', '8k', '--samples', '4']);
  runs.longbench = join(root, 'longbench');
  await run(runs.longbench, ['longbench/hotpotqa,longbench/multi_news', '--samples', '6']);
  // LongBench-E: the data of <dataset>_e.jsonl, whose rows name the dataset `hotpotqa_e`.
  const edata = join(root, 'edata');
  mkdirSync(edata);
  const fixture = readFileSync(join('datasets', 'longbench', 'fixtures', 'hotpotqa.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean);
  writeFileSync(
    join(edata, 'hotpotqa_e.jsonl'),
    fixture.map((l) => JSON.stringify({ ...(JSON.parse(l) as object), dataset: 'hotpotqa_e' }) + '\n').join(''),
  );
  runs.longbenchE = join(root, 'longbench-e');
  await run(runs.longbenchE, ['longbench/hotpotqa', '--data', edata, '--samples', '24']);
});

after(() => rmSync(root, { recursive: true, force: true }));

describe('--format ruler: RULER scripts/eval/evaluate.py --data_dir <out>/<name>/synthetic/<length>/pred', () => {
  it("writes <task>.jsonl per task under one pred/ folder per length, with call_api.py's fields", () => {
    const res = exportTo(runs.niah, 'ruler');
    const names = ['local_reference-reader-v1__memagent', 'local_reference-reader-v1__full-context'];
    assert.deepEqual([...res.names].sort(), [...names].sort());
    for (const name of names) {
      // scripts/run.sh: RESULTS_DIR=<root>/<model>/<benchmark>/<MAX_SEQ_LENGTH>, PRED_DIR=$RESULTS_DIR/pred.
      assert.deepEqual(readdirSync(join(res.out, name)), ['synthetic']);
      assert.deepEqual(readdirSync(join(res.out, name, 'synthetic')).sort(), ['4096', '8192']);
      for (const length of ['4096', '8192']) {
        const pred = join(res.out, name, 'synthetic', length, 'pred');
        const files = readdirSync(pred).sort();
        assert.deepEqual(files, ['niah_multivalue.jsonl', 'niah_single_1.jsonl']);
        for (const f of files) {
          // evaluate.py looks for f'{task}.jsonl' for each task of synthetic.yaml, and aggregate_chunk() would merge
          // and delete files named like chunks (`.*[^_]+-\d+\.jsonl`).
          assert.ok(RULER_TASKS.includes(f.replace(/\.jsonl$/, '')));
          assert.ok(!/.*[^_]+-\d+\.jsonl/.test(f));
          const rows = lines(join(pred, f));
          assert.deepEqual(
            rows.map((r) => r.index),
            [0, 1, 2],
          );
          for (const r of rows) {
            assert.deepEqual(Object.keys(r), ['index', 'pred', 'input', 'outputs', 'others', 'truncation', 'length']);
            assert.equal(typeof r.pred, 'string');
            assert.ok(Array.isArray(r.outputs) && (r.outputs as unknown[]).every((o) => typeof o === 'string'));
            // evaluate.py: line['others'].get('id', line['index'])
            assert.deepEqual(r.others, {});
            assert.ok((r.length as number) <= Number(length) && (r.length as number) > 0);
          }
        }
      }
    }
    assert.equal(res.files.length, 8);
    assert.equal(res.rows, 24);
  });

  it("bench score on each pred folder gives the run's scores per task × length, failures included", async () => {
    const failing = withFailures(runs.niah, 'niah-failing');
    const res = exportTo(failing, 'ruler');
    assert.deepEqual([res.errors, res.truncated], [1, 1]);
    const want = await runScores(failing, (t) => t);
    const got = new Map<string, [number, number | null]>();
    for (const name of res.names) {
      for (const length of readdirSync(join(res.out, name, 'synthetic'))) {
        const table = await scoreTarget(join(res.out, name, 'synthetic', length, 'pred'));
        assert.equal(table.format, 'ruler');
        for (const [k, v] of byKey(table.rows, (r) => `${r.model}|${r.task}|${r.lengthLabel}`)) got.set(k, v);
      }
    }
    assert.equal(got.size, 8);
    assert.deepEqual(got, want);
    // The failed samples are empty predictions there (evaluate.py's "nulls").
    const empties = res.files.reduce((n, f) => n + f.failed, 0);
    assert.equal(empties, 2);
  });
});

describe('--format memagent: MemAgent taskutils/memory_eval/visualize.py over results/ruler_hqa*/*.jsonl', () => {
  it("RULER-HQA by document count: results/ruler_hqa_<N>/<name>.jsonl with ruler_hqa.py's fields", () => {
    const res = exportTo(runs.hqaDocs, 'memagent');
    const name = 'local_reference-reader-v1__memagent';
    assert.deepEqual(peerFiles(res.out), ['results']);
    assert.deepEqual(readdirSync(join(res.out, 'results')), ['ruler_hqa_50']);
    // visualize.py: glob(results/ruler_hqa*/*.jsonl); Dataset = the folder, Method = the file name without .jsonl.
    assert.deepEqual(readdirSync(join(res.out, 'results', 'ruler_hqa_50')), [`${name}.jsonl`]);
    const rows = lines(join(res.out, 'results', 'ruler_hqa_50', `${name}.jsonl`));
    assert.deepEqual(
      rows.map((r) => r._id),
      [0, 1, 2, 3, 4, 5],
    );
    const recs = new Map(records(runs.hqaDocs).map((r) => [r.index, r]));
    for (const r of rows) {
      assert.deepEqual(Object.keys(r), [
        'input',
        'answers',
        'num_docs',
        'index',
        '_id',
        'response',
        'answer',
        'pred',
        'judge_f1',
        'judge_em',
        'judge_sub_em',
      ]);
      const rec = recs.get(r.index as number)!;
      assert.equal(r.num_docs, 50);
      assert.equal(r.answer, rec.answers[0]);
      assert.equal(r.pred, rec.prediction, 'the extracted answer');
      assert.equal(r.judge_sub_em, rec.score);
      // visualize.py averages the numeric judge_sub_em of every line.
      assert.equal(typeof r.judge_sub_em, 'number');
    }
  });

  it('bench score on results/ equals the run, and the stored judge_sub_em agrees (HQA by docs and by tokens, NIAH)', async () => {
    for (const [dir, folders] of [
      [runs.hqaDocs, ['ruler_hqa_50']],
      [runs.hqaTokens, ['ruler_hqa_8k']],
      [
        runs.niah,
        [
          'ruler_niah_multivalue_4096',
          'ruler_niah_multivalue_8192',
          'ruler_niah_single_1_4096',
          'ruler_niah_single_1_8192',
        ],
      ],
    ] as const) {
      const failing = withFailures(dir, `${basename(dir)}-failing-m`);
      const res = exportTo(failing, 'memagent');
      assert.deepEqual(readdirSync(join(res.out, 'results')).sort(), [...folders]);
      const table = await scoreTarget(join(res.out, 'results'));
      assert.equal(table.format, 'memagent');
      const got = byKey(table.rows, (r) => `${r.model}|${r.task}|${r.lengthLabel}`);
      const want = await runScores(failing, (t) => (t === 'ruler-hqa' ? 'ruler_hqa' : t));
      assert.deepEqual(got, want);
      for (const r of table.rows) assert.equal(r.reference, r.percent, `${r.task} ${r.lengthLabel}: mean judge_sub_em`);
      assert.ok(!table.warnings.some((w) => /differs from the stored pred/.test(w)), table.warnings.join('\n'));
      // Failed samples stay in the file (MemAgent's driver would leave them out), with no answer and judges 0.
      const failed = res.files.flatMap((f) => lines(f.path)).filter((r) => r.response === '');
      assert.equal(failed.length, 2);
      for (const r of failed) assert.deepEqual([r.pred, r.judge_sub_em], [null, 0]);
    }
  });
});

describe('--format longbench: LongBench eval.py --model <name> [--e], run in <out>', () => {
  it("pred/<name>/<dataset>.jsonl with pred.py's fields and the extracted answer as pred", () => {
    const res = exportTo(runs.longbench, 'longbench');
    const name = 'local_reference-reader-v1__memagent';
    assert.deepEqual(peerFiles(res.out), ['pred']);
    assert.deepEqual(readdirSync(join(res.out, 'pred')), [name]);
    const files = readdirSync(join(res.out, 'pred', name)).sort();
    assert.deepEqual(files, ['hotpotqa.jsonl', 'multi_news.jsonl']);
    const recs = records(runs.longbench);
    for (const f of files) {
      // eval.py: dataset = filename.split('.')[0], scored with dataset2metric[dataset].
      const dataset = f.split('.')[0];
      assert.ok(dataset in LONGBENCH_METRICS);
      const rows = lines(join(res.out, 'pred', name, f));
      const mine = recs.filter((r) => r.task === `longbench/${dataset}`).sort((a, b) => a.index - b.index);
      assert.equal(rows.length, mine.length);
      rows.forEach((r, k) => {
        assert.deepEqual(Object.keys(r), ['pred', 'answers', 'all_classes', 'length']);
        assert.equal(r.pred, mine[k].prediction);
        assert.deepEqual(r.answers, mine[k].answers);
        assert.equal(r.length, mine[k].metadata.length);
        assert.equal(r.all_classes, null);
      });
    }
  });

  it('bench score on pred/<name> equals the run per dataset, failures included', async () => {
    const failing = withFailures(runs.longbench, 'longbench-failing');
    const res = exportTo(failing, 'longbench');
    const table = await scoreTarget(join(res.out, 'pred', res.names[0]));
    assert.equal(table.format, 'longbench');
    const got = byKey(table.rows, (r) => `${r.model}|${r.task}|${r.lengthLabel}`);
    assert.deepEqual(got, await runScores(failing, (t) => t.replace(/^longbench\//, '')));
    assert.equal(res.errors + res.truncated, 2);
  });

  it("LongBench-E rows go to pred_e/<name>/<dataset>.jsonl (without _e); bench score gives the run's E buckets", async () => {
    const res = exportTo(runs.longbenchE, 'longbench');
    const name = res.names[0];
    assert.deepEqual(peerFiles(res.out), ['pred_e']);
    assert.deepEqual(readdirSync(join(res.out, 'pred_e', name)), ['hotpotqa.jsonl']);
    const table = await scoreTarget(join(res.out, 'pred_e', name));
    const got = byKey(table.rows, (r) => r.lengthLabel);
    const buckets = summarize(records(runs.longbenchE), [longbenchReportFacet]).filter(
      (r) => r.lengthKind === 'bucket',
    );
    assert.deepEqual([...got.keys()], ['0-4k', '4-8k', '8k+']);
    assert.deepEqual(got, new Map(buckets.map((b) => [b.lengthLabel, [b.n, b.scoreX100]])));
  });
});

describe('refusals', () => {
  const refuses = (fn: () => unknown, message: RegExp) =>
    assert.throws(fn, (e: unknown) => {
      assert.ok(e instanceof UserError, `not a UserError: ${e}`);
      assert.match(e.message, message);
      assert.ok(!e.message.includes('\n'));
      return true;
    });

  it("a format that does not fit the run's tasks is one line naming them and the format that fits", () => {
    const out = fresh();
    refuses(
      () => exportRun({ runDir: runs.longbench, format: 'memagent', out }, catalog),
      /--format memagent takes ruler-hqa and the RULER tasks.*longbench\/hotpotqa.*use --format longbench for longbench\/hotpotqa/,
    );
    refuses(
      () => exportRun({ runDir: runs.hqaDocs, format: 'ruler', out }, catalog),
      /--format ruler takes RULER's tasks .*ruler-hqa \(not one of RULER's tasks\).*--format memagent for ruler-hqa/,
    );
    refuses(
      () => exportRun({ runDir: runs.niah, format: 'longbench', out }, catalog),
      /--format longbench takes LongBench datasets .*this run has niah_single_1 .*use --format ruler or memagent for niah_single_1/,
    );
    refuses(
      () => exportRun({ runDir: runs.niah, format: 'ruler', out, tasks: ['ruler-hqa'] }, catalog),
      /--tasks: ruler-hqa not in this run \(its tasks: /,
    );
    refuses(() => exportRun({ runDir: join(root, 'nope'), format: 'ruler', out }, catalog), /not a run directory/);
    assert.ok(!existsSync(out), 'nothing written');
  });

  it('--tasks exports the tasks that fit', () => {
    const res = exportTo(runs.niah, 'ruler', ['niah_single_1']);
    assert.deepEqual([...new Set(res.files.map((f) => f.task))], ['niah_single_1']);
  });
});

describe('bench export (CLI)', () => {
  it('prints the files, the count of failed samples and the peer command; refuses a misfit with one line', async () => {
    const failing = withFailures(runs.niah, 'niah-failing-cli');
    const out = fresh();
    const r = await runBench(['export', failing, '--format', 'ruler', '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /wrote 24 samples in 8 files under .* in RULER's layout/);
    assert.match(
      r.stdout,
      /2 of 24 samples ended in error \(1\) or truncated \(1\): written as a failed generation \(empty pred\)/,
    );
    assert.match(
      r.stdout,
      /python scripts\/eval\/evaluate\.py --data_dir .*\/synthetic\/4096\/pred --benchmark synthetic/,
    );
    const bad = fresh();
    assertOneLine(
      await runBench(['export', runs.longbench, '--format', 'memagent', '--out', bad]),
      2,
      /^bench: --format memagent takes /,
    );
    assert.ok(!existsSync(bad));
    assertOneLine(
      await runBench(['export', runs.niah, '--out', bad]),
      2,
      /needs --format ruler, longbench, longbench-v2, memagent or babilong/,
    );
  });
});

describe('a layout registered by a family outside the built-in ones', () => {
  it('is a --format of parse, help and exportRun: rows in data order per file, misfits refused with its words', () => {
    const toy: ExportLayout = {
      name: 'toy',
      rank: 5,
      label: 'Toy',
      reader: "Toy's score.py",
      help: 'DIR/<task>/<length>.jsonl   (toy score.py)',
      fits: 'tasks at token lengths',
      misfit: (r) => (r.lengthKind === 'tokens' ? null : 'not at a token length'),
      place: (r) => ({
        rel: join(r.task, `${r.lengthLabel}.jsonl`),
        row: [
          ['i', r.index],
          ['method', r.method],
        ],
      }),
      peerCommands: (result) => [`toy score.py ${result.out}`],
    };
    const family: Family = { name: 'toy', tasks: [], exportLayouts: [toy] };
    const withToy = new Catalog([...FAMILIES, family]);
    assert.deepEqual(withToy.exportFormats(), ['toy', 'ruler', 'longbench', 'longbench-v2', 'memagent', 'babilong']);
    const cmd = parseCli(['export', runs.niah, '--format', 'toy', '--out', 'o'], {}, withToy);
    assert.equal(cmd.command === 'export' && cmd.format, 'toy');
    assert.throws(
      () => parseCli(['export', runs.niah, '--format', 'toy', '--out', 'o'], {}, catalog),
      /--format ruler, longbench/,
    );
    const help = helpText('export', withToy);
    assert.match(
      help,
      /^Usage: bench export <run-dir> --format toy\|ruler\|longbench\|longbench-v2\|memagent\|babilong /m,
    );
    assert.match(help, /^ {2}toy {11}DIR\/<task>\/<length>\.jsonl/m);
    assert.match(helpText(undefined, withToy), /in the layout Toy's score\.py \(toy\), RULER's evaluate\.py/);

    const result = exportRun({ runDir: runs.niah, format: 'toy', out: fresh() }, withToy);
    const expected = records(runs.niah);
    assert.equal(result.rows, expected.length);
    for (const f of result.files) {
      const rows = lines(f.path);
      assert.equal(rows.length, f.rows);
      const own = expected.filter((r) => r.task === f.task && r.lengthLabel === f.lengthLabel);
      assert.deepEqual(
        rows.map((r) => r.i),
        own.map((r) => r.index).sort((a, b) => a - b),
      );
    }
    assert.throws(
      () => exportRun({ runDir: runs.hqaDocs, format: 'toy', out: fresh() }, withToy),
      (e: unknown) =>
        e instanceof UserError &&
        /^--format toy takes tasks at token lengths; this run has ruler-hqa \(not at a token length\) \(use --format memagent for ruler-hqa\)$/.test(
          e.message,
        ),
    );
  });
});
