// bench view in a real browser: Debian's headless Chromium (/usr/bin/chromium, or $CHROMIUM) driven by
// playwright-core, which downloads nothing. It opens the run list, a cell, a sample page and the side-by-side view,
// asserts on what is rendered, checks that hostile model output stays text and that the CSP blocked nothing of ours,
// and keeps screenshots in $BENCH_VIEW_SHOTS when set. Skipped, with the reason, where no Chromium is installed.
import { afterAll, beforeAll, describe, test } from 'vitest';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { loadViewRuns } from '../../../cli/commands/view.js';
import { startView, type RunningView } from '../../../reports/view/server.js';
import { FACETS } from '../fixtures.js';
import { LONG_ID, viewFixture } from './fixture.js';

const executable = [process.env.CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (p): p is string => !!p && existsSync(p),
);
if (!executable)
  console.warn(
    'bench view browser tests skipped: no Chromium at $CHROMIUM, /usr/bin/chromium or /usr/bin/chromium-browser (apt-get install chromium)',
  );
const shots = process.env.BENCH_VIEW_SHOTS;

describe.skipIf(!executable)('bench view in Chromium', () => {
  let view: RunningView;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    view = await startView(await loadViewRuns([viewFixture().dir], FACETS), 0);
    browser = await chromium.launch({ executablePath: executable, args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(String(e)));
    if (shots) mkdirSync(shots, { recursive: true });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await view?.close();
  });

  const shot = async (name: string) => {
    if (shots) await page.screenshot({ path: join(shots, `${name}.png`), fullPage: false });
  };

  test('the run list shows the grid; a score opens its cell, whose filter keeps the wrong samples', async () => {
    await page.goto(view.url);
    assert.equal(await page.locator('h1').textContent(), 'Runs');
    const headers = await page.locator('table.grid thead th').allTextContents();
    assert.deepEqual(headers.slice(0, 2), ['task', 'length']);
    assert.deepEqual(headers.slice(2).sort(), ['full-context', 'memagent']);
    assert.match(
      (await page.locator('table.grid tbody td').nth(1).textContent()) ?? '',
      /\[\d+\.\d\d–\d+\.\d\d\] n=30/,
    );
    await shot('run-list');
    await page.locator('table.grid tbody td', { hasText: 'err' }).locator('a.score').click();
    assert.equal(await page.locator('.sample-count').textContent(), '30 of 30 samples');
    await page.getByRole('link', { name: /wrong only/ }).click();
    assert.equal(await page.locator('.sample-count').textContent(), '9 of 30 samples');
    const statuses = await page.locator('table.samples tbody td:nth-child(2)').allTextContents();
    assert.ok(statuses.some((s) => s.startsWith('error')));
    await shot('cell-wrong');
  });

  test('a sample page: question, gold, evidence, memory steps with the diff and the gold marked', async () => {
    await page.goto(`${view.url}run/0/sample?id=${encodeURIComponent(LONG_ID)}&method=memagent`);
    assert.equal(await page.locator('pre.question').textContent(), 'Who wrote book 0?');
    assert.deepEqual(await page.locator('ul.gold li').allTextContents(), ['Alice Liddell']);
    assert.match(
      (await page.locator('table.evidence tbody tr').first().textContent()) ?? '',
      /Document 7.*61000–61400.*20\.3%.*12/,
    );
    assert.equal(await page.locator('.timeline a').count(), 60);
    assert.equal(await page.locator('.timeline a.held').count(), 28);
    assert.equal(await page.locator('.timeline a.evidence').count(), 1);
    const step12 = page.locator('#chunk-12');
    assert.match((await step12.locator('h3').textContent()) ?? '', /evidence chunk.*holds the gold.*gold entered/);
    assert.match((await step12.locator('ins').allTextContents()).join(' '), /Alice Liddell/);
    await step12.scrollIntoViewIfNeeded();
    await shot('sample-entered');
    // The timeline jumps to the page that holds chunk 40, where the gold left.
    await page.locator('.timeline a').nth(40).click();
    assert.match((await page.locator('#chunk-40 h3').textContent()) ?? '', /gold left/);
    assert.match((await page.locator('#chunk-40 del').allTextContents()).join(' '), /Alice Liddell/);
    // Chunk 20's memory holds hostile markup: shown as text, never run.
    await page.goto(`${view.url}run/0/sample?id=${encodeURIComponent(LONG_ID)}&method=memagent`);
    assert.match((await page.locator('#chunk-20 pre').textContent()) ?? '', /<script>window.__pwned=1<\/script>/);
    assert.equal(await page.evaluate('window.__pwned'), undefined);
    assert.equal(await page.locator('#chunk-20 pre b').count(), 0);
    await page.locator('#chunk-20').scrollIntoViewIfNeeded();
    await shot('sample-hostile');
  });

  test('two methods side by side on the same sample', async () => {
    await page.goto(`${view.url}run/0/sample?id=${encodeURIComponent(LONG_ID)}&method=memagent`);
    await page.getByRole('link', { name: 'full-context' }).first().click();
    assert.match((await page.locator('h1').textContent()) ?? '', /memagent vs full-context/);
    const sides = page.locator('.side');
    assert.equal(await sides.count(), 2);
    assert.match((await sides.nth(0).locator('.prediction').textContent()) ?? '', /Bob/);
    assert.equal(await sides.nth(0).locator('article.step').count(), 25);
    assert.match((await sides.nth(1).textContent()) ?? '', /No memory: this method reads the context in one call/);
    await shot('side-by-side');
  });

  test('the CSP blocked nothing of ours and no page raised an error', async () => {
    await page.goto(`${view.url}run/0/charts`);
    assert.equal(await page.locator('figure img').count(), 1);
    assert.equal(await page.locator('figure img').evaluate((img: HTMLImageElement) => img.naturalWidth), 1);
    assert.deepEqual(problems, []);
    // Styles applied: the stylesheet loaded under style-src 'self'.
    assert.equal(await page.locator('nav').evaluate((n) => getComputedStyle(n).backgroundColor), 'rgb(36, 48, 60)');
  });
});
