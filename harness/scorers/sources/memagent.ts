// Scores result files of MemAgent's evaluation driver (BytedTsinghua-SIA/MemAgent taskutils/memory_eval/run.py writes
// results/ruler_hqa_<docs>/<config>.jsonl and results/ruler_<task>_<length>/<config>.jsonl). Each line is the input
// item minus its context, plus response (stripped model output), pred (extracted answer), answer and judge_* scores.
// We re-extract from `response`, re-score, and compare with the mean of the stored judge_sub_em.
import { basename, dirname } from 'node:path';
import { tokenLabel } from '../../config/lengths.js';
import { Group, type ScoreRow } from '../aggregate.js';
import { extractBoxedAnswer, extractPhraseAnswer } from '../../protocol/answer.js';
import { scoreAll } from '../index.js';
import { memagentNiahOnAnswer } from '../ruler.js';
import { isStringArray, lineError, readJsonl } from '../../run-dir/jsonl.js';

const EXPECTED_LINES = 128;

/** Task and length from the result folder name: ruler_hqa_50 → (ruler_hqa, docs:50); ruler_vt_8192 → (vt, 8k). */
export function memagentPlace(folder: string): { task: string; lengthLabel: string } {
  const hqa = /^ruler_hqa_(\d+)$/.exec(folder);
  if (hqa) return { task: 'ruler_hqa', lengthLabel: `docs:${hqa[1]}` };
  const general = /^ruler_(.+)_(\d+)$/.exec(folder);
  if (general) return { task: general[1], lengthLabel: tokenLabel(Number(general[2])) };
  return { task: folder, lengthLabel: '-' };
}

function goldsOf(file: string, line: number, v: Record<string, unknown>): string[] {
  if (isStringArray(v.answers)) return v.answers;
  if (typeof v.answer === 'string') return [v.answer];
  if (isStringArray(v.answer)) return v.answer;
  throw lineError(file, line, `no gold answers: expected 'answers' or 'answer' (MemAgent result line)`);
}

export function scoreMemAgent(files: string[], warnings: string[]): ScoreRow[] {
  const rows: ScoreRow[] = [];
  for (const file of files) {
    const { task, lengthLabel } = memagentPlace(basename(dirname(file)));
    const config = basename(file).replace(/\.jsonl$/, '');
    const qa = task === 'ruler_hqa' || task.includes('qa');
    const metric = qa ? 'sub_em' : 'memagent_niah';
    const group = new Group({ task, method: 'memagent-driver', model: config, lengthLabel, metric });
    let mismatches = 0;
    let firstMismatch = 0;
    const lines = readJsonl(file).lines;
    for (const { line, value } of lines) {
      const golds = goldsOf(file, line, value);
      const stored = typeof value.pred === 'string' ? value.pred : null;
      let pred = stored;
      if (typeof value.response === 'string') {
        pred = extractPhraseAnswer(value.response);
        // The boxed drivers (api recurrent-boxed / boxed) store the last \boxed{} instead.
        if (pred !== stored && extractBoxedAnswer(value.response) === stored) pred = stored;
        if (pred !== stored) {
          mismatches++;
          firstMismatch ||= line;
        }
      }
      if (qa) {
        const r = scoreAll('sub_em', pred, golds);
        const extras = { ...r.scores };
        delete extras.sub_em;
        group.add(r.score, extras, 'ok', pred);
      } else {
        group.add(memagentNiahOnAnswer(pred, golds), {}, 'ok', pred);
      }
      const judged = value.judge_sub_em;
      if (typeof judged === 'number' || typeof judged === 'boolean') group.addReference(Number(judged));
    }
    if (mismatches > 0) warnings.push(`${file}: our extraction differs from the stored pred on ${mismatches} of ${lines.length} lines (first at line ${firstMismatch}); scored our extraction`);
    if (lines.length !== EXPECTED_LINES) {
      warnings.push(`${file}: ${lines.length} lines; MemAgent's runs have ${EXPECTED_LINES} per file, and its driver does not write failed samples`);
    }
    rows.push(group.row({ referenceLabel: 'mean judge_sub_em' }));
  }
  return rows;
}
