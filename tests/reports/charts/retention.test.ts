// The retention chart: per length, the share of samples whose memory holds the gold at each distance from the last
// evidence chunk; bench report writes charts/retention-<task>.png with its caption for records with a memory, and
// summary.json counts captured / lost per cell.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { retention } from '../../../harness/memory/retention.js';
import { retentionChartFrame, retentionSeries } from '../../../reports/charts/retention.js';
import { CHART_SIZES } from '../../../reports/charts/canvas.js';
import { reportCommand } from '../../../cli/commands/report.js';
import { FACETS, record, runDir } from '../fixtures.js';
import { assertPrintSize } from '../png.js';

const memagent = (index: number, lengthLabel: string, length: number, holds: string, evidence: number[]) =>
  record({ index, lengthLabel, length, id: `ruler-hqa/${lengthLabel}/${index}`, memory: retention(holds, evidence) });

const records = [
  memagent(0, '32k', 32768, '0011100', [2]), // held 3 chunks, lost at 5
  memagent(1, '32k', 32768, '0001111', [2, 3]), // last evidence 3: held to the end
  memagent(2, '32k', 32768, '0000000', [1]), // never
  memagent(3, '32k', 32768, '1111111', []), // no evidence location: left out
  record({ index: 4, method: 'full-context', id: 'ruler-hqa/32k/4' }),
];

test('retention series: counted from each sample’s last evidence chunk, samples without evidence left out', () => {
  const [s] = retentionSeries(records);
  assert.equal(s.samples, 3);
  // distance 0: chunks 2, 3, 1 → held by 0 and 1; distance 3: chunks 5, 6, 4 → held by 1 only; sample 1 ends there.
  assert.deepEqual(
    s.points.map((p) => [p.held, p.n]),
    [
      [2, 3],
      [2, 3],
      [2, 3],
      [1, 3],
      [0, 2],
      [0, 1],
    ],
  );
  const frame = retentionChartFrame('ruler-hqa', records, CHART_SIZES.single);
  const data = frame.config.data.datasets[0].data as Array<{ x: number; y: number }>;
  // Points need 3 samples: distances 0..3.
  assert.deepEqual(
    data.map((p) => [p.x, Math.round(p.y)]),
    [
      [0, 67],
      [1, 67],
      [2, 67],
      [3, 33],
    ],
  );
});

test('bench report writes charts/retention-<task>.png with a caption, and summary.json counts capture and loss', async () => {
  const dir = runDir(records);
  const out = join(dir, 'report');
  await reportCommand({ runDirs: [dir], out, facets: FACETS, onWarning: () => {} });
  const png = join(out, 'charts', 'retention-ruler-hqa-double.png');
  assert.ok(existsSync(png));
  assertPrintSize(readFileSync(png), CHART_SIZES.double);
  assert.match(readFileSync(join(out, 'charts', 'retention-ruler-hqa.caption.txt'), 'utf8'), /last evidence chunk/);
  const rows = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')).rows as Array<Record<string, any>>;
  const row = rows.find((r) => r.method === 'memagent');
  assert.deepEqual(row?.memory, { samples: 4, captured: 3, lost: 1, keptToEnd: 2 });
  assert.equal(rows.find((r) => r.method === 'full-context')?.memory, undefined);
});
