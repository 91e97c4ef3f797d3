import { test } from 'vitest';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reportCommand } from '../../cli/commands/report.js';
import { escapeHtml } from '../../reports/html.js';
import { manifestFixture } from '../helpers/manifest.js';
import { record, runDir } from './fixtures.js';
import { pngSize } from './png.js';

const EVIL = '<script>alert("x")</script><img src=x onerror=alert(1)>';

function hqaRun(model = 'local:reference-reader') {
  const records = [50, 100].flatMap((docs) =>
    [0, 1, 2].map((k) =>
      record({
        model,
        lengthKind: 'docs',
        length: docs,
        lengthLabel: `docs:${docs}`,
        index: k,
        id: `ruler-hqa/docs:${docs}/${k}`,
        prediction: k === 0 ? EVIL : 'Alice',
        rawOutput: `the answer is ${EVIL}`,
        question: `Who? ${EVIL}`,
        score: k === 2 ? 0 : 1,
      }),
    ),
  );
  return runDir(records, {
    trailing: '{"id":"ruler-hqa/docs:100/3","ta',
    manifest: manifestFixture({
      command: 'bench run',
      model: { id: model, isReferenceReader: model.startsWith('local:') },
      seed: 1,
      tokenizer: 'o200k_base',
      someNewField: [1, 2],
    }),
  });
}

test('report writes summary, markdown, charts and a self-contained HTML with every output escaped', async () => {
  const dir = hqaRun();
  const out = mkdtempSync(join(tmpdir(), 'bench-report-out-'));
  const warnings: string[] = [];
  const { files } = await reportCommand({ runDirs: [dir], out, paper: true, onWarning: (m) => warnings.push(m) });
  for (const name of ['summary.csv', 'summary.json', 'summary.md', 'report.html'])
    assert.ok(files.includes(join(out, name)), name);
  assert.ok(files.some((f) => f.endsWith('accuracy-ruler-hqa-single.png')));
  for (const f of files.filter((x) => x.endsWith('.png'))) pngSize(readFileSync(f));
  assert.ok(warnings.some((w) => /torn last line/.test(w)));

  const html = readFileSync(join(out, 'report.html'), 'utf8');
  // One script, ours, which the CSP allows by its hash (tests/reports/html-page.test.ts checks it in detail).
  assert.deepEqual(html.match(/<script/gi), ['<script'], 'one script element, no injected one');
  assert.ok(!/<img src=x/i.test(html), 'no injected element');
  assert.ok(html.includes(escapeHtml(EVIL)), 'the prediction shows as text');
  assert.ok(html.includes('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;'));
  assert.match(html, /<img alt="[^"]*" src="data:image\/png;base64,[A-Za-z0-9+/]+=*" width="\d+" height="\d+"/);
  assert.ok(html.includes('reference reader (not an LLM)'));
  assert.ok(html.includes('arXiv 2507.02259'), 'paper comparison present');
  assert.ok(!/src="(?!data:)/.test(html), 'nothing loaded from outside');

  const md = readFileSync(join(out, 'summary.md'), 'utf8');
  assert.match(
    md,
    /\| ruler-hqa \| memagent \| local:reference-reader — reference reader \(not an LLM\) \| docs:50 \| sub_em \| 66\.67 \| 20\.77–93\.85 \| wilson \| 3 \|/,
  );
  assert.match(md, /RL-MemAgent-14B \(memagent\) \| 83\.59 \| 82\.03/);
});

test('an LLM run is not labelled as the reference reader', async () => {
  const dir = hqaRun('http://127.0.0.1:8000/v1#qwen');
  const out = mkdtempSync(join(tmpdir(), 'bench-report-out-'));
  await reportCommand({ runDirs: [dir], out, onWarning: () => {} });
  const html = readFileSync(join(out, 'report.html'), 'utf8');
  assert.ok(!html.includes('reference reader (not an LLM)'));
  assert.ok(html.includes('http://127.0.0.1:8000/v1#qwen'));
  assert.ok(!html.includes('arXiv 2507.02259'), 'no paper table without --paper');
});

test('report combines several run directories; later copies of a sample win', async () => {
  const a = runDir([record({ index: 0, score: 0 }), record({ index: 1, score: 0 })]);
  const b = runDir([record({ index: 0, score: 1 }), record({ method: 'rag', index: 0, score: 1 })]);
  const out = mkdtempSync(join(tmpdir(), 'bench-report-out-'));
  const warnings: string[] = [];
  const { rows } = await reportCommand({ runDirs: [a, b], out, onWarning: (m) => warnings.push(m) });
  const mem = rows.find((r) => r.method === 'memagent');
  assert.equal(mem?.n, 2);
  assert.equal(mem?.score, 0.5);
  assert.ok(rows.some((r) => r.method === 'rag'));
  assert.ok(warnings.some((w) => /also appears? in an earlier run/.test(w)));
  assert.ok(existsSync(join(out, 'report.html')));
});

test('a missing run directory is a UserError', async () => {
  await assert.rejects(
    reportCommand({ runDirs: ['/no/such/run'], onWarning: () => {} }),
    (e: Error) => e.name === 'UserError' && /not found/.test(e.message),
  );
  await assert.rejects(reportCommand({ runDirs: [] }), (e: Error) => e.name === 'UserError');
});

test('the paper table leaves out our lines that match no column and says which lengths', async () => {
  const tokens = runDir(
    [8192, 16384].map((len, k) =>
      record({
        lengthKind: 'tokens',
        length: len,
        lengthLabel: `${len / 1024}k`,
        index: k,
        id: `ruler-hqa/${len / 1024}k/${k}`,
      }),
    ),
  );
  const out = mkdtempSync(join(tmpdir(), 'bench-report-out-'));
  await reportCommand({ runDirs: [tokens], out, paper: true, onWarning: () => {} });
  const md = readFileSync(join(out, 'summary.md'), 'utf8');
  assert.doesNotMatch(md, /\| ours: /);
  assert.match(md, /Our 8k, 16k results match no column/);
  assert.match(md, /RL-MemAgent-14B \(memagent\) \| 83\.59/);
});

test('samples appear in summary order, not in the order they finished', async () => {
  const dir = runDir([
    record({ lengthKind: 'tokens', length: 16384, lengthLabel: '16k', index: 1, id: 'ruler-hqa/16k/1' }),
    record({ lengthKind: 'tokens', length: 8192, lengthLabel: '8k', index: 1, id: 'ruler-hqa/8k/1' }),
    record({ lengthKind: 'tokens', length: 8192, lengthLabel: '8k', index: 0, id: 'ruler-hqa/8k/0' }),
  ]);
  const out = mkdtempSync(join(tmpdir(), 'bench-report-out-'));
  await reportCommand({ runDirs: [dir], out, onWarning: () => {} });
  const html = readFileSync(join(out, 'report.html'), 'utf8');
  const ids = [...html.matchAll(/<td>(ruler-hqa\/\d+k\/\d)<\/td>/g)].map((m) => m[1]);
  assert.deepEqual(ids, ['ruler-hqa/8k/0', 'ruler-hqa/8k/1', 'ruler-hqa/16k/1']);
});
