// report.html as text (issue 23 part 5): counts with thousands separators, every run-supplied string escaped, one
// script of ours allowed by its hash, the sample table's filters and page size, figures embedded whole.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createCanvas } from '@napi-rs/canvas';
import { renderHtml, type ReportData } from '../../reports/html.js';
import { CLIENT_SCRIPT } from '../../reports/html/client-script.js';
import { fmtInt } from '../../reports/html/numbers.js';
import { sampleResult } from '../../reports/html/sample-table.js';
import { svgSize } from '../../reports/html/figures.js';
import { summarize } from '../../reports/summary.js';
import type { SampleRecord } from '../../harness/types.js';
import { FACETS, record } from './fixtures.js';

/** A prediction that tries every way out of its cell and out of the script element. */
const BREAKOUT =
  '</script><script>window.__pwned=1</script><!-- <script> \u2028\u2029 </td></tr></table>' +
  '<img src=x onerror="window.__pwned=2"> " \' & </SCRIPT >';

function records(): SampleRecord[] {
  const out: SampleRecord[] = [];
  for (const method of ['memagent', 'full-context'])
    for (const [label, length] of [
      ['8k', 8192],
      ['16k', 16384],
    ] as const)
      for (let index = 0; index < 40; index++)
        out.push(
          record({
            method,
            lengthLabel: label,
            length,
            index,
            id: `ruler-hqa/${label}/${index}`,
            builtTokens: length - 7 - index,
            score: index % 4 === 0 ? 0 : index % 4 === 1 ? 0.5 : 1,
            status: index === 3 ? 'error' : 'ok',
            error: index === 3 ? 'HTTP 500 <b>boom</b>' : undefined,
            prediction: index === 2 && method === 'memagent' && label === '8k' ? BREAKOUT : `answer ${index}`,
            usage: { promptTokens: 1_234_567, completionTokens: 8_901 },
          }),
        );
  return out;
}

function pngOf(width: number, height: number): Buffer {
  return createCanvas(width, height).toBuffer('image/png');
}

function page(over: Partial<ReportData> = {}, opts = {}): string {
  const recs = over.records ?? records();
  return renderHtml(
    {
      runs: [{ dir: '/tmp/run', manifest: null, records: recs.length }],
      rows: summarize(recs, FACETS),
      records: recs,
      facets: FACETS,
      charts: [],
      comparisons: [],
      warnings: [],
      ...over,
    },
    opts,
  );
}

test('fmtInt groups thousands the same on every machine', () => {
  assert.equal(fmtInt(0), '0');
  assert.equal(fmtInt(999), '999');
  assert.equal(fmtInt(1000), '1,000');
  assert.equal(fmtInt(1_002_341_183), '1,002,341,183');
  assert.equal(fmtInt(-12_500), '-12,500');
  assert.equal(fmtInt(1234.6), '1,235');
  assert.equal(fmtInt(Number.NaN), 'NaN');
});

test('token counts, calls and sample counts carry thousands separators, right-aligned', () => {
  const html = page();
  // 40 samples × 1,234,567 prompt tokens in a summary row, and the completion tokens likewise.
  assert.ok(html.includes('<td class="r">49,382,680</td>'), 'prompt tokens of a row');
  assert.ok(html.includes('<td class="r">356,040</td>'), 'completion tokens of a row');
  assert.doesNotMatch(html, /\b49382680\b/, 'no raw count left');
  assert.match(html, /<div class="tok">8,185 tokens<\/div>/, "a sample's built context");
  assert.match(html, /<td>160<\/td><\/tr>/, 'the runs table counts samples');
  const many = page({ records: records().slice(0, 2), runs: [{ dir: 'x', manifest: null, records: 12_345 }] });
  assert.match(many, /<td>12,345<\/td>/);
});

test('the one script is ours, allowed by its hash; a prediction cannot open, close or bend a script', () => {
  const html = page();
  assert.deepEqual(html.match(/<script/gi), ['<script'], 'exactly one script element');
  assert.deepEqual(html.match(/<\/script/gi), ['</script'], 'closed exactly once');
  const script = /<script>([\s\S]*)<\/script>/.exec(html)?.[1];
  assert.equal(script, CLIENT_SCRIPT, 'the script is the fixed client code, nothing of the run in it');
  const hash = createHash('sha256').update(CLIENT_SCRIPT, 'utf8').digest('base64');
  const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)?.[1] ?? '';
  assert.match(csp, /(^|; )default-src 'none'(;|$)/);
  assert.ok(csp.includes(`script-src 'sha256-${hash}'`), csp);
  assert.doesNotMatch(csp, /script-src[^;]*unsafe/, 'no unsafe-inline or unsafe-eval for scripts');
  assert.match(csp, /form-action 'none'/);
  // The script comes after every sample row: nothing of the run sits inside or after it.
  assert.ok(html.lastIndexOf('<tr data-') < html.indexOf('<script>'));

  // The prediction shows as text: every < > & " ' escaped, U+2028/2029 kept as text inside a <div>.
  assert.ok(
    html.includes(
      '<div class="pred">&lt;/script&gt;&lt;script&gt;window.__pwned=1&lt;/script&gt;&lt;!-- &lt;script&gt; \u2028\u2029 ' +
        '&lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;&lt;img src=x onerror=&quot;window.__pwned=2&quot;&gt; &quot; &#39; &amp; ' +
        '&lt;/SCRIPT &gt;</div>',
    ),
  );
  assert.doesNotMatch(html, /<img src=x/i);
  assert.doesNotMatch(html, /<!--/, 'no comment opened');
  assert.ok(html.includes('HTTP 500 &lt;b&gt;boom&lt;/b&gt;'), 'errors are escaped too');
  assert.doesNotMatch(CLIENT_SCRIPT, /innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|Function\(/);
});

test('the sample table: every row rendered, 50 a page by default, filters for what varies', () => {
  const html = page();
  assert.equal(html.match(/<tr data-/g)?.length, 160, 'all rows are in the page (no script: all show)');
  assert.match(html, /<div id="sample-controls" class="controls" hidden data-page-size="50">/);
  assert.match(html, /<select name="size"><option value="25">25<\/option><option value="50" selected>50<\/option>/);
  assert.match(html, /<option value="0">all<\/option><\/select>/);
  for (const name of ['method', 'length', 'status', 'result'])
    assert.match(html, new RegExp(`<select name="${name}"><option value="">all \\(160\\)</option>`), name);
  assert.doesNotMatch(html, /<select name="task">/, 'one task: no task filter');
  assert.doesNotMatch(html, /<select name="model">/, 'one model: no model filter');
  assert.match(html, /<input type="search" name="q" /);
  assert.match(html, /<button type="reset">clear filters<\/button>/);
  assert.equal(html.match(/<div class="pager">/g)?.length, 2, 'a pager above and below the table');

  // Options in axis order with their counts; result classes as the scorer counts them.
  assert.match(
    html,
    /<select name="length"><option value="">all \(160\)<\/option><option value="0">8k \(80\)<\/option><option value="1">16k \(80\)<\/option>/,
  );
  assert.match(html, /<option value="0">full-context \(80\)<\/option><option value="1">memagent \(80\)<\/option>/);
  assert.match(html, /<select name="status">.*<option value="\d">error \(4\)<\/option>/);
  assert.match(
    html,
    /<select name="result"><option value="">all \(160\)<\/option><option value="0">correct \(score 100\) \(76\)<\/option><option value="1">partial \(between 0 and 100\) \(40\)<\/option><option value="2">incorrect \(score 0\) \(44\)<\/option>/,
  );
  // A row names its options by index (memagent is option 1, 16k option 1), and its id stays a plain cell.
  assert.match(
    html,
    /<tr data-method="1" data-length="1" data-status="\d" data-result="2"><td>ruler-hqa\/16k\/3<\/td>/,
  );
  assert.equal(sampleResult({ status: 'error', score: 1 }), 'incorrect');
  assert.equal(sampleResult({ status: 'ok', score: Number.NaN }), 'incorrect');
  assert.match(html, /<div class="q">Who wrote it\?<\/div>/);
  assert.match(html, /<div class="gold">Alice<\/div>/);
});

test('a run of two tasks and two models gets task and model filters; a page size of our own is offered', () => {
  const recs = [
    record({ task: 'ruler-hqa', index: 0 }),
    record({ task: 'niah-single', index: 0, model: 'http://127.0.0.1:9/v1#qwen' }),
  ];
  const html = page({ records: recs }, { pageSize: 30 });
  assert.match(html, /<select name="task"><option value="">all \(2\)<\/option>/);
  assert.match(html, /<select name="model">/);
  assert.match(html, /<option value="30" selected>30<\/option>/);
  assert.match(html, /data-page-size="30"/);
});

test('rows past maxSampleRows are counted with separators', () => {
  const many = Array.from({ length: 1_500 }, (_, index) => record({ index, id: `t/7k/${index}` }));
  const html = page({ records: many }, { maxSampleRows: 100 });
  assert.equal(html.match(/<div class="q">/g)?.length ?? 0, 100);
  assert.match(html, /1,400 more samples not shown \(see samples\.jsonl\)/);
});

test('figures: the whole PNG at its own size, linked to its file; an SVG wins when the chart has one', () => {
  const png = pngOf(1600, 900);
  const html = page({ charts: [{ title: 'acc <b>', name: 'charts/acc-slide.png', png }] });
  const img =
    /<a class="zoom" href="charts\/acc-slide\.png"[^>]*><img alt="acc &lt;b&gt;" src="data:image\/png;base64,([^"]+)" width="1600" height="900" data-full-width="1600"><\/a>/.exec(
      html,
    );
  assert.ok(img, 'figure markup');
  assert.deepEqual(Buffer.from(img[1], 'base64'), png, 'the very file, not a smaller copy');
  assert.match(html, /\(1600×900 px\); click the figure for full size\./);
  assert.match(html, /<div id="lightbox" hidden/);

  const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="486pt" height="300pt"><text>x</text></svg>';
  const both = page({
    charts: [{ title: 'acc', name: 'charts/acc-slide.png', png, svg, caption: 'shaded: 95% intervals <i>' }],
  });
  const src =
    /<img alt="acc" src="data:image\/svg\+xml;base64,([^"]+)" width="648" height="400" data-full-width="0">/.exec(both);
  assert.ok(src, 'SVG embedded at its print size in CSS px');
  assert.equal(Buffer.from(src[1], 'base64').toString('utf8'), svg);
  assert.match(both, /href="charts\/acc-slide\.svg"/);
  assert.match(both, /<div class="caption">shaded: 95% intervals &lt;i&gt;<\/div>/);
  assert.doesNotMatch(both, /data:image\/png/);

  assert.deepEqual(svgSize('<svg viewBox="0 0 720 480">'), { width: 720, height: 480 });
  assert.deepEqual(svgSize('<svg width="3.25in" height="2in">'), { width: 312, height: 192 });
  assert.equal(svgSize('<svg width="100%">'), null);
  assert.match(page({ charts: [] }), /No charts for these runs/);
});
