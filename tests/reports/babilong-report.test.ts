// BABILong in `bench report`: its figure (task × length heatmap per method and model, values in every cell), our
// task × length table and the leaderboard's published numbers with their source, on a real run of the embedded model.
import { beforeAll, test } from 'vitest';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reportCommand } from '../../cli/commands/report.js';
import { luminance } from '../../reports/charts/heatmap-draw.js';
import type { SampleRecord } from '../../harness/types.js';
import { loadLeaderboard } from '../../reports/babilong/leaderboard.js';
import { runBench } from '../helpers/cli.js';
import { record, runDir } from './fixtures.js';
import { pngSize } from './png.js';

const TASKS = ['qa1', 'qa2', 'qa3', 'qa4', 'qa5'];
const LENGTHS = ['0k', '1k', '4k'];
const METHODS = ['memagent', 'full-context'];

let work: string;
let records: SampleRecord[];

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'bench-babilong-report-'));
  const dir = join(work, 'run');
  const args = ['--method', METHODS.join(','), '--lengths', LENGTHS.join(','), '--samples', '4', '--out', dir];
  const run = await runBench(['run', 'babilong', ...args, '--no-progress'], { cwd: work, timeoutMs: 300_000 });
  assert.equal(run.code, 0, run.stderr);
  records = readFileSync(join(dir, 'samples.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as SampleRecord);
  const report = await runBench(['report', dir, '--out', join(work, 'report'), '--format', 'png,svg'], {
    cwd: work,
    timeoutMs: 300_000,
  });
  assert.equal(report.code, 0, report.stderr);
}, 600_000);

/** Accuracy ×100 of one cell, from the records alone (errors count as 0). */
function accuracy(method: string, task: string, length: string): number {
  const cell = records.filter((r) => r.method === method && r.task === task && r.lengthLabel === length);
  assert.equal(cell.length, 4, `${method} ${task} ${length}`);
  return (100 * cell.reduce((s, r) => s + (r.status === 'error' ? 0 : r.score), 0)) / cell.length;
}

const chart = (method: string, ext: string) =>
  join(work, 'report', `charts/babilong-${method}-local-reference-reader-v1-single.${ext}`);

interface SvgCell {
  fill: string;
  textFill: string;
  text: string;
}

/** The heatmap's cells as drawn: each cell's rectangle colour, then its value text and that text's colour. */
function svgCells(svg: string): SvgCell[] {
  return [...svg.matchAll(/<rect fill="(#[0-9A-F]{6})"[^>]*\/>\s*<text(?: fill="([^"]+)")?[^>]*>([^<]*)<\/text>/g)].map(
    (m) => ({ fill: m[1], textFill: m[2] ?? '#000000', text: m[3] }),
  );
}

function svgTexts(svg: string): string[] {
  return [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
}

function rgb(colour: string): [number, number, number] {
  if (colour === 'white') return [255, 255, 255];
  const hex = colour.replace('#', '');
  return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
}

test('the heatmap: tasks as rows, lengths as columns, each cell the accuracy of its records, in whole points', () => {
  for (const method of METHODS) {
    const svg = readFileSync(chart(method, 'svg'), 'utf8');
    const cells = svgCells(svg);
    const expected = TASKS.flatMap((t) => LENGTHS.map((l) => accuracy(method, t, l).toFixed(0)));
    assert.deepEqual(
      cells.map((c) => c.text),
      expected,
    );
    const texts = svgTexts(svg);
    assert.equal(texts[0], 'BABILong accuracy by task and length');
    assert.equal(texts[1], `${method} · reference reader (not an LLM)`);
    // Row labels top to bottom, then the column labels left to right, each once.
    const labels = texts.filter((t) => TASKS.includes(t) || LENGTHS.includes(t));
    assert.deepEqual(labels, [...TASKS, ...LENGTHS]);
    // The embedded reader follows qa1's moves: its row is all 100.
    assert.deepEqual(
      cells.slice(0, 3).map((c) => c.text),
      ['100', '100', '100'],
    );
  }
});

test('the value text contrasts with its cell (WCAG ≥ 4.5:1), and every text prints at 8–9 pt', () => {
  for (const method of METHODS) {
    const svg = readFileSync(chart(method, 'svg'), 'utf8');
    for (const c of svgCells(svg)) {
      const [a, b] = [luminance(rgb(c.fill)), luminance(rgb(c.textFill))];
      const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
      assert.ok(ratio >= 4.5, `${c.text} in ${c.textFill} on ${c.fill}: ${ratio.toFixed(2)}:1`);
    }
    const sizes = [...svg.matchAll(/font-size="([\d.]+)"/g)].map((m) => Number(m[1]));
    assert.ok(sizes.length > 20 && sizes.every((s) => s >= 8 && s <= 9), `font sizes ${[...new Set(sizes)]}`);
  }
});

test('the PNG is one column wide at 300 ppi and a whole number of 6 pt tall; the caption holds the notes', () => {
  for (const method of METHODS) {
    const png = pngSize(readFileSync(chart(method, 'png')));
    assert.equal(png.width, 975);
    assert.equal(png.height % 25, 0, String(png.height));
    const caption = readFileSync(
      join(work, 'report', `charts/babilong-${method}-local-reference-reader-v1.caption.txt`),
      'utf8',
    );
    assert.match(caption, /^BABILong accuracy by task and length\n/);
    assert.match(caption, /Samples per cell: 4\./);
    assert.ok(!svgTexts(readFileSync(chart(method, 'svg'), 'utf8')).some((t) => t.includes('Samples per cell')));
  }
});

test('summary.md: a task × length table per method, and the leaderboard table naming its source', () => {
  const md = readFileSync(join(work, 'report', 'summary.md'), 'utf8');
  for (const method of METHODS) {
    assert.ok(md.includes(`### BABILong accuracy ×100 by task and length: ${method} · local:reference-reader-v1`));
    for (const t of TASKS) {
      const line = `| ${t} | ${LENGTHS.map((l) => accuracy(method, t, l).toFixed(2)).join(' | ')} |`;
      assert.ok(md.includes(line), line);
    }
  }
  const board = loadLeaderboard();
  assert.match(md, /### BABILong leaderboard \(booydar\/babilong\)/);
  assert.match(md, /Source: booydar\/babilong \(https:\/\/github\.com\/booydar\/babilong\)/);
  for (const m of board.models) {
    assert.ok(md.includes(`${m.source.ref}@${m.source.commit.slice(0, 7)} (${m.source.committed})`), m.model);
    const c = m.cells.qa1;
    const cell = (l: string) => (c[l] ? ((100 * c[l].correct) / c[l].rows).toFixed(2) : '–');
    assert.ok(md.includes(`| ${m.model} | qa1 | ${LENGTHS.map(cell).join(' | ')} |`), m.model);
  }
  assert.ok(md.includes('- ![charts/babilong-memagent-local-reference-reader-v1-single.png]'));
});

test('report.html embeds the heatmaps and shows both tables', () => {
  const html = readFileSync(join(work, 'report', 'report.html'), 'utf8');
  assert.equal(html.match(/<img alt="BABILong accuracy by task and length \((memagent|full-context)\)"/g)?.length, 2);
  assert.match(html, /<h3>BABILong accuracy ×100 by task and length: memagent · /);
  assert.match(html, /<h3>BABILong leaderboard \(booydar\/babilong\)/);
  assert.match(html, /<td>openai\/gpt-4-0125-preview<\/td><td>qa1<\/td><td class="r">99\.00<\/td>/);
});

test('the shipped leaderboard: five models with repo, ref, commit and date; accuracy = 100 × correct / rows', () => {
  const board = loadLeaderboard();
  assert.equal(board.source.repo, 'booydar/babilong');
  assert.match(board.source.retrieved, /^\d{4}-\d{2}-\d{2}$/);
  assert.equal(board.models.length, 5);
  for (const m of board.models) {
    assert.match(m.source.commit, /^[0-9a-f]{40}$/);
    assert.match(m.source.committed, /^\d{4}-\d{2}-\d{2}$/);
    assert.ok(m.source.files.startsWith(`babilong_evals/${m.model}/`));
    assert.deepEqual(Object.keys(m.cells).slice(0, 5), TASKS);
    for (const byLength of Object.values(m.cells))
      for (const c of Object.values(byLength))
        assert.equal(c.accuracy, Number(((100 * c.correct) / c.rows).toFixed(2)));
  }
  // RAG over Llama-3 is the one with predictions at 10M.
  assert.ok(board.models.find((m) => m.model === 'RAG_Llama-3')?.cells.qa1['10M']);
});

test('model names and methods are escaped in report.html; a run without BABILong gets no BABILong section', async () => {
  const evil = 'm<img src=x onerror=alert(1)>';
  const bab = (over: Partial<SampleRecord>) =>
    record({ task: 'qa1', metric: 'babilong_acc', lengthLabel: '1k', length: 1024, model: evil, ...over });
  const dir = mkdtempSync(join(tmpdir(), 'bench-babilong-escape-'));
  await reportCommand({
    runDirs: [runDir([bab({ index: 0 }), bab({ index: 1, score: 0 }), bab({ index: 2, status: 'error', score: 0 })])],
    out: dir,
    onWarning: () => {},
  });
  const html = readFileSync(join(dir, 'report.html'), 'utf8');
  assert.ok(!html.includes('<img src=x'), 'raw model name in the HTML');
  assert.ok(html.includes('m&lt;img src=x onerror=alert(1)&gt;'));
  const md = readFileSync(join(dir, 'summary.md'), 'utf8');
  assert.match(md, /\| qa1 \| 33\.33 \|/);
  const caption = readFileSync(join(dir, 'charts/babilong-memagent-m-img-src-x-onerror-alert-1.caption.txt'), 'utf8');
  assert.match(caption, /1 errored sample, counted as wrong\./);

  const plain = mkdtempSync(join(tmpdir(), 'bench-report-plain-'));
  const result = await reportCommand({
    runDirs: [runDir([record({ index: 0 }), record({ index: 1 })])],
    out: plain,
    onWarning: () => {},
  });
  assert.ok(!result.files.some((f) => f.slice(plain.length).includes('babilong')));
  assert.ok(!readFileSync(join(plain, 'summary.md'), 'utf8').includes('BABILong'));
  assert.ok(existsSync(join(plain, 'report.html')));
});
