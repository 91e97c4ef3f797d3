// The QA metrics several families share (MemAgent's sub_em and its em/f1 extras, our sub_em_strict): RULER-HQA
// scores with them, the generic JSONL task defaults to sub_em, and any family with short gold answers may name them.
// They live in the harness, registered by the Catalog before any family's, so that no family depends on another.
import { pyRound } from '../protocol/round.js';
import type { Metric } from './metric.js';
import { answerF1, exactMatch, normalizesToEmpty, subEm, subEmStrict } from './qa.js';

export const QA_METRICS: readonly Metric[] = [
  {
    name: 'sub_em',
    description:
      'MemAgent sub-EM (faithful): normalised answers[0] ⊆ prediction or prediction ⊆ answers[0]; a prediction normalising to "" scores 1; extras em, f1 (rounded per sample to 2 decimals, as MemAgent\'s driver)',
    score: (p, a) => subEm(p, a),
    extra: (p, a) => ({
      em: exactMatch(p, a),
      // MemAgent's driver records judge_f1 = round(f1, 2) per sample and averages those (calc_metrics); the
      // standalone `f1` metric below is the unrounded F1.
      f1: pyRound(answerF1(p, a), 2),
      sub_em_strict: subEmStrict(p, a),
      empty_norm: normalizesToEmpty(p) ? 1 : 0,
    }),
  },
  {
    name: 'sub_em_strict',
    description: 'sub-EM on whole tokens vs answers[0]; a side normalising to "" scores 0 (our stricter variant)',
    score: (p, a) => subEmStrict(p, a),
  },
  {
    name: 'em',
    description: 'exact match of SQuAD-normalised strings vs answers[0]',
    score: (p, a) => exactMatch(p, a),
  },
  {
    name: 'f1',
    description:
      'token F1 of SQuAD-normalised strings vs answers[0] (0 when a side is yes/no/noanswer and they differ)',
    score: (p, a) => answerF1(p, a),
  },
];
