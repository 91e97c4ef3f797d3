// bench view's server over real HTTP: pages render with every run string escaped, the CSP forbids scripts and inline
// style, files come only from inside the run directory (traversal, encoded traversal and a symlink out are refused),
// it is read-only and answers only at the address it printed. The CLI prints the URL and refuses bad input in one line.
import { afterAll, beforeAll, test } from 'vitest';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { spawn } from 'node:child_process';
import { loadViewRuns } from '../../../cli/commands/view.js';
import { startView, type RunningView } from '../../../reports/view/server.js';
import { STEPS_PER_PAGE } from '../../../reports/view/pages.js';
import { FACETS } from '../fixtures.js';
import { BIN } from '../../helpers/bench-serve.js';
import { runBench, assertOneLine } from '../../helpers/cli.js';
import { CHUNKS, LONG_ID, viewFixture } from './fixture.js';

let view: RunningView;
let dir: string;

beforeAll(async () => {
  dir = viewFixture().dir;
  view = await startView(await loadViewRuns([dir], FACETS), 0);
});
afterAll(() => view.close());

function get(
  path: string,
  opts: { method?: string; host?: string } = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: view.port,
        path,
        method: opts.method ?? 'GET',
        headers: { host: opts.host ?? `127.0.0.1:${view.port}` },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const q = encodeURIComponent;

test('the run list shows the grid with scores and intervals, under a strict CSP', async () => {
  const r = await get('/');
  assert.equal(r.status, 200);
  const csp = String(r.headers['content-security-policy']);
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /script-src 'none'/);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https?:/);
  assert.match(r.body, /ruler-hqa/);
  assert.match(r.body, /memagent/);
  assert.match(r.body, /\[\d+\.\d\d–\d+\.\d\d\]/, 'an interval');
  assert.doesNotMatch(r.body, /<script|style=/i);
});

test('a cell lists its samples; the filters keep wrong ones, errors, over-target', async () => {
  const cell = `/run/0/cell?task=ruler-hqa&length=32k&method=memagent`;
  const all = await get(cell);
  assert.match(all.body, /30 of 30 samples/);
  const wrong = await get(`${cell}&filter=wrong`);
  // Indices 0, 4, ..., 28 score 0 (8 of them) and 5 is an error.
  assert.match(wrong.body, /9 of 30 samples/);
  const errors = await get(`${cell}&filter=errors`);
  assert.match(errors.body, /1 of 30 samples/);
  assert.match(errors.body, /&lt;b&gt;from server&lt;\/b&gt;/, 'the error message is escaped');
  assert.match((await get(`${cell}&filter=over-target`)).body, /0 of 30 samples/);
});

test('hostile model output is text everywhere: table, sample page, memory, caption', async () => {
  const pages = [
    '/run/0/cell?task=ruler-hqa&length=32k&method=full-context',
    `/run/0/sample?id=${q('ruler-hqa/32k/3')}&method=full-context`,
    `/run/0/sample?id=${q(LONG_ID)}&method=memagent&from=${STEPS_PER_PAGE - 5}`,
    '/run/0/charts',
  ];
  for (const p of pages) {
    const r = await get(p);
    assert.equal(r.status, 200, p);
    assert.doesNotMatch(r.body, /<script|<img src=x|<b>bold/i, p);
    assert.match(r.body, /&lt;script&gt;window.__pwned=1&lt;\/script&gt;/, p);
  }
});

test('a sample page pages its memory steps and marks evidence, entry and exit', async () => {
  const first = await get(`/run/0/sample?id=${q(LONG_ID)}&method=memagent`);
  assert.equal((first.body.match(/<article class="step/g) ?? []).length, STEPS_PER_PAGE);
  assert.match(first.body, new RegExp(`memory steps 0–${STEPS_PER_PAGE - 1} of ${CHUNKS}`));
  assert.match(first.body, /first entered the memory after chunk 12\. It left after chunk 40\. Evidence in chunk 12\./);
  assert.match(first.body, /id="chunk-12"[^]*?evidence chunk[^]*?gold entered/);
  assert.match(first.body, /tokens 61,?000–61,?400|61000–61400/);
  // The second page: chunk 40 carries "gold left", and a step whose memory did not change is shown from its hash.
  const last = await get(`/run/0/sample?id=${q(LONG_ID)}&method=memagent&from=${STEPS_PER_PAGE}`);
  assert.match(last.body, /id="chunk-40"[^]*?gold left/);
  assert.match(last.body, /unchanged/);
  // The diff: chunk 12 adds the gold fact to chunk 11's memory.
  assert.match(first.body, /id="chunk-12"[^]*?<ins>[^<]*Alice Liddell/);
});

test('a sample whose generator cannot place its evidence says why, escaped', async () => {
  const r = await get(`/run/0/sample?id=${q('ruler-hqa/32k/7')}&method=memagent`);
  assert.equal(r.status, 200);
  assert.match(r.body, /<p>This row names no evidence &lt;b&gt;at all&lt;\/b&gt;\.<\/p>/);
  assert.doesNotMatch(r.body, /<table class="evidence">/);
});

test('two methods side by side on one sample', async () => {
  const r = await get(`/compare?id=${q(LONG_ID)}&a=0:memagent&b=0:full-context`);
  assert.equal(r.status, 200);
  assert.match(r.body, /memagent vs full-context/);
  assert.equal((r.body.match(/class="side"/g) ?? []).length, 2);
  assert.equal((await get(`/compare?id=${q(LONG_ID)}&a=0:memagent&b=0:nope`)).status, 404);
});

test('files only from inside the run directory: traversal, encoded traversal and a symlink out are refused', async () => {
  const chart = await get('/run/0/file/charts/accuracy-ruler-hqa-double.png');
  assert.equal(chart.status, 200);
  assert.equal(chart.headers['content-type'], 'image/png');
  for (const p of [
    '/run/0/file/..%2f..%2f..%2fetc%2fpasswd',
    '/run/0/file/%2e%2e%2f%2e%2e%2fetc%2fpasswd',
    '/run/0/file/charts%2f..%2f..%2fsecret.png',
    `/run/0/file/${q('/etc/passwd')}`,
    '/run/0/file/charts/leak.png',
  ]) {
    const r = await get(p);
    assert.equal(r.status, 403, `${p}: ${r.status}`);
    assert.doesNotMatch(r.body, /root:|not for the view/);
  }
  // Only charts and captions: samples.jsonl is not served raw.
  assert.equal((await get('/run/0/file/samples.jsonl')).status, 404);
  assert.equal((await get('/run/7/')).status, 404);
});

test('read-only and only at the printed address', async () => {
  assert.equal((await get('/', { method: 'POST' })).status, 405);
  assert.equal((await get('/', { method: 'DELETE' })).status, 405);
  assert.equal((await get('/', { host: 'evil.example:80' })).status, 421);
  assert.equal((await get('/', { host: `localhost:${view.port}` })).status, 200);
});

test('bench view prints its URL on 127.0.0.1 and serves until stopped', async () => {
  const child = spawn(process.execPath, [BIN, 'view', dir, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d) => {
        out += String(d);
        const m = /bench view: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
        if (m) resolve(m[1]);
      });
      child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
    });
    const res = await fetch(url);
    assert.equal(res.status, 200);
    assert.match(await res.text(), /Runs/);
  } finally {
    child.kill('SIGTERM');
  }
});

test('bad input: one line, exit 2', async () => {
  assertOneLine(await runBench(['view', '/nonexistent/run']), 2, /run directory not found: \/nonexistent\/run/);
  assertOneLine(await runBench(['view', dir, '--port', 'x']), 2, /--port must be a whole number/);
  assertOneLine(await runBench(['view', dir, '--port', '70000']), 2, /--port must be at most 65535/);
});
