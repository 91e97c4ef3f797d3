// `bench export --format ruler`: DIR/<name>/synthetic/<length>/pred/<task>.jsonl with index, pred, input, outputs,
// others, truncation, length: what NVIDIA/RULER scripts/pred/call_api.py writes and scripts/eval/evaluate.py
// --data_dir DIR/<name>/synthetic/<length>/pred reads (<length> = the token target, RULER's MAX_SEQ_LENGTH).
import { dirname, join } from 'node:path';
import { exportName, scoredAnswer, type ExportLayout, type PlacedRow } from '../../harness/formats/export-layout.js';
import type { MetricRegistry } from '../../harness/scorers/index.js';
import type { SampleRecord } from '../../harness/types.js';
import { RULER_TASKS } from './score-source.js';

/** RULER's `length`: prompt tokens plus the generation budget, as RULER's data files count it; -1 (call_api.py's default) when unknown. */
export function rulerLength(r: SampleRecord): number {
  const prompt = r.metadata.prompt_tokens;
  const gen = r.metadata.tokens_to_generate;
  return typeof prompt === 'number' && typeof gen === 'number' ? prompt + gen : -1;
}

/** A record of one of RULER's tasks at a token length (what RULER's and MemAgent's NIAH layouts hold). */
export function isRulerTokenRecord(r: Pick<SampleRecord, 'task' | 'lengthKind'>): boolean {
  return RULER_TASKS.includes(r.task) && r.lengthKind === 'tokens';
}

function rulerRow(r: SampleRecord, metrics: MetricRegistry): PlacedRow {
  return {
    rel: join(exportName(r), 'synthetic', String(r.length), 'pred', `${r.task}.jsonl`),
    // call_api.py's fields. `input` is the question: the run keeps no copy of the whole prompt (RULER writes the
    // prompt with its context here; evaluate.py only prints it with --verbose).
    row: [
      ['index', r.index],
      ['pred', scoredAnswer(r, metrics)],
      ['input', r.question],
      ['outputs', r.answers],
      ['others', {}],
      ['truncation', -1],
      ['length', rulerLength(r)],
    ],
  };
}

export const rulerExportLayout: ExportLayout = {
  name: 'ruler',
  rank: 10,
  label: 'RULER',
  reader: "RULER's evaluate.py",
  help: 'DIR/<model>__<method>/synthetic/<tokens>/pred/<task>.jsonl   (NVIDIA/RULER eval/evaluate.py)',
  fits: "RULER's tasks (niah_*) at token lengths",
  misfit(r) {
    if (!RULER_TASKS.includes(r.task)) return "not one of RULER's tasks";
    if (r.lengthKind !== 'tokens') return 'not at a token length';
    return null;
  },
  place: rulerRow,
  peerCommands(result) {
    const dirs = [...new Set(result.files.map((f) => dirname(f.path)))];
    return dirs.map((d) => `python scripts/eval/evaluate.py --data_dir ${d} --benchmark synthetic   # in RULER/`);
  },
};
