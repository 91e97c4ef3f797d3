// LongBench v1's metrics as registry entries (harness/scorers/metric.ts): each takes the max over golds after the
// first-line rule, reading the dataset and the classification labels from the sample's `scoring` record.
import type { Metric, MetricOptions } from '../../harness/scorers/metric.js';
import { isStringArray } from '../../harness/scorers/score-sample.js';
import { classification, codeSim, count, longbenchPrediction, qaF1, retrieval } from './metrics.js';
import { qaF1Zh, rougeZh } from './metrics-zh.js';
import { pltrdyRouge, rougeLFLongBench } from './rouge-pltrdy.js';
import { rougeLTextbook } from './rouge-textbook.js';

/** What LongBench's metrics read of a sample's `scoring` record (set by the generator). */
export interface LongBenchScoring {
  /** The row's all_classes (classification labels). */
  allClasses?: string[] | null;
  /** Dataset name, with or without `_e`: turns on the first-line rule for trec/triviaqa/samsum/lsht. */
  dataset?: string;
}

/** The LongBench fields of a `scoring` record, typed (a record read from disk is whatever JSON it holds). */
export function longbenchScoring(opts: MetricOptions = {}): LongBenchScoring {
  const classes = opts.allClasses;
  return {
    ...(typeof opts.dataset === 'string' ? { dataset: opts.dataset } : {}),
    ...(classes === null || isStringArray(classes) ? { allClasses: classes } : {}),
  };
}

/** Records written before Sample.scoring existed keep dataset and all_classes (or allClasses) in metadata. */
export function legacyLongBenchOptions(meta: Readonly<Record<string, unknown>>): MetricOptions {
  const classes = meta.allClasses ?? meta.all_classes;
  return {
    ...(typeof meta.dataset === 'string' ? { dataset: meta.dataset } : {}),
    ...(isStringArray(classes) ? { allClasses: classes } : {}),
  };
}

/** A record's LongBench options: its `scoring` field, or for an old record its metadata. */
export function longbenchOptionsOf(record: {
  scoring?: MetricOptions;
  metadata?: Record<string, unknown>;
}): LongBenchScoring {
  return longbenchScoring(record.scoring ?? legacyLongBenchOptions(record.metadata ?? {}));
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
  perGold: (pred: string, gold: string, opts: LongBenchScoring) => number,
): Metric {
  return {
    name,
    description,
    legacyOptions: legacyLongBenchOptions,
    score: (prediction, answers, opts) => {
      const o = longbenchScoring(opts);
      const pred = longbenchPrediction(prediction, o.dataset);
      return maxOver(answers, (gold) => perGold(pred, gold, o));
    },
  };
}

const ROUGE_KEYS = ['rouge1', 'rouge2', 'rougeL'] as const;

function pltrdyExtras(
  prediction: string | null,
  answers: readonly string[],
  opts?: MetricOptions,
): Record<string, number> {
  const pred = longbenchPrediction(prediction, longbenchScoring(opts).dataset);
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

export const LONGBENCH_METRIC_ENTRIES: readonly Metric[] = [
  longbench('qa_f1', 'LongBench qa_f1: token F1 of normalised strings, max over golds (first line for triviaqa)', qaF1),
  {
    ...longbench(
      'rouge_l_f',
      'LongBench ROUGE-L F as pltrdy rouge 1.0.1 computes it, max over golds; 0 where upstream raises',
      (p, g) => rougeLFLongBench(p, g),
    ),
    extra: (p, a, opts) => {
      const pred = longbenchPrediction(p, longbenchScoring(opts).dataset);
      // ROUGE-1/2/L recall (MemAgent reports SUM as recall) beside LongBench's headline F.
      return {
        rouge_l_textbook: maxOver(a, (gold) => rougeLTextbook(pred, gold)),
        ...pltrdyExtras(p, a, opts),
      };
    },
  },
  {
    name: 'rouge_recall',
    description:
      'ROUGE-L recall with pltrdy rouge 1.0.1 rules (MemAgent LongBench-SUM, unverified); extras give ROUGE-1/2/L r, p, f',
    legacyOptions: legacyLongBenchOptions,
    score: (p, a, opts) => pltrdyExtras(p, a, opts).rougeL_r,
    extra: (p, a, opts) => pltrdyExtras(p, a, opts),
  },
  longbench(
    'qa_f1_zh',
    'LongBench qa_f1_zh (multifieldqa_zh): token F1 over jieba words, each normalised (normalize_zh_answer), max over golds',
    qaF1Zh,
  ),
  longbench(
    'rouge_zh',
    'LongBench rouge_zh (dureader, vcsum): ROUGE-L F as rouge_l_f over space-joined jieba words, max over golds',
    rougeZh,
  ),
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
