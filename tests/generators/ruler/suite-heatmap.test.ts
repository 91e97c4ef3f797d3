// `bench report` on runs of RULER's suite: charts/heatmap-ruler (MemAgent's average, as its figs/avg_00.png), one
// heatmap per task (as figs/fwe_00.png), and with --paper the paper's 14 rows read from its figures, in the heatmaps
// and beside ours in summary.md.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reportCommand } from '../../../cli/commands/report.js';
import { loadPaperBaselines } from '../../../reports/baselines.js';
import { runDir } from '../../reports/fixtures.js';
import { pngSize } from '../../reports/png.js';
import { MEMAGENT_TASKS, suiteRecords } from './suite-records.js';

const score = (task: string, length: string, i: number) => ((i + task.length + length.length) % 3 === 0 ? 0 : 1);

function suiteRun(): string {
  return runDir([
    ...suiteRecords({ tasks: MEMAGENT_TASKS, lengths: ['8k', '16k', '512k'], samples: 4, score }),
    ...suiteRecords({
      tasks: MEMAGENT_TASKS,
      lengths: ['8k', '16k', '512k'],
      samples: 4,
      method: 'full-context',
      score: () => 1,
    }),
  ]);
}

const out = () => mkdtempSync(join(tmpdir(), 'bench-ruler-heatmap-'));

test('the paper tables: all 14 rows of the average and of fwe, as read from the figures', () => {
  const all = loadPaperBaselines();
  const avg = all.find((b) => b.task === 'ruler')!;
  const fwe = all.find((b) => b.task === 'fwe')!;
  for (const b of [avg, fwe]) {
    assert.equal(b.source.read_from_figure, 'yes');
    assert.deepEqual(
      b.lengths.map((l) => [l.label, l.nominalTokens]),
      [8, 16, 32, 64, 128, 256, 512].map((k) => [`${k}K`, k * 1024]),
    );
    assert.equal(b.series.length, 14);
    assert.equal(new Set(b.series.map((s) => s.group)).size, 5);
  }
  const row = (b: typeof avg, model: string) => b.series.find((s) => s.model === model)?.scores;
  assert.deepEqual(row(avg, 'RL-MemAgent-14B'), [97.45, 96.97, 97.46, 97.85, 96.08, 96.24, 95.4]);
  assert.deepEqual(row(avg, 'RL-MemAgent-7B'), [93.03, 92.03, 91.33, 88.83, 86.92, 83.7, 81.91]);
  assert.deepEqual(row(avg, 'DS-Distill-Qwen-7B'), [53.96, 14.77, 1.45, 0.03, 0, 0, 0]);
  assert.deepEqual(row(fwe, 'RL-MemAgent-14B'), [90.72, 94.84, 91.75, 92.78, 92.0, 95.09, 94.84]);
  assert.deepEqual(row(fwe, 'Qwen2.5-Instruct-7B-1M'), [83.75, 88.65, 85.82, 83.23, 80.88, 72.8, 23.09]);
  // The RULER-HQA table's 512K figure value is the same number as the average's last column.
  const hqa = all.find((b) => b.task === 'ruler-hqa')!;
  assert.equal(hqa.figures[0].values[0].score, row(avg, 'RL-MemAgent-14B')?.[6]);
});

test('bench report draws heatmap-ruler and one heatmap per task, at both sizes', async () => {
  const dir = out();
  const result = await reportCommand({ runDirs: [suiteRun()], out: dir, onWarning: () => {} });
  const charts = result.files.filter((f) => f.includes('heatmap-ruler')).map((f) => f.slice(dir.length + 1));
  assert.deepEqual(
    charts.filter((c) => c.endsWith('-single.png')),
    [
      'charts/heatmap-ruler-single.png',
      ...MEMAGENT_TASKS.map((t) => `charts/heatmap-ruler-${t.replace(/_/g, '-')}-single.png`),
    ],
  );
  assert.equal(charts.filter((c) => c.endsWith('.png')).length, 24);
  const size = pngSize(readFileSync(join(dir, 'charts/heatmap-ruler-single.png')));
  // Two rows (memagent, full-context): one column wide (3.25 in at 300 ppi), shorter than the usual 2.5 in.
  assert.equal(size.width, 975);
  assert.ok(size.height < 750, String(size.height));
  const json = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));
  assert.deepEqual(
    json.aggregates.map((r: { method: string; lengthLabel: string; n: number }) => [r.method, r.lengthLabel, r.n]),
    [
      ['full-context', '8k', 44],
      ['full-context', '16k', 44],
      ['full-context', '512k', 40],
      ['memagent', '8k', 44],
      ['memagent', '16k', 44],
      ['memagent', '512k', 40],
    ],
  );
  assert.match(readFileSync(join(dir, 'summary.md'), 'utf8'), /MemAgent's RULER average/);
});

test('--paper adds the paper rows to the heatmaps and its tables to summary.md', async () => {
  const plain = out();
  const withPaper = out();
  const run = suiteRun();
  await reportCommand({ runDirs: [run], out: plain, onWarning: () => {} });
  await reportCommand({ runDirs: [run], out: withPaper, paper: true, onWarning: () => {} });
  for (const chart of ['heatmap-ruler', 'heatmap-ruler-fwe']) {
    const a = pngSize(readFileSync(join(plain, `charts/${chart}-single.png`)));
    const b = pngSize(readFileSync(join(withPaper, `charts/${chart}-single.png`)));
    assert.ok(b.height > a.height + 300, `${chart}: ${a.height} → ${b.height}`);
  }
  // vt has no paper table: the same chart either way.
  assert.deepEqual(
    readFileSync(join(plain, 'charts/heatmap-ruler-vt-single.png')),
    readFileSync(join(withPaper, 'charts/heatmap-ruler-vt-single.png')),
  );
  const md = readFileSync(join(withPaper, 'summary.md'), 'utf8');
  assert.match(md, /RULER average over MemAgent's out-of-distribution tasks/);
  assert.match(md, /\| 8K \| 16K \| 32K \|/);
  assert.match(md, /RL-MemAgent-14B \(memagent\) \| 97\.45 \| 96\.97 /);
  assert.match(md, /full-context · reference reader \(not an LLM\) \| 100\.00 \(n=44\) \| 100\.00 \(n=44\) \| – \|/);
  assert.match(md, /RULER fwe/);
});

test('a NIAH-only run gets no RULER average and no suite heatmap', async () => {
  const dir = out();
  const result = await reportCommand({
    runDirs: [runDir(suiteRecords({ tasks: MEMAGENT_TASKS.slice(0, 8), lengths: ['8k'], samples: 2, score }))],
    out: dir,
    onWarning: () => {},
  });
  assert.equal(
    result.files.some((f) => f.includes('heatmap-ruler')),
    false,
  );
  assert.equal(
    result.rows.some((r) => r.aggregate),
    false,
  );
});

function svgText(svg: Buffer): string[] {
  return [...svg.toString('utf8').matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
}

test('the suite heatmaps take --format svg,pdf and --no-title; their notes go to the caption file, not the image', async () => {
  const run = suiteRun();
  const warnings: string[] = [];
  for (const title of [true, false]) {
    const dir = out();
    await reportCommand({
      runDirs: [run],
      out: dir,
      paper: true,
      figures: { formats: ['png', 'svg', 'pdf'], sizes: ['single', 'double'], title },
      onWarning: (m) => warnings.push(m),
    });
    for (const chart of ['heatmap-ruler', 'heatmap-ruler-fwe', 'heatmap-ruler-vt'])
      for (const file of ['single.png', 'single.svg', 'single.pdf', 'double.svg'])
        assert.ok(existsSync(join(dir, `charts/${chart}-${file}`)), `${chart}-${file}`);
    const svg = readFileSync(join(dir, 'charts/heatmap-ruler-double.svg'));
    const texts = svgText(svg);
    assert.equal(
      texts.some((t) => t.startsWith('RULER average over MemAgent')),
      title,
      'the title only when asked',
    );
    assert.ok(texts.includes('RL-MemAgent-14B') && texts.includes('512K') && texts.includes('97.45'));
    assert.ok(!texts.some((t) => /Samples per cell|Price/.test(t)), 'no notes in the image');
    // Every text at 8–9 pt, as the other figures.
    const sizes = [...svg.toString('utf8').matchAll(/font-size="([\d.]+)"/g)].map((m) => Number(m[1]));
    assert.ok(sizes.length > 50 && sizes.every((x) => x >= 8 && x <= 9), `font sizes ${[...new Set(sizes)]}`);
    const pdf = readFileSync(join(dir, 'charts/heatmap-ruler-single.pdf')).toString('latin1');
    assert.ok(pdf.startsWith('%PDF-'));
    const caption = readFileSync(join(dir, 'charts/heatmap-ruler.caption.txt'), 'utf8');
    assert.match(caption, /^RULER average over MemAgent's 11 tasks\n/);
    assert.match(caption, /Samples per cell: 40–44\./);
    assert.match(caption, /Price–Bonett/);
    assert.match(caption, /read from the figure/);
  }
  assert.deepEqual(
    warnings.filter((w) => /PNG only/.test(w)),
    [],
  );
});
