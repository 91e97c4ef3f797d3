// `bench report` shows the paired differences of methods that share sample ids: table, Holm sentence, files, chart.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reportCommand } from '../../cli/commands/report.js';
import { differenceChartConfig } from '../../reports/charts/difference.js';
import { CHART_SIZES } from '../../reports/charts/canvas.js';
import type { SampleRecord } from '../../harness/types.js';
import { record, runDir } from './fixtures.js';
import { pngSize } from './png.js';

function side(
  method: string,
  right: (i: number) => boolean,
  n: number,
  over: Partial<SampleRecord> = {},
): SampleRecord[] {
  return Array.from({ length: n }, (_, i) => record({ method, index: i, score: right(i) ? 1 : 0, ...over }));
}

test('report: paired.csv/json, a markdown and HTML section that says which differences are significant, a difference chart', async () => {
  // 7k: memagent right on 0–29, full-context on 0–9 → 20 discordant pairs all for memagent, p = 2/2^20; 14k: equal.
  const at14k = { lengthLabel: '14k', length: 14336 };
  const dir = runDir([
    ...side('memagent', (i) => i < 30, 40),
    ...side('full-context', (i) => i < 10, 40),
    ...side('memagent', (i) => i < 20, 40, at14k),
    ...side('full-context', (i) => i < 20, 40, at14k),
  ]);
  const out = mkdtempSync(join(tmpdir(), 'bench-paired-report-'));
  const { files, paired } = await reportCommand({ runDirs: [dir], out, onWarning: () => {} });
  assert.equal(paired.length, 2);
  for (const name of [
    'paired.csv',
    'paired.json',
    'charts/difference-ruler-hqa-single.png',
    'charts/difference-ruler-hqa-double.png',
  ]) {
    assert.ok(files.includes(join(out, name)) && existsSync(join(out, name)), name);
  }
  pngSize(readFileSync(join(out, 'charts/difference-ruler-hqa-single.png')));
  const csv = readFileSync(join(out, 'paired.csv'), 'utf8').trim().split('\n');
  assert.equal(
    csv[0],
    'task,length_label,length_kind,length,metric,a,b,a_method,a_model,b_method,b_model,n_a,n_b,shared,score_a_x100,score_b_x100,diff_x100,ci95_low_x100,ci95_high_x100,ci_method,test,p,p_holm,significant',
  );
  assert.match(
    csv[1],
    /^ruler-hqa,7k,tokens,7168,sub_em,full-context,memagent,.*,40,40,40,25\.00,75\.00,50\.00,\d+\.\d\d,\d+\.\d\d,paired-bootstrap,mcnemar-exact,[\d.e-]+,[\d.e-]+,yes$/,
  );
  const json = JSON.parse(readFileSync(join(out, 'paired.json'), 'utf8'));
  assert.equal(json.holmFamily, 2);
  assert.equal(json.rows[0].p, 2 / 2 ** 20);
  const md = readFileSync(join(out, 'summary.md'), 'utf8');
  assert.match(
    md,
    /## Paired differences\n\n\| task \| length \| A \| B \| n \| A ×100 \| B ×100 \| B − A \| 95% CI \| test \| p \| Holm p \| significant \(Holm, α=0\.05\) \|/,
  );
  assert.match(
    md,
    /\| ruler-hqa \| 7K \| full-context \| memagent \| 40 \| 25\.00 \| 75\.00 \| \+50\.00 \| \[\+\d+\.\d\d, \+\d+\.\d\d\] \| McNemar exact \| <0\.0001 \| <0\.0001 \| yes \|/,
  );
  assert.match(
    md,
    /\| ruler-hqa \| 14K \| full-context \| memagent \| 40 \| 50\.00 \| 50\.00 \| 0\.00 \| \[0\.00, 0\.00\] \| McNemar exact \| 1\.0000 \| 1\.0000 \| no \|/,
  );
  assert.match(
    md,
    /Holm correction across the 2 paired comparisons shown \(family-wise α = 0\.05\): 1 significant — ruler-hqa 7K: memagent − full-context = \+50\.00 points/,
  );
  assert.ok(md.indexOf('## Paired differences') < md.indexOf('## Charts'));
  const html = readFileSync(join(out, 'report.html'), 'utf8');
  assert.match(html, /<h2>Paired differences<\/h2>/);
  assert.match(html, /<td><b>yes<\/b><\/td>/);
  assert.match(html, /<b>Holm correction across the 2 paired comparisons shown/);
  // The chart: filled points always (hollow means "incomplete", in the accuracy chart only), an asterisk over the
  // significant ones; a band plugin; the y axis symmetric around 0.
  const { config } = differenceChartConfig({
    task: 'ruler-hqa',
    rows: paired,
    lengthTable: [],
    alpha: 0.05,
    size: CHART_SIZES.paper,
  });
  const ds = config.data.datasets[0] as unknown as { pointBackgroundColor: string; borderColor: string; label: string };
  assert.equal(ds.label, 'memagent − full-context');
  assert.equal(ds.pointBackgroundColor, ds.borderColor);
  assert.deepEqual(
    paired.map((r) => r.significant),
    [true, false],
  );
  assert.ok(config.plugins?.some((p) => p.id === 'significance'));
  assert.ok(config.plugins?.some((p) => p.id === 'intervalBands'));
  const y = (config.options?.scales as Record<string, { min: number; max: number }>).y;
  assert.equal(y.min, -y.max);
});

test('report: no paired section when no two series share sample ids', async () => {
  const dir = runDir(side('memagent', (i) => i < 3, 6));
  const out = mkdtempSync(join(tmpdir(), 'bench-paired-report-'));
  const { files, paired } = await reportCommand({ runDirs: [dir], out, onWarning: () => {} });
  assert.equal(paired.length, 0);
  assert.ok(!files.some((f) => f.endsWith('paired.csv')));
  assert.ok(!readFileSync(join(out, 'summary.md'), 'utf8').includes('Paired differences'));
});
