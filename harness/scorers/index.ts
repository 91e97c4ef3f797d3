// Metric registry. Every score is 0..1; ×100 and rounding happen only at the display edge, through toPercent.
import { UserError } from '../errors.js';
import { pyRound } from '../protocol/round.js';
import { longbenchMetric, longbenchMetricProblem } from '../../generators/longbench/protocol.js';
import type { MetricOptions } from '../types.js';
import { classification, codeSim, count, longbenchPrediction, qaF1, retrieval } from '../../generators/longbench/metrics.js';
import { exactMatch, hotpotF1, normalizesToEmpty, subEm, subEmStrict } from './qa.js';
import { pltrdyRouge, rougeLFLongBench } from '../../generators/longbench/rouge-pltrdy.js';
import { rougeLTextbook } from '../../generators/longbench/rouge-textbook.js';
import { memagentNiah, postprocessRulerPred, stringMatchAll, stringMatchPart } from '../../generators/ruler/metrics.js';

export type { MetricOptions } from '../types.js';

export interface Metric {
  name: string;
  description: string;
  /** 'raw': score() expects the raw model output and extracts the answer itself (memagent_niah). */
  input?: 'raw';
  score(prediction: string | null, answers: string[], opts?: MetricOptions): number;
  extra?(prediction: string | null, answers: string[], opts?: MetricOptions): Record<string, number>;
}

function maxOver(answers: readonly string[], f: (gold: string) => number): number {
  // LongBench: score = 0.; score = max(score, metric(pred, gold)) for each gold.
  let best = 0.0;
  for (const gold of answers) best = Math.max(best, f(gold));
  return best;
}

function longbench(
  name: string,
  description: string,
  perGold: (pred: string, gold: string, opts: MetricOptions) => number,
): Metric {
  return {
    name,
    description,
    score: (prediction, answers, opts = {}) => {
      const pred = longbenchPrediction(prediction, opts.dataset);
      return maxOver(answers, (gold) => perGold(pred, gold, opts));
    },
  };
}

const ROUGE_KEYS = ['rouge1', 'rouge2', 'rougeL'] as const;

function pltrdyExtras(prediction: string | null, answers: readonly string[], dataset?: string): Record<string, number> {
  const pred = longbenchPrediction(prediction, dataset);
  const out: Record<string, number> = {};
  for (const k of ROUGE_KEYS) for (const s of ['r', 'p', 'f'] as const) out[`${k}_${s}`] = 0;
  for (const gold of answers) {
    const scores = pltrdyRouge(pred, gold);
    if (!scores.ok) continue;
    for (const k of ROUGE_KEYS)
      for (const s of ['r', 'p', 'f'] as const) out[`${k}_${s}`] = Math.max(out[`${k}_${s}`], scores[k][s]);
  }
  return out;
}

const METRICS: Metric[] = [
  {
    name: 'sub_em',
    description:
      'MemAgent sub-EM (faithful): normalised answers[0] ⊆ prediction or prediction ⊆ answers[0]; a prediction normalising to "" scores 1; extras em, f1 (rounded per sample to 2 decimals, as MemAgent\'s driver)',
    score: (p, a) => subEm(p, a),
    extra: (p, a) => ({
      em: exactMatch(p, a),
      // MemAgent's driver records judge_f1 = round(f1, 2) per sample and averages those (ruler_hqa.py calc_metrics);
      // the standalone `f1` metric below is the unrounded HotpotQA F1.
      f1: pyRound(hotpotF1(p, a), 2),
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
    description: 'HotpotQA token F1 vs answers[0] (0 when a side is yes/no/noanswer and they differ)',
    score: (p, a) => hotpotF1(p, a),
  },
  {
    name: 'string_match_all',
    description: 'RULER: fraction of gold strings found case-insensitively in the post-processed prediction',
    score: (p, a) => stringMatchAll(postprocessRulerPred(p ?? ''), a),
  },
  {
    name: 'string_match_part',
    description: 'RULER: 1 if any gold string is found case-insensitively in the post-processed prediction',
    score: (p, a) => stringMatchPart(postprocessRulerPred(p ?? ''), a),
  },
  {
    name: 'memagent_niah',
    description:
      'MemAgent RULER: "the answer is" extraction from the raw output, then string_match_all rounded per sample to 2 decimals',
    input: 'raw',
    score: (raw, a) => memagentNiah(raw, a),
  },
  longbench('qa_f1', 'LongBench qa_f1: token F1 of normalised strings, max over golds (first line for triviaqa)', qaF1),
  {
    ...longbench(
      'rouge_l_f',
      'LongBench ROUGE-L F as pltrdy rouge 1.0.1 computes it, max over golds; 0 where upstream raises',
      (p, g) => rougeLFLongBench(p, g),
    ),
    extra: (p, a, opts = {}) => {
      const pred = longbenchPrediction(p, opts.dataset);
      // ROUGE-1/2/L recall (MemAgent reports SUM as recall) beside LongBench's headline F.
      return {
        rouge_l_textbook: maxOver(a, (gold) => rougeLTextbook(pred, gold)),
        ...pltrdyExtras(p, a, opts.dataset),
      };
    },
  },
  {
    name: 'rouge_recall',
    description:
      'ROUGE-L recall with pltrdy rouge 1.0.1 rules (MemAgent LongBench-SUM, unverified); extras give ROUGE-1/2/L r, p, f',
    score: (p, a, opts = {}) => pltrdyExtras(p, a, opts.dataset).rougeL_r,
    extra: (p, a, opts = {}) => pltrdyExtras(p, a, opts.dataset),
  },
  longbench(
    'rouge_l_textbook',
    'textbook ROUGE-L F1 (js-rouge: Treebank tokens, clipped counts); not LongBench-comparable',
    (p, g) => rougeLTextbook(p, g),
  ),
  longbench(
    'classification',
    'LongBench classification (trec, lsht): 1/|matched classes| when the gold is among them',
    (p, g, o) => classification(p, g, o.allClasses),
  ),
  longbench(
    'retrieval',
    'LongBench passage_retrieval_en: share of numbers in the prediction equal to the gold paragraph',
    (p, g) => retrieval(p, g, 'en'),
  ),
  longbench('retrieval_zh', 'LongBench passage_retrieval_zh: as retrieval, gold "段落N"', (p, g) =>
    retrieval(p, g, 'zh'),
  ),
  longbench('count', 'LongBench passage_count: share of numbers in the prediction equal to the gold count', count),
  longbench(
    'code_sim',
    'LongBench code edit similarity: difflib ratio of the first code line, rounded to 2 decimals',
    codeSim,
  ),
];

const BY_NAME = new Map(METRICS.map((m) => [m.name, m]));

export function metricNames(): string[] {
  return [...BY_NAME.keys()];
}

export function getMetric(name: string): Metric {
  const metric = BY_NAME.get(name);
  if (!metric) throw new UserError(`unknown metric '${name}'; known metrics: ${metricNames().join(', ')}`);
  return metric;
}

/** The registry metric LongBench v1 uses for a dataset (`hotpotqa` or `hotpotqa_e`); UserError when it has none. */
export function longbenchMetricFor(dataset: string): string {
  const metric = longbenchMetric(dataset);
  if (metric === null) throw new UserError(longbenchMetricProblem(dataset));
  return metric;
}

export interface ScoreResult {
  metric: string;
  /** Headline score, 0..1. */
  score: number;
  /** Headline (under the metric's name) plus every extra, 0..1. */
  scores: Record<string, number>;
}

/** Headline score plus extras (for sub_em: em, f1, sub_em_strict and the empty_norm flag). */
export function scoreAll(
  metricName: string,
  prediction: string | null,
  answers: string[],
  opts: MetricOptions = {},
): ScoreResult {
  const metric = getMetric(metricName);
  const score = metric.score(prediction, answers, opts);
  return {
    metric: metric.name,
    score,
    scores: { [metric.name]: score, ...(metric.extra?.(prediction, answers, opts) ?? {}) },
  };
}

export { normalizeAnswer, normalizesToEmpty } from './qa.js';
