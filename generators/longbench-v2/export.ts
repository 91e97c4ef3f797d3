// `bench export --format longbench-v2`: DIR/results/<model>__<method>[_cot|_rag|_no_context].jsonl, one line per item
// with pred.py's fields in its order, which LongBench v2's result.py (run in DIR) reads.
import { join } from 'node:path';
import { pyStrip } from '../../harness/protocol/pytext.js';
import { exportName, isScoredStatus, type ExportLayout, type PlacedRow } from '../../harness/formats/export-layout.js';
import type { SampleRecord } from '../../harness/types.js';
import { LONGBENCH_V2_TASK } from './index.js';
import { V2_FIELDS } from './load.js';
import { extractV2Answer } from './scoring.js';

/** pred.py's output file suffix for each mode (--rag N writes _rag_N; the N is not known here). */
const SUFFIX: Record<string, string> = {
  '0shot': '',
  '0shot_cot': '_cot',
  '0shot_rag': '_rag',
  '0shot_no_context': '_no_context',
};

/** data.json's item fields that pred.py copies as they are, in its order; `answer` and `context` follow. */
const ITEM_FIELDS = V2_FIELDS.filter((k) => k !== 'answer' && k !== 'context');

function v2Row(r: SampleRecord): PlacedRow {
  const m = r.metadata;
  const mode = typeof m.v2_prompt === 'string' ? m.v2_prompt : '0shot';
  // response = output.strip(); an over-target sample was scored, so it goes out like an ok one (D45); a failed one
  // (which pred.py would not write) with an empty response.
  const response = isScoredStatus(r.status) ? pyStrip(r.rawOutput) : '';
  const pred = extractV2Answer(response);
  const first = r.extra?.first_output;
  return {
    rel: join('results', `${exportName(r)}${SUFFIX[mode] ?? ''}.jsonl`),
    row: [
      ...ITEM_FIELDS.map((k): [string, unknown] => [k, m[k]]),
      ['answer', r.answers[0]],
      ['context', m.context_head],
      ...(mode === '0shot_cot'
        ? [['response_cot', typeof first === 'string' ? pyStrip(first) : ''] as [string, unknown]]
        : []),
      ['response', response],
      ['pred', pred],
      ['judge', pred === r.answers[0]],
    ],
  };
}

export const longbenchV2ExportLayout: ExportLayout = {
  name: 'longbench-v2',
  rank: 25,
  label: 'LongBench v2',
  reader: "LongBench v2's result.py",
  help: 'DIR/results/<model>__<method>[_cot|_rag|_no_context].jsonl   (THUDM/LongBench result.py)',
  fits: 'the longbench-v2 task',
  failedNote: 'pred null, judge false: counted wrong, where pred.py would leave the item out',
  misfit: (r) => (r.task === LONGBENCH_V2_TASK ? null : 'not a LongBench v2 sample'),
  place: v2Row,
  peerCommands: (result) => [`python result.py   # in ${result.out}, with LongBench v2's result.py; writes result.txt`],
};
