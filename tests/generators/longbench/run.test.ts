// End to end in one process: the runner, the embedded reference reader and both methods on the bundled fixtures.
// The run gets a catalog of the LongBench family alone, so the test does not depend on the CLI's task list.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCli } from '../../../cli/parse.js';
import { createLocalModel } from '../../../reference/local-model.js';
import { executeRun } from '../../../harness/runner/runner.js';
import { describeEvent, describeOutcome } from '../../../cli/commands/run.js';
import { summaryWriter } from '../../../cli/run-hooks.js';
import { Catalog } from '../../../harness/registry/family.js';
import { longbenchFamily } from '../../../generators/longbench/family.js';

const catalog = new Catalog([longbenchFamily]);

test('bench run longbench-qa,longbench-sum with memagent and full-context on the fixtures: missing datasets skipped once each', async () => {
  const out = join(mkdtempSync(join(tmpdir(), 'longbench-run-')), 'run');
  const cmd = parseCli([
    'run',
    'longbench-qa,longbench-sum',
    '--method',
    'memagent,full-context',
    '--samples',
    '6',
    '--workers',
    '1',
    '--no-progress',
    '--no-cache',
    '--out',
    out,
  ]);
  assert.equal(cmd.command, 'run');
  if (cmd.command !== 'run') return;
  const log: string[] = [];
  const result = await executeRun(cmd.config, {
    catalog,
    writeSummary: summaryWriter(catalog.reportFacets.all()),
    onEvent: (e) => log.push(describeEvent(e)),
    createModel: async (_c, tokenizer) => createLocalModel(tokenizer),
  });
  assert.equal(result.kind, 'finished');
  assert.equal(describeOutcome(result).exitCode, 0);
  const skipped = log.filter((l) => l.startsWith('skipping '));
  assert.deepEqual(
    skipped.map((l) => l.split(':')[0]).sort(),
    ['2wikimqa', 'gov_report', 'musique', 'narrativeqa', 'qasper', 'multifieldqa_en', 'qmsum']
      .map((d) => `skipping longbench/${d}`)
      .sort(),
  );
  for (const l of skipped) assert.match(l, /pass --data DIR with LongBench's \S+\.jsonl/);
  const records = readFileSync(join(out, 'samples.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.equal(records.length, 6 * 2 + 5 * 2); // hotpotqa capped at --samples 6, multi_news has 5 rows; two methods
  for (const r of records) {
    assert.equal(r.status, 'ok', `${r.id} ${r.method}: ${r.error}`);
    assert.equal(r.lengthKind, 'native');
    assert.equal(r.lengthLabel, 'all');
    assert.equal(r.metric, r.task === 'longbench/hotpotqa' ? 'qa_f1' : 'rouge_l_f');
    assert.ok(r.score >= 0 && r.score <= 1);
    assert.ok(['0-4k', '4-8k', '8k+'].includes(r.metadata.longbench_e_bucket));
    if (r.method === 'memagent') assert.equal(r.calls, Math.ceil(r.builtTokens / 5000) + 1, r.id);
    else assert.equal(r.calls, 1);
  }
  const mean = (task: string, method: string) => {
    const rs = records.filter((r) => r.task === task && r.method === method);
    return rs.reduce((n, r) => n + r.score, 0) / rs.length;
  };
  const means = Object.fromEntries(
    ['memagent', 'full-context'].flatMap((m) =>
      ['longbench/hotpotqa', 'longbench/multi_news'].map((t) => [`${t} ${m}`, mean(t, m)]),
    ),
  );
  console.log(JSON.stringify(means));
  // The reference reader finds short answers in the passages and copies source sentences for summaries.
  assert.ok(mean('longbench/multi_news', 'full-context') > 0.05, 'full-context summaries overlap the gold');
  assert.ok(
    Object.values(means).some((v) => v > 0),
    'every method scored 0 everywhere',
  );
});
