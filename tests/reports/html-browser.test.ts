// report.html in a real browser (headless Chromium over a pipe): the sample table pages and filters as a reader
// clicks and types, the CSP lets our script run and nothing else, a hostile prediction stays text, and a figure opens
// at its full size. Skipped where no Chromium is installed (CI has only Node; `apt-get install chromium` adds it).
import { afterAll, beforeAll, describe, test } from 'vitest';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reportCommand } from '../../cli/commands/report.js';
import type { SampleRecord } from '../../harness/types.js';
import { findChromium, Page } from './browser.js';
import { record, runDir } from './fixtures.js';
import { pngSize } from './png.js';
import { readFileSync } from 'node:fs';

const chromium = findChromium();

const HOSTILE = '</script><script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">\u2028 needle-xyz';

/** 2 methods × 3 lengths × 25 samples = 150 rows: 3 pages of 50. */
function records(): SampleRecord[] {
  const out: SampleRecord[] = [];
  for (const method of ['memagent', 'full-context'])
    for (const [label, length] of [
      ['8k', 8192],
      ['16k', 16384],
      ['32k', 32768],
    ] as const)
      for (let index = 0; index < 25; index++)
        out.push(
          record({
            method,
            lengthLabel: label,
            length,
            index,
            id: `ruler-hqa/${label}/${index}`,
            question: `Question number ${index} about ${label}?`,
            score: index % 5 === 0 ? 0 : 1,
            status: index === 7 && method === 'memagent' ? 'error' : 'ok',
            prediction: index === 4 && method === 'full-context' && label === '16k' ? HOSTILE : `Alice ${index}`,
          }),
        );
  return out;
}

/** The visible rows' cells: [id, method, length…] per row. */
const VISIBLE = `Array.from(document.querySelectorAll('#samples tbody tr')).filter((tr) => !tr.hidden)
  .map((tr) => Array.from(tr.cells).slice(0, 3).map((td) => td.firstChild.textContent))`;
const COUNT = `document.querySelector('.sample-count').textContent`;
const set = (name: string, value: string, event = 'change') =>
  `(() => { const el = document.querySelector('#sample-filters [name="${name}"]'); el.value = ${JSON.stringify(value)};
     el.dispatchEvent(new Event('${event}', { bubbles: true })); })()`;
const optionValue = (name: string, label: string) =>
  `Array.from(document.querySelector('#sample-filters [name="${name}"]').options).find((o) => o.text.startsWith(${JSON.stringify(label)})).value`;
const click = (selector: string) => `document.querySelector(${JSON.stringify(selector)}).click()`;

describe.skipIf(chromium === null)('report.html in Chromium', () => {
  let page: Page;
  let chartPng: Buffer;

  beforeAll(async () => {
    const out = mkdtempSync(join(tmpdir(), 'bench-html-browser-'));
    await reportCommand({ runDirs: [runDir(records())], out, onWarning: () => {} });
    chartPng = readFileSync(join(out, 'charts', 'accuracy-ruler-hqa-double.png'));
    page = await Page.open(chromium as string);
    await page.goto(join(out, 'report.html'));
  });

  afterAll(async () => {
    await page?.close();
  });

  test('our script runs under the CSP; nothing else does', async () => {
    assert.deepEqual(page.problems, { exceptions: [], errors: [] }, 'no exception, no CSP violation');
    assert.equal(await page.eval(`document.getElementById('sample-controls').hidden`), false, 'controls shown');
    assert.equal(await page.eval(`document.querySelectorAll('script').length`), 1);
    assert.equal(await page.eval(`typeof window.__pwned`), 'undefined');
  });

  test('50 rows a page; next, last, previous and first move through 150', async () => {
    let rows = await page.eval<string[][]>(VISIBLE);
    assert.equal(rows.length, 50);
    assert.deepEqual(rows[0], ['ruler-hqa/8k/0', 'full-context', '8k']);
    assert.equal(await page.eval(COUNT), 'samples 1–50 of 150 · page 1 of 3');
    assert.equal(await page.eval(`document.querySelector('[data-page="prev"]').disabled`), true);

    await page.eval(click('[data-page="next"]'));
    rows = await page.eval<string[][]>(VISIBLE);
    assert.equal(rows.length, 50);
    assert.deepEqual(rows[0], ['ruler-hqa/32k/0', 'full-context', '32k']);
    assert.equal(await page.eval(COUNT), 'samples 51–100 of 150 · page 2 of 3');

    await page.eval(click('[data-page="last"]'));
    assert.equal(await page.eval(COUNT), 'samples 101–150 of 150 · page 3 of 3');
    assert.equal(await page.eval(`document.querySelector('[data-page="next"]').disabled`), true);
    await page.eval(click('[data-page="prev"]'));
    assert.equal(await page.eval(COUNT), 'samples 51–100 of 150 · page 2 of 3');
    await page.eval(click('[data-page="first"]'));
    assert.equal(await page.eval(COUNT), 'samples 1–50 of 150 · page 1 of 3');

    await page.eval(set('size', '0'));
    assert.equal((await page.eval<string[][]>(VISIBLE)).length, 150, 'all on one page');
    await page.eval(set('size', '25'));
    assert.equal(await page.eval(COUNT), 'samples 1–25 of 150 · page 1 of 6');
    await page.eval(set('size', '50'));
  });

  test('filters by method, length, status and result combine, and a filter goes back to page 1', async () => {
    await page.eval(click('[data-page="last"]'));
    await page.eval(set('method', await page.eval<string>(optionValue('method', 'memagent'))));
    let rows = await page.eval<string[][]>(VISIBLE);
    assert.equal(await page.eval(COUNT), 'samples 1–50 of 75 matching (150 in all) · page 1 of 2');
    assert.ok(rows.every((r) => r[1] === 'memagent'));

    await page.eval(set('length', await page.eval<string>(optionValue('length', '16k'))));
    rows = await page.eval<string[][]>(VISIBLE);
    assert.equal(rows.length, 25);
    assert.ok(rows.every((r) => r[1] === 'memagent' && r[2] === '16k'));

    await page.eval(set('status', await page.eval<string>(optionValue('status', 'error'))));
    assert.deepEqual(await page.eval(VISIBLE), [['ruler-hqa/16k/7', 'memagent', '16k']]);

    await page.eval(set('status', ''));
    await page.eval(set('result', await page.eval<string>(optionValue('result', 'incorrect'))));
    // Scores of 0 at indices 0, 5, 10, 15, 20, and the errored sample 7.
    assert.deepEqual(
      (await page.eval<string[][]>(VISIBLE)).map((r) => r[0]),
      [0, 5, 7, 10, 15, 20].map((i) => `ruler-hqa/16k/${i}`),
    );

    await page.eval(set('length', await page.eval<string>(optionValue('length', '8k'))));
    await page.eval(set('result', await page.eval<string>(optionValue('result', 'correct'))));
    await page.eval(set('method', await page.eval<string>(optionValue('method', 'full-context'))));
    assert.equal((await page.eval<string[][]>(VISIBLE)).length, 20);

    await page.eval(`document.getElementById('sample-filters').reset()`);
    await page.eval('new Promise((resolve) => setTimeout(resolve, 0))');
    assert.equal(await page.eval(COUNT), 'samples 1–50 of 150 · page 1 of 3');
  });

  test('the search box matches question, prediction and gold, word by word', async () => {
    await page.eval(set('q', 'question number 12', 'input'));
    assert.deepEqual((await page.eval<string[][]>(VISIBLE)).map((r) => r[0]).sort(), [
      'ruler-hqa/16k/12',
      'ruler-hqa/16k/12',
      'ruler-hqa/32k/12',
      'ruler-hqa/32k/12',
      'ruler-hqa/8k/12',
      'ruler-hqa/8k/12',
    ]);
    await page.eval(set('q', '32K   number 12 ALICE', 'input'));
    assert.equal((await page.eval<string[][]>(VISIBLE)).length, 2, 'every word must match, case aside');
    await page.eval(set('q', 'no such words', 'input'));
    assert.equal((await page.eval<string[][]>(VISIBLE)).length, 0);
    assert.equal(await page.eval(`document.getElementById('sample-empty').hidden`), false);
    assert.equal(await page.eval(COUNT), 'no sample matches (150 in all)');

    // The hostile prediction is found as text and shown as text.
    await page.eval(set('q', 'needle-xyz', 'input'));
    assert.equal((await page.eval<string[][]>(VISIBLE)).length, 1);
    assert.equal(
      await page.eval(
        `Array.from(document.querySelectorAll('#samples tbody tr')).find((tr) => !tr.hidden).querySelector('.pred').textContent`,
      ),
      HOSTILE,
    );
    assert.equal(await page.eval(`document.querySelectorAll('script').length`), 1);
    assert.equal(await page.eval(`document.querySelectorAll('img[src="x"]').length`), 0);
    assert.equal(await page.eval(`typeof window.__pwned`), 'undefined');
    await page.eval(set('q', '', 'input'));
  });

  test('a figure shows whole and opens at its full size; Escape closes it', async () => {
    const { width, height } = pngSize(chartPng);
    const shown = await page.eval<{ natural: number; css: number }>(
      `(() => { const img = document.querySelector('figure img'); return { natural: img.naturalWidth, css: img.getBoundingClientRect().width }; })()`,
    );
    assert.equal(shown.natural, width, 'the page holds the full-resolution file');
    assert.ok(shown.css <= width && shown.css > 0, `never shown wider than its pixels (${shown.css} px)`);
    await page.eval(click('a.zoom'));
    const big = await page.eval<{ hidden: boolean; w: number; h: number }>(
      `(() => { const box = document.getElementById('lightbox'); const r = box.querySelector('img').getBoundingClientRect();
         return { hidden: box.hidden, w: r.width, h: r.height }; })()`,
    );
    assert.deepEqual(big, { hidden: false, w: width, h: height }, 'one CSS pixel per image pixel');
    await page.send('Input.dispatchKeyEvent', {
      type: 'keyDown',
      key: 'Escape',
      code: 'Escape',
      windowsVirtualKeyCode: 27,
    });
    assert.equal(await page.eval(`document.getElementById('lightbox').hidden`), true);
    assert.deepEqual(page.problems, { exceptions: [], errors: [] });
  });
});
