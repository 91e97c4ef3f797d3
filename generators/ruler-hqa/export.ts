// `bench export --format memagent`: DIR/results/ruler_hqa_<N>/<name>.jsonl (ruler_<task>_<length>/ for NIAH) with
// _id, response, answer, pred, judge_*: what BytedTsinghua-SIA/MemAgent taskutils/memory_eval/ruler_hqa.py /
// ruler_general.py write and visualize.py, run in DIR, reads.
import { join } from 'node:path';
import { exportName, isScoredStatus, type ExportLayout, type PlacedRow } from '../../harness/formats/export-layout.js';
import { pyStrip } from '../../harness/protocol/pytext.js';
import { pyRound } from '../../harness/protocol/round.js';
import { getMetric, scoreAll, type MetricRegistry } from '../../harness/scorers/index.js';
import { scoreSample } from '../../harness/scorers/score-sample.js';
import type { SampleRecord } from '../../harness/types.js';
import { isRulerTokenRecord, rulerLength } from '../ruler/export.js';

/** MemAgent's result folder: ruler_hqa_<N> by document count (<label> at a token length), ruler_<task>_<tokens>. */
export function memagentFolder(r: Pick<SampleRecord, 'task' | 'lengthKind' | 'length' | 'lengthLabel'>): string {
  if (r.task === 'ruler-hqa') return r.lengthKind === 'docs' ? `ruler_hqa_${r.length}` : `ruler_hqa_${r.lengthLabel}`;
  return `ruler_${r.task}_${r.length}`;
}

function memagentRow(r: SampleRecord, metrics: MetricRegistry): PlacedRow {
  const ok = isScoredStatus(r.status);
  // The driver stores the stripped reply and extract_answer's result (None when there is no answer phrase). A failed
  // generation is an empty reply: no answer, every judge 0.
  const response = ok ? pyStrip(r.rawOutput) : '';
  const pred = ok ? r.prediction : null;
  const judged = scoreSample({ ...r, status: ok ? 'ok' : r.status }, metrics).score;
  const rel = join('results', memagentFolder(r), `${exportName(r)}.jsonl`);
  if (r.task === 'ruler-hqa') {
    // ruler_hqa.py: the eval_{N}.json item {input, answers, num_docs, index} (context popped), then _id, response,
    // answer = answers[0], pred, judge_f1 (rounded to 2 decimals), judge_em, judge_sub_em.
    const qa = ok ? scoreAll(getMetric(metrics, 'sub_em'), r.prediction, r.answers).scores : { f1: 0, em: 0 };
    const numDocs = r.metadata.num_docs;
    return {
      rel,
      row: [
        ['input', r.question],
        ['answers', r.answers],
        ['num_docs', typeof numDocs === 'number' ? numDocs : null],
        ['index', r.index],
        ['_id', r.index],
        ['response', response],
        ['answer', r.answers[0] ?? ''],
        ['pred', pred],
        ['judge_f1', pyRound(qa.f1, 2)],
        ['judge_em', qa.em],
        ['judge_sub_em', judged],
      ],
    };
  }
  // ruler_general.py: the eval_{task}_{length}.json item {index, input, length} (context popped, outputs moved to
  // answer), then _id, response, answer, pred, judge_sub_em; for qa_* (no length in MemAgent's qa files) also
  // judge_em and judge_f1, each rounded to 2 decimals (calc_qa_metrics), all 0 without an answer.
  if (r.task.startsWith('qa')) {
    const qa = ok && pred ? scoreAll(getMetric(metrics, 'sub_em'), r.prediction, r.answers).scores : { f1: 0, em: 0 };
    return {
      rel,
      row: [
        ['index', r.index],
        ['input', r.question],
        ['_id', r.index],
        ['response', response],
        ['answer', r.answers],
        ['pred', pred],
        ['judge_sub_em', judged],
        ['judge_em', pyRound(qa.em, 2)],
        ['judge_f1', pyRound(qa.f1, 2)],
      ],
    };
  }
  return {
    rel,
    row: [
      ['index', r.index],
      ['input', r.question],
      ['length', rulerLength(r)],
      ['_id', r.index],
      ['response', response],
      ['answer', r.answers],
      ['pred', pred],
      ['judge_sub_em', judged],
    ],
  };
}

export const memagentExportLayout: ExportLayout = {
  name: 'memagent',
  rank: 30,
  label: 'MemAgent',
  reader: "MemAgent's visualize.py",
  help: 'DIR/results/ruler_hqa_<N>/<model>__<method>.jsonl           (MemAgent taskutils/memory_eval/visualize.py)',
  fits: 'ruler-hqa and the RULER tasks (niah_*)',
  failedNote: ", empty response, judges 0; MemAgent's driver would leave them out",
  misfit(r) {
    if (r.task === 'ruler-hqa' || isRulerTokenRecord(r)) return null;
    return 'not RULER-HQA or a RULER task at a token length';
  },
  place: memagentRow,
  peerCommands: (result) => [
    `python visualize.py   # in ${result.out}, with MemAgent's taskutils/memory_eval/visualize.py (it reads results/ruler_hqa*)`,
  ],
};
