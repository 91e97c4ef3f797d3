// RULER's suites and the vt/cwe/fwe/qa tasks through the real binary: the `ruler` suite's grid (qa_1 left out above
// 256K with a note), qa_1 alone above 256K refused in one line, the flavour in the manifest and in `bench tasks`,
// a qa task without its dataset, and samples scored with the flavour's metric.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertOneLine, runBench } from '../../helpers/cli.js';

const tmp = (p: string) => mkdtempSync(join(tmpdir(), p));

test('bench run ruler: MemAgent’s 11 subsets, qa_1 only up to 256k (noted); qa_1 alone at 512k is refused', async () => {
  const r = await runBench(['run', 'ruler', '--lengths', '256k,512k', '--samples', '1', '--dry-run']);
  assert.equal(r.code, 0, r.stderr);
  const grids = r.stdout.split('\n').filter((l) => /: lengths /.test(l));
  assert.equal(grids.length, 11);
  assert.match(r.stdout, /^vt: lengths 256k, 512k/m);
  assert.match(r.stdout, /^fwe: lengths 256k, 512k/m);
  assert.match(r.stdout, /^qa_1: lengths 256k \(1 points?\)/m);
  assert.doesNotMatch(r.stdout, /^(cwe|qa_2):/m);
  assert.match(r.stdout + r.stderr, /note: qa_1 runs up to 256k: skipping it at 512k/);

  const alone = await runBench(['run', 'qa_1', '--lengths', '128k,512k', '--samples', '1', '--out', tmp('rt-qa1-')]);
  assertOneLine(
    alone,
    2,
    /^bench: qa_1 runs up to 256k, not 512k: MemAgent's OOD grid .*; ask for lengths up to 256k$/,
  );
  // RULER's flavour repeats the pool and runs it at any length.
  const ruler = await runBench([
    'run',
    'qa_1',
    '--lengths',
    '512k',
    '--samples',
    '1',
    '--flavour',
    'ruler',
    '--dry-run',
  ]);
  assert.equal(ruler.code, 0, ruler.stderr);
  assert.match(ruler.stdout, /^qa_1: lengths 512k/m);

  const all = await runBench(['run', 'ruler-all', '--lengths', '8k', '--samples', '1', '--dry-run']);
  assert.equal(all.code, 0, all.stderr);
  assert.equal(all.stdout.split('\n').filter((l) => /: lengths /.test(l)).length, 13);
});

test('a run records each task’s flavour and metric in the manifest; bench tasks lists the flavours', async () => {
  const out = tmp('rt-flavour-');
  const r = await runBench([
    'run',
    'vt,cwe,fwe,qa_1,qa_2',
    '--lengths',
    '4k',
    '--samples',
    '2',
    '--flavour',
    'ruler',
    '--method',
    'full-context',
    '--no-progress',
    '--out',
    out,
  ]);
  assert.equal(r.code, 0, r.stderr);
  const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
  assert.deepEqual(
    manifest.tasks.map((t: { name: string; metric: string; flavour: string }) => [t.name, t.flavour, t.metric]),
    [
      ['vt', 'ruler', 'string_match_all'],
      ['cwe', 'ruler', 'string_match_all'],
      ['fwe', 'ruler', 'string_match_all'],
      ['qa_1', 'ruler', 'string_match_part'],
      ['qa_2', 'ruler', 'string_match_part'],
    ],
  );
  assert.equal(manifest.identity.options.flavour, 'ruler');
  const records = readFileSync(join(out, 'samples.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  // The reference reader answers RULER's own vt prompt from the text (the chain followed in the lines).
  for (const rec of records.filter((x) => x.task === 'vt')) assert.equal(rec.score, 1, rec.prediction);
  assert.ok(records.every((x) => x.metric === (x.task.startsWith('qa') ? 'string_match_part' : 'string_match_all')));

  const t = await runBench(['tasks']);
  assert.equal(t.code, 0);
  assert.match(
    t.stdout,
    /^vt .*top-p 0\.95; --flavour memagent \(default\): memagent_niah, ruler: string_match_all\]$/m,
  );
  assert.match(t.stdout, /^qa_1 .*\[group ruler, ruler-all; lengths 8k\.\.256k, 128 samples, sub_em, .*ruler: string_match_part\]$/m);
});

test('bad input: a qa task without its dataset, a bad --flavour, --data for a task that reads none', async () => {
  const missing = await runBench(['run', 'qa_1', '--lengths', '8k', '--data', join(tmpdir(), 'no-such-squad.json')]);
  assertOneLine(missing, 2, /no-such-squad\.json/);
  const flavour = await runBench(['run', 'vt', '--lengths', '8k', '--flavour', 'native', '--out', tmp('rt-bad-')]);
  assertOneLine(flavour, 2, /--flavour must be 'memagent' or 'ruler', got 'native'/);
  const dir = tmp('rt-data-');
  const data = await runBench([
    'run',
    'qa_1',
    '--lengths',
    '8k',
    '--data',
    join(process.cwd(), 'package.json'),
    '--out',
    dir,
  ]);
  assertOneLine(data, 2, /package\.json is not SQuAD: expected the SQuAD v2 dev JSON/);
});
