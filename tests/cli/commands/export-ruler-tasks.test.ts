// bench export of RULER's vt, fwe and qa tasks: RULER's pred layout for evaluate.py, MemAgent's results layout for
// ruler_general.py's fields (judge_em and judge_f1 beside judge_sub_em for qa), and bench score of each export gives
// the run's own scores (MemAgent's flavour: memagent_niah / sub_em; RULER's flavour: string_match_all / _part).
import { afterAll, beforeAll, describe, it } from 'vitest';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCli } from '../../../cli/parse.js';
import { exportRun } from '../../../cli/commands/export.js';
import { scoreTarget } from '../../../cli/commands/score.js';
import { builtinCatalog } from '../../../generators/index.js';
import { createLocalModel } from '../../../reference/local-model.js';
import { executeRun } from '../../../harness/runner/runner.js';
import { runHooks } from '../../../cli/run-hooks.js';
import type { SampleRecord } from '../../../harness/types.js';
import { summarize } from '../../../reports/summary.js';

const catalog = builtinCatalog();
let root: string;
const runs = { memagent: '', ruler: '' };
const NAME = 'local_reference-reader-v1__memagent';

async function run(out: string, args: string[]): Promise<void> {
  const cmd = parseCli(['run', ...args, '--no-progress', '--workers', '1', '--out', out]);
  if (cmd.command !== 'run') throw new Error('not a run command');
  const result = await executeRun(cmd.config, {
    ...runHooks(catalog),
    createModel: async (_c, t) => createLocalModel(t),
  });
  assert.ok(result.kind === 'finished' && !result.interrupted);
}

const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** Our run's percent per task × length (the summary's score ×100, 2 decimals). */
function runPercents(dir: string): Map<string, number> {
  const recs = lines(join(dir, 'samples.jsonl')) as unknown as SampleRecord[];
  return new Map(summarize(recs, []).map((r) => [`${r.task}|${r.lengthLabel}`, Math.round(r.score * 10000) / 100]));
}

describe('export of vt, fwe, qa_1', () => {
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'bench-export-ruler-'));
    runs.memagent = join(root, 'memagent');
    runs.ruler = join(root, 'ruler');
    const common = ['vt,fwe,qa_1', '--lengths', '8k', '--samples', '3', '--method', 'memagent'];
    await run(runs.memagent, common);
    await run(runs.ruler, [...common, '--flavour', 'ruler']);
  }, 300_000);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("MemAgent's layout: results/ruler_<task>_<tokens>/, qa lines with judge_em and judge_f1", async () => {
    const res = exportRun({ runDir: runs.memagent, format: 'memagent', out: join(root, 'm') }, catalog);
    assert.deepEqual(readdirSync(join(res.out, 'results')).sort(), [
      'ruler_fwe_8192',
      'ruler_qa_1_8192',
      'ruler_vt_8192',
    ]);
    const qa = lines(join(res.out, 'results', 'ruler_qa_1_8192', `${NAME}.jsonl`));
    for (const r of qa) {
      assert.deepEqual(Object.keys(r), [
        'index',
        'input',
        '_id',
        'response',
        'answer',
        'pred',
        'judge_sub_em',
        'judge_em',
        'judge_f1',
      ]);
      assert.ok(Array.isArray(r.answer));
      for (const k of ['judge_em', 'judge_f1']) assert.equal(typeof r[k], 'number');
    }
    const vt = lines(join(res.out, 'results', 'ruler_vt_8192', `${NAME}.jsonl`));
    assert.deepEqual(Object.keys(vt[0]), [
      'index',
      'input',
      'length',
      '_id',
      'response',
      'answer',
      'pred',
      'judge_sub_em',
    ]);
    const table = await scoreTarget(join(res.out, 'results'));
    const want = runPercents(runs.memagent);
    for (const r of table.rows) {
      assert.equal(r.percent, want.get(`${r.task}|${r.lengthLabel}`), `${r.task} ${r.metric}`);
      assert.equal(r.reference, r.percent, `${r.task}: mean judge_sub_em`);
    }
    assert.deepEqual(table.rows.map((r) => r.metric).sort(), ['memagent_niah', 'memagent_niah', 'sub_em']);
  });

  it("RULER's layout: <name>/synthetic/<tokens>/pred/<task>.jsonl, and RULER's rule gives the RULER-flavour run's scores", async () => {
    const res = exportRun({ runDir: runs.ruler, format: 'ruler', out: join(root, 'r') }, catalog);
    const pred = join(res.out, NAME, 'synthetic', '8192', 'pred');
    assert.deepEqual(readdirSync(pred).sort(), ['fwe.jsonl', 'qa_1.jsonl', 'vt.jsonl']);
    const table = await scoreTarget(pred);
    const want = runPercents(runs.ruler);
    assert.deepEqual(table.rows.map((r) => [r.task, r.metric, r.percent]).sort(), [
      ['fwe', 'string_match_all', want.get('fwe|8k')],
      ['qa_1', 'string_match_part', want.get('qa_1|8k')],
      ['vt', 'string_match_all', want.get('vt|8k')],
    ]);
  });
});
