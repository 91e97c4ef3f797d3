// `bench export --format longbench`: DIR/pred/<name>/<dataset>.jsonl (DIR/pred_e/<name>/ for LongBench-E rows) with
// pred, answers, all_classes, length: what THUDM/LongBench LongBench/pred.py writes and `eval.py --model <name>
// [--e]`, run in DIR, reads.
import { join } from 'node:path';
import { UserError } from '../../harness/errors.js';
import { exportName, scoredAnswer, type ExportLayout, type PlacedRow } from '../../harness/formats/export-layout.js';
import type { MetricRegistry } from '../../harness/scorers/index.js';
import type { SampleRecord } from '../../harness/types.js';
import { baseDataset, longbenchMetric } from './protocol.js';
import { longbenchOptionsOf } from './scoring.js';

/** The LongBench dataset of a record as LongBench names it (`hotpotqa_e` for LongBench-E rows), or null. */
function longbenchDataset(r: SampleRecord): string | null {
  const opts = longbenchOptionsOf(r);
  const dataset = opts.dataset ?? (r.task.startsWith('longbench/') ? r.task.slice('longbench/'.length) : undefined);
  if (dataset === undefined || longbenchMetric(dataset) === null) return null;
  return dataset;
}

function longbenchRow(r: SampleRecord, metrics: MetricRegistry): PlacedRow {
  const dataset = longbenchDataset(r)!;
  const e = dataset.endsWith('_e');
  const length = r.metadata.length;
  if (typeof length !== 'number')
    throw new UserError(`${r.id} (${r.method}): no LongBench 'length' in its metadata; LongBench's eval.py needs it`);
  return {
    rel: join(e ? 'pred_e' : 'pred', exportName(r), `${baseDataset(dataset)}.jsonl`),
    // pred.py's fields, in its order.
    row: [
      ['pred', scoredAnswer(r, metrics)],
      ['answers', r.answers],
      ['all_classes', longbenchOptionsOf(r).allClasses ?? null],
      ['length', length],
    ],
  };
}

export const longbenchExportLayout: ExportLayout = {
  name: 'longbench',
  rank: 20,
  label: 'LongBench',
  reader: "LongBench's eval.py",
  help: 'DIR/pred/<model>__<method>/<dataset>.jsonl, pred_e/ for LongBench-E   (THUDM/LongBench eval.py)',
  fits: 'LongBench datasets (longbench/<dataset>)',
  misfit: (r) => (longbenchDataset(r) === null ? 'not a LongBench dataset' : null),
  place: longbenchRow,
  peerCommands(result) {
    const { out } = result;
    const lines: string[] = [];
    for (const name of result.names) {
      if (result.files.some((f) => f.path.startsWith(join(out, 'pred', name) + '/')))
        lines.push(`python eval.py --model ${name}   # in ${out}, with LongBench's eval.py and metrics.py`);
      if (result.files.some((f) => f.path.startsWith(join(out, 'pred_e', name) + '/')))
        lines.push(`python eval.py --model ${name} --e   # in ${out}, with LongBench's eval.py and metrics.py`);
    }
    return lines;
  },
};
