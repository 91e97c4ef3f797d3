// Paper-ready figures: vector output at print size, titles on request, notes in caption files, one style per method
// across figures and reports, one meaning per mark, and the command-line flags that ask for them.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadImage } from '@napi-rs/canvas';
import type { ChartDataset } from 'chart.js';
import { accuracyChartFrame, accuracyFigure, paperTokens } from '../../../reports/charts/accuracy.js';
import { CHART_SIZES, pixelSize, textWidth } from '../../../reports/charts/canvas.js';
import { axisTitleLines } from '../../../reports/charts/frame.js';
import { differenceChartFrame, SIGNIFICANT_LEGEND } from '../../../reports/charts/difference.js';
import { writeCharts } from '../../../reports/charts/index.js';
import { KNOWN_METHOD_STYLES, methodStyle, modelDashes, OKABE_ITO } from '../../../reports/charts/style.js';
import { longbenchChartFrame } from '../../../generators/longbench/scores-chart.js';
import { heatmapFigure } from '../../../generators/ruler/heatmap-chart.js';
import { memagentRulerHqaTable } from '../../../generators/ruler-hqa/report-facet.js';
import { parseLengths } from '../../../harness/config/lengths.js';
import type { FacetChart } from '../../../harness/report/facet.js';
import { applyHolm, pairSeries } from '../../../reports/paired.js';
import { summarize } from '../../../reports/summary.js';
import { reportCommand } from '../../../cli/commands/report.js';
import { assertOneLine, runBench } from '../../helpers/cli.js';
import { FACETS, record, runDir } from '../fixtures.js';
import { pngSize } from '../png.js';

const paper = memagentRulerHqaTable();

/** Three methods × three token lengths, 8 samples each; memagent right more often at the longer lengths. */
function records(methods = ['memagent', 'full-context', 'rag']) {
  return [8192, 16384, 32768].flatMap((length, i) =>
    methods.flatMap((method, m) =>
      Array.from({ length: 8 }, (_, index) =>
        record({ method, length, lengthLabel: `${length / 1024}k`, index, score: (index + i * m) % 3 === 0 ? 0 : 1 }),
      ),
    ),
  );
}

const rows = (methods?: string[]) => summarize(records(methods), FACETS);

function svgText(svg: Buffer): string[] {
  return [...svg.toString('utf8').matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
}

test('SVG: well-formed (Skia parses it back), 3.25 in wide in inches over a point viewBox, text as text', async () => {
  for (const title of [true, false]) {
    const { bytes } = accuracyFigure({
      task: 'ruler-hqa',
      rows: rows(),
      size: CHART_SIZES.single,
      output: { format: 'svg', title },
    });
    const svg = bytes.toString('utf8');
    assert.match(svg, /^<\?xml [^>]*\?><svg [^>]*width="3\.25in" height="[\d.]+in" viewBox="0 0 234 \d+"/);
    // A renderer reads it: 3.25 in is 312 CSS pixels.
    const img = await loadImage(bytes);
    assert.equal(img.width, 312);
    const texts = svgText(bytes);
    assert.ok(texts.includes('memagent') && texts.includes('16k'), 'legend and ticks are <text>');
    assert.equal(
      texts.some((t) => t.includes('accuracy vs context length')),
      title,
      'the title is drawn only when asked',
    );
    // Every text prints at 8–9 pt.
    const sizes = [...svg.matchAll(/font-size="([\d.]+)"/g)].map((m) => Number(m[1]));
    assert.ok(sizes.length > 10 && sizes.every((s) => s >= 8 && s <= 9), `font sizes ${[...new Set(sizes)]}`);
  }
  await assert.rejects(loadImage(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><g></svg>')));
});

test('PDF: one page of the print size in points, fonts embedded, text at 8–9 pt', () => {
  for (const size of Object.values(CHART_SIZES)) {
    const { bytes } = heatmapFigure({
      task: 'niah_single_1',
      method: 'memagent',
      model: 'm',
      records: [0, 50, 100].map((depth, index) => record({ index, metadata: { depth } })),
      size,
      output: { format: 'pdf', title: true },
    });
    const pdf = bytes.toString('latin1');
    assert.ok(pdf.startsWith('%PDF-'));
    assert.deepEqual(
      [...pdf.matchAll(/\/MediaBox \[0 0 (\d+) (\d+)\]/g)].map((m) => [Number(m[1]), Number(m[2])]),
      [[size.width, size.height]],
    );
    assert.match(pdf, /\/FontFile2/);
    assert.match(pdf, /\/Title \(niah_single_1: score by needle depth and context length\)/);
  }
});

test('PNG sizes are inches × 300 ppi: single 3.25 × 2.5 in, double 6.75 × 3 in, pHYs 300 dpi', () => {
  assert.deepEqual(pixelSize(CHART_SIZES.single), { width: 975, height: 750 });
  assert.deepEqual(pixelSize(CHART_SIZES.double), { width: 2025, height: 900 });
  for (const size of Object.values(CHART_SIZES)) {
    const png = accuracyFigure({ task: 'ruler-hqa', rows: rows(['memagent']), size }).bytes;
    assert.deepEqual(pngSize(png), pixelSize(size));
    const phys = png.indexOf('pHYs');
    assert.ok(phys > 0);
    // 300 dpi = 11811 pixels per metre on both axes, unit 1 (metre).
    assert.deepEqual([png.readUInt32BE(phys + 4), png.readUInt32BE(phys + 8), png[phys + 12]], [11811, 11811, 1]);
  }
});

test('caption files hold title and notes; the notes are not drawn into the figure', () => {
  const out = mkdtempSync(join(tmpdir(), 'bench-figures-'));
  const files = writeCharts(out, {
    rows: rows(),
    records: [],
    facets: FACETS,
    paper: [paper],
    formats: ['svg', 'pdf'],
    sizes: [CHART_SIZES.single],
  });
  assert.deepEqual(
    files.map((f) => f.name),
    ['charts/accuracy-ruler-hqa-single.svg', 'charts/accuracy-ruler-hqa-single.pdf'],
  );
  assert.ok(!readdirSync(join(out, 'charts')).some((f) => f.endsWith('.png')), 'no png unless asked');
  const caption = readFileSync(join(out, 'charts/accuracy-ruler-hqa.caption.txt'), 'utf8');
  const [title, subtitle, blank, ...notes] = caption.trimEnd().split('\n');
  assert.equal(title, 'ruler-hqa: accuracy vs context length');
  assert.match(subtitle, /^model: local:reference-reader/);
  assert.equal(blank, '');
  assert.ok(notes.some((n) => /^Bands: 95% intervals \(Wilson\)\.$/.test(n)));
  assert.ok(notes.some((n) => /^Dashed grey: paper \(arXiv 2507\.02259 Table 2\)/.test(n)));
  const drawn = svgText(readFileSync(files[0].file)).join(' ');
  assert.ok(drawn.includes('accuracy vs context length') && !drawn.includes('Bands:') && !drawn.includes('arXiv'));
  // report.html still gets a PNG of each chart, rendered in memory.
  assert.ok(files[0].png && pngSize(files[0].png).width === 975);
  assert.equal(files[1].png, undefined);
});

test('one colour and marker per method in every figure: fixed for built-in methods, a hash of the name otherwise', () => {
  const colourOf = (datasets: ChartDataset[], label: string) =>
    datasets.find((d) => d.label === label)?.borderColor ?? datasets.find((d) => d.label === label)?.backgroundColor;
  const a = accuracyChartFrame({ task: 'ruler-hqa', rows: rows(['memagent', 'rag']), size: CHART_SIZES.single });
  const b = accuracyChartFrame({
    task: 'ruler-hqa',
    rows: rows(['full-context', 'memagent', 'my-method']),
    size: CHART_SIZES.double,
  });
  const lb = longbenchChartFrame({
    rows: summarize(
      ['rag', 'memagent'].map((method) => record({ task: 'longbench/hotpotqa', method, lengthKind: 'native' })),
      FACETS,
    ),
    size: CHART_SIZES.single,
  });
  for (const method of ['memagent', 'rag']) {
    const expected = KNOWN_METHOD_STYLES[method].color;
    assert.equal(colourOf(a.config.data.datasets as ChartDataset[], method), expected);
    assert.equal(colourOf(lb.config.data.datasets as ChartDataset[], method), expected);
  }
  assert.equal(colourOf(b.config.data.datasets as ChartDataset[], 'memagent'), OKABE_ITO.blue);
  assert.equal(colourOf(b.config.data.datasets as ChartDataset[], 'full-context'), OKABE_ITO.vermillion);
  // Another method: its style comes from its name alone (and is no built-in method's colour and marker).
  const mine = methodStyle('my-method');
  assert.deepEqual(methodStyle('my-method'), mine);
  assert.equal(colourOf(b.config.data.datasets as ChartDataset[], 'my-method'), mine.color);
  assert.ok(!Object.values(KNOWN_METHOD_STYLES).some((s) => s.color === mine.color && s.marker === mine.marker));
  assert.notDeepEqual(methodStyle('my-method'), methodStyle('my-method-2'));
  // The legend's sample is the plot's: same colour and marker.
  const entry = a.legend.flat().find((e) => e.label === 'rag');
  assert.deepEqual([entry?.color, entry?.marker?.shape], [OKABE_ITO.green, 'triangle']);
  // Models: the reference reader solid, the others dashed, whatever their order.
  const dashes = modelDashes(['zeta', 'local:ref', 'alpha'], (m) => m === 'local:ref');
  assert.deepEqual([dashes.get('local:ref'), dashes.get('alpha')?.length, dashes.get('zeta')?.length], [[], 2, 2]);
});

test('colour per method is the same across two reports with different method sets (real files)', async () => {
  const hex = async (methods: string[]) => {
    const dir = runDir(records(methods));
    await reportCommand({
      runDirs: [dir],
      onWarning: () => {},
      figures: { formats: ['svg'], sizes: ['single'], title: false },
    });
    return readFileSync(join(dir, 'charts/accuracy-ruler-hqa-single.svg'), 'utf8');
  };
  const one = await hex(['memagent', 'rag']);
  const two = await hex(['full-context', 'rag', 'memagent']);
  for (const svg of [one, two])
    for (const colour of [OKABE_ITO.blue, OKABE_ITO.green]) assert.ok(svg.includes(`"${colour}"`), colour);
  assert.ok(!one.includes(`"${OKABE_ITO.vermillion}"`) && two.includes(`"${OKABE_ITO.vermillion}"`));
});

test('one meaning per mark: hollow = incomplete (accuracy only); * = significant after Holm (difference only)', () => {
  const recs = [8192, 16384].flatMap((length) =>
    ['full-context', 'memagent'].flatMap((method) =>
      Array.from({ length: 40 }, (_, index) =>
        record({
          method,
          length,
          lengthLabel: `${length / 1024}k`,
          index,
          score: method === 'memagent' || index < 5 ? 1 : 0,
        }),
      ),
    ),
  );
  const diff = applyHolm(pairSeries(recs), 0.05);
  assert.ok(diff.every((r) => r.significant));
  const frame = differenceChartFrame({
    task: 'ruler-hqa',
    rows: diff,
    lengthTable: [],
    alpha: 0.05,
    size: CHART_SIZES.single,
  });
  const [ds] = frame.config.data.datasets as Array<ChartDataset<'line'> & { pointBackgroundColor: string }>;
  // Filled markers whether significant or not; the legend names the asterisk.
  assert.equal(ds.pointBackgroundColor, ds.borderColor);
  const keys = frame.legend.flat();
  assert.ok(keys.some((e) => e.glyph === '*' && e.label === SIGNIFICANT_LEGEND(0.05)));
  assert.ok(!keys.some((e) => e.marker?.hollow));
  // Colour = B's method, marker = A's method.
  assert.equal(ds.borderColor, KNOWN_METHOD_STYLES.memagent.color);
  assert.equal(keys[0].marker?.shape, KNOWN_METHOD_STYLES['full-context'].marker);
  const none = differenceChartFrame({
    task: 'ruler-hqa',
    rows: diff.map((r) => ({ ...r, significant: false })),
    lengthTable: [],
    alpha: 0.05,
    size: CHART_SIZES.single,
  });
  assert.ok(!none.legend.flat().some((e) => e.glyph));
});

test("the paper's grid: --lengths paper = docs:50..25600, placed at the paper's lengths with its labels", () => {
  assert.deepEqual(parseLengths('paper'), parseLengths('docs:50..25600'));
  assert.deepEqual(
    parseLengths('paper').map((l) => l.value),
    paper.lengths.map((l) => l.docs),
  );
  assert.deepEqual(
    paper.lengths.map((l) => l.label),
    ['7K', '14K', '28K', '56K', '112K', '224K', '448K', '896K', '1.75M', '3.5M'],
  );
  // Measured lengths at their mean tokens; the two unmeasured ones scaled by documents from 6400's.
  assert.equal(paperTokens(paper.lengths[7], paper.lengths), 903062);
  assert.equal(paperTokens(paper.lengths[9], paper.lengths), 903062 * 4);
  // A docs run and the paper share every x; a token run keeps its own ticks and gets the paper's on a top axis.
  const docsRows = summarize(
    [50, 100].map((docs, index) => record({ lengthKind: 'docs', length: docs, lengthLabel: `docs:${docs}`, index })),
    FACETS,
  );
  const docsFrame = accuracyChartFrame({ task: 'ruler-hqa', rows: docsRows, paper: [paper], size: CHART_SIZES.double });
  const scales = docsFrame.config.options?.scales as Record<string, { title?: { text: string } }>;
  assert.equal(scales.x.title?.text, "documents (paper's labels ≈ tokens)");
  assert.equal(scales.paper, undefined);
  const ours = (docsFrame.config.data.datasets[0].data as Array<{ x: number }>).map((p) => p.x);
  const theirs = (docsFrame.config.data.datasets[1].data as Array<{ x: number }>).map((p) => p.x);
  assert.deepEqual(ours, theirs.slice(0, 2));
  const tokenFrame = accuracyChartFrame({ task: 'ruler-hqa', rows: rows(), paper: [paper], size: CHART_SIZES.double });
  const tokenScales = tokenFrame.config.options?.scales as Record<
    string,
    { title?: { text: string }; position?: string }
  >;
  assert.equal(tokenScales.x.title?.text, 'context length (tokens, k = 1024)');
  assert.equal(tokenScales.paper.position, 'top');
});

test('a chart drawn the older way (a PNG Buffer) is written as PNG and skipped, with a warning, for SVG', () => {
  const out = mkdtempSync(join(tmpdir(), 'bench-figures-'));
  const legacy: FacetChart = { kind: 'old', title: 'old chart', base: 'old', render: () => Buffer.from('not drawn') };
  const warnings: string[] = [];
  const files = writeCharts(out, {
    rows: [],
    records: [],
    facets: [{ name: 'old', order: 1, charts: () => ({ charts: [legacy] }) }],
    paper: [],
    formats: ['png', 'svg'],
    sizes: [CHART_SIZES.single],
    onWarning: (m) => warnings.push(m),
  });
  assert.deepEqual(
    files.map((f) => f.name),
    ['charts/old-single.png'],
  );
  assert.deepEqual(warnings, ['old chart: this chart is drawn as PNG only; no svg written']);
  assert.equal(readFileSync(join(out, 'charts/old.caption.txt'), 'utf8'), 'old chart\n');
});

test('bench report --format svg,pdf --size single --no-title; bad --format / --size: one line, exit 2', async () => {
  const dir = runDir(records(['memagent', 'rag']));
  const ok = await runBench(['report', dir, '--format', 'svg,pdf', '--size', 'single', '--no-title']);
  assert.equal(ok.code, 0, ok.stderr);
  for (const name of [
    'accuracy-ruler-hqa-single.svg',
    'accuracy-ruler-hqa-single.pdf',
    'accuracy-ruler-hqa.caption.txt',
  ])
    assert.ok(existsSync(join(dir, 'charts', name)), name);
  assert.ok(!existsSync(join(dir, 'charts', 'accuracy-ruler-hqa-single.png')));
  assert.ok(
    !svgText(readFileSync(join(dir, 'charts', 'accuracy-ruler-hqa-single.svg'))).some((t) => t.includes('accuracy vs')),
  );
  assert.match(readFileSync(join(dir, 'report.html'), 'utf8'), /data:image\/png;base64,/);
  assertOneLine(
    await runBench(['report', dir, '--format', 'png,jpg']),
    2,
    /^bench: bad --format 'png,jpg': 'jpg' is not one of png, svg, pdf; expected chart formats, comma-separated, e\.g\. --format png,svg,pdf$/,
  );
  assertOneLine(
    await runBench(['report', dir, '--size', 'triple']),
    2,
    /^bench: bad --size 'triple': 'triple' is not one of single, double/,
  );
  assertOneLine(
    await runBench(['compare', dir, '--methods', 'memagent,rag', '--format', '']),
    2,
    /^bench: bad --format '': empty item/,
  );
});

test('bench report --dpi 150: PNGs at 150 ppi (pixels and pHYs), recorded in --json; bad --dpi: one line, exit 2', async () => {
  const dir = runDir(records(['memagent', 'rag']));
  const ok = await runBench(['report', dir, '--dpi', '150', '--size', 'single', '--json']);
  assert.equal(ok.code, 0, ok.stderr);
  const doc = JSON.parse(ok.stdout) as { figures: { dpi: number; formats: string[]; sizes: string[]; title: boolean } };
  assert.deepEqual(doc.figures, { formats: ['png'], sizes: ['single'], title: true, dpi: 150 });
  const png = readFileSync(join(dir, 'charts', 'accuracy-ruler-hqa-single.png'));
  // 3.25 in × 150 = 487.5: whole pixels, rounded down; the height in points is as at 300 ppi.
  const px = pngSize(png);
  assert.equal(px.width, 487);
  const at300 = pngSize(
    accuracyFigure({ task: 'ruler-hqa', rows: rows(['memagent', 'rag']), size: CHART_SIZES.single }).bytes,
  );
  assert.equal(px.height, Math.floor(at300.height / 2));
  const phys = png.indexOf('pHYs');
  // 150 dpi = 5905.5 pixels per metre, stored as 5906.
  assert.deepEqual([png.readUInt32BE(phys + 4), png.readUInt32BE(phys + 8), png[phys + 12]], [5906, 5906, 1]);
  const plain = await runBench(['report', dir, '--size', 'single', '--json']);
  assert.equal(
    (JSON.parse(plain.stdout) as { figures: { dpi: number } }).figures.dpi,
    300,
    'the default is recorded too',
  );
  for (const bad of ['71', '1201', '300.5', 'abc', '', '-300'])
    assertOneLine(
      await runBench(['report', dir, `--dpi=${bad}`]),
      2,
      new RegExp(
        `^bench: bad --dpi '${bad.replace('.', '\\.')}': expected a whole number of pixels per inch from 72 to 1200 \\(default 300\\)$`,
      ),
    );
  assertOneLine(
    await runBench(['compare', dir, '--methods', 'memagent,rag', '--dpi', '0']),
    2,
    /^bench: bad --dpi '0'/,
  );
});

test('a value-axis title longer than the plot is tall breaks before its parenthesis, else wraps', () => {
  assert.equal(axisTitleLines('score ×100', 8, 100), 'score ×100');
  assert.deepEqual(axisTitleLines('memory holds the gold (% of samples)', 8, 100), [
    'memory holds the gold',
    '(% of samples)',
  ]);
  const lines = axisTitleLines('a title of many short words and no parenthesis at all', 8, 60);
  assert.ok(Array.isArray(lines) && lines.length > 1 && lines.every((l) => textWidth(l, 8) <= 60), String(lines));
});

test('every chart kind of a report prints its text at 8–9 pt, at both sizes, titled or not', () => {
  const hqa = records(['memagent', 'full-context', 'rag']).map((r) => ({
    ...r,
    ...(r.method === 'memagent'
      ? { memory: { evidenceChunks: [1], holds: '0111110', capturedAt: 1, lostAt: null } }
      : {}),
  }));
  const niah = [8192, 16384, 32768].flatMap((length) =>
    [0, 25, 50, 75, 100].map((depth, index) =>
      record({
        task: 'niah_single_1',
        length,
        lengthLabel: `${length / 1024}k`,
        index,
        score: (depth / 25 + length / 8192) % 3 === 0 ? 0 : 1,
        metadata: { needles: [{ depth, key: 'k' }] },
      }),
    ),
  );
  const probe = [0, 1, 2, 3, 4, 5].map((index) =>
    record({
      task: 'ctx-dist',
      index,
      score: index % 2,
      metadata: { placement: [[0, 1], [0.2, 0.8], [0.4, 0.6], [0, 0.2], [0.8, 1], 'random'][index] },
    }),
  );
  const all = [...hqa, ...niah, ...probe];
  const cost = (r: ReturnType<typeof summarize>[number], i: number) => ({
    ...r,
    cost: {
      callsPerSample: 1,
      promptTokensPerSample: 1,
      completionTokensPerSample: 1,
      longestChain: 1,
      // Several points on one spot, the rest a decade apart.
      estGpuSecondsPerSample: r.method === 'rag' ? 1 : 10 ** (i % 3),
      costPreset: 'p',
      wallSecondsPerSample: null,
    },
  });
  const summary = summarize(all, FACETS).map(cost);
  for (const title of [true, false]) {
    const out = mkdtempSync(join(tmpdir(), 'bench-figures-'));
    const files = writeCharts(out, {
      facets: FACETS,
      rows: summary,
      records: all,
      paper: [],
      paired: applyHolm(pairSeries(all), 0.05),
      formats: ['svg'],
      title,
    });
    const kinds = new Set(files.map((f) => f.kind));
    for (const kind of ['accuracy', 'difference', 'cost', 'retention', 'niah-heatmap', 'probe'])
      assert.ok(kinds.has(kind), `${kind} in ${[...kinds]}`);
    for (const f of files) {
      const sizes = [...readFileSync(f.file, 'utf8').matchAll(/font-size="([\d.]+)"/g)].map((m) => Number(m[1]));
      assert.ok(
        sizes.length > 5 && sizes.every((s) => s >= 8 && s <= 9),
        `${f.name}: font sizes ${[...new Set(sizes)]}`,
      );
    }
  }
});
