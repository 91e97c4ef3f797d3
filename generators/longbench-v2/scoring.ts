// LongBench v2's scoring (THUDM/LongBench pred.py extract_answer, result.py): the letter after "The correct answer is",
// judged against the gold letter; accuracy per difficulty and length class.
import type { Metric } from '../../harness/scorers/metric.js';

/** extract_answer: drop every '*', then `The correct answer is \(([A-D])\)`, else `The correct answer is ([A-D])`. */
export function extractV2Answer(response: string): 'A' | 'B' | 'C' | 'D' | null {
  const text = response.split('*').join('');
  const m = /The correct answer is \(([A-D])\)/.exec(text) ?? /The correct answer is ([A-D])/.exec(text);
  return m ? (m[1] as 'A' | 'B' | 'C' | 'D') : null;
}

/** `judge = pred == answer`: 1 when the extracted letter is the gold one. */
export function judgeV2(response: string | null, answer: string): number {
  return response !== null && extractV2Answer(response) === answer ? 1 : 0;
}

export const LONGBENCH_V2_METRICS: readonly Metric[] = [
  {
    name: 'longbench_v2_acc',
    input: 'raw',
    description:
      "LongBench v2 multiple choice: the letter of 'The correct answer is (X)' (stars removed) equals the gold letter",
    score: (prediction, answers) => judgeV2(prediction, answers[0] ?? ''),
    extra: (prediction) => ({ unparsed: prediction !== null && extractV2Answer(prediction) === null ? 1 : 0 }),
  },
];
