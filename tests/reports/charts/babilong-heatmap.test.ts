// BABILong's heatmap at its largest grid (all 20 tasks × the 14 lengths 0k … 10M): every value printed at both sizes,
// labels at 8–9 pt; at one column wide the colour bar gives its room to the values.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { parseLengths } from '../../../harness/config/lengths.js';
import type { RenderedChart } from '../../../harness/report/facet.js';
import { MIN_VALUE_PT } from '../../../reports/charts/babilong-heatmap.js';
import { CHART_SIZES } from '../../../reports/charts/canvas.js';
import { summarize } from '../../../reports/summary.js';
import { FACETS, record } from '../fixtures.js';

const LENGTHS = parseLengths('0k,1k,2k,4k,8k,16k,32k,64k,128k,512k,1m,2m,4m,10m');
const TASKS = Array.from({ length: 20 }, (_, i) => `qa${i + 1}`);
const NAMES = ['0k', '1k', '2k', '4k', '8k', '16k', '32k', '64k', '128k', '512k', '1M', '2M', '4M', '10M'];

/** Two samples a cell; right on both, one or none by task and length (qa7 has no 4k cell). */
const records = TASKS.flatMap((task, t) =>
  LENGTHS.flatMap((l, j) =>
    task === 'qa7' && l.label === '4k'
      ? []
      : [0, 1].map((index) =>
          record({
            task,
            metric: 'babilong_acc',
            lengthLabel: l.label,
            length: l.value,
            index,
            score: (t + j + index) % 3 === 0 ? 0 : 1,
          }),
        ),
  ),
);
const rows = summarize(records, FACETS);
/** The heatmap as `bench report` gets it: from the catalog's BABILong facet. */
const [heatmap] = FACETS.find((f) => f.name === 'babilong-heatmap')!.charts!({
  rows,
  records,
  referenceModels: new Set(),
}).charts;

function texts(svg: string): Array<{ text: string; size: number }> {
  return [...svg.matchAll(/<text[^>]*font-size="([\d.]+)"[^>]*>([^<]*)<\/text>/g)].map((m) => ({
    size: Number(m[1]),
    text: m[2],
  }));
}

test('20 tasks × 14 lengths: rows qa1 … qa20, columns as BABILong names them, a value in every cell', () => {
  for (const size of Object.values(CHART_SIZES)) {
    const { bytes, caption } = heatmap.render(size, { format: 'svg', title: true }) as RenderedChart;
    const all = texts(bytes.toString('utf8'));
    const values = all.filter((t) => /^(\d+|–)$/.test(t.text) && t.size < 9);
    const expected = TASKS.flatMap((task, t) =>
      LENGTHS.map((_, j) => {
        if (task === 'qa7' && j === 3) return '–';
        const right = [0, 1].filter((index) => (t + j + index) % 3 !== 0).length;
        return String((100 * right) / 2);
      }),
    );
    // The colour bar's ticks (0 … 100) come after the cells.
    assert.deepEqual(
      values.slice(0, expected.length).map((v) => v.text),
      expected,
      size.name,
    );
    for (const name of [...TASKS, ...NAMES])
      assert.ok(
        all.some((t) => t.text === name && t.size === 8),
        name,
      );
    const bar = all.some((t) => t.text.startsWith('score')); // the colour bar's label
    const labels = all.filter((t) => !values.slice(0, expected.length).includes(t));
    assert.ok(
      labels.every((t) => t.size >= 8 && t.size <= 9),
      `${size.name}: ${[...new Set(labels.map((t) => t.size))]}`,
    );
    if (size.name === 'double') {
      assert.ok(bar, 'double: colour bar');
      assert.ok(values.every((v) => v.size === 8));
    } else {
      assert.ok(!bar, 'single: no room for the colour bar');
      assert.ok(
        values.every((v) => v.size >= MIN_VALUE_PT && v.size < 8),
        String(values[0].size),
      );
      assert.ok(caption.notes.some((n) => n.startsWith('No colour bar at this size')));
    }
    assert.ok(caption.notes.includes('Grey, –: not run at that length.'));
  }
});
