// The RULER suite average as MemAgent reports it (its figs/avg_00.png heatmap): per model × method × length, the mean
// of the suite's task scores, each task weighted equally. Suite `ruler` is MemAgent's out-of-distribution grid
// (taskutils/memory_eval/run.py run_ood_tasks: the 8 NIAH tasks, vt, fwe and qa_1, qa_1 not run above 256K);
// `ruler-all` adds cwe and qa_2. These are summary rows of their own (harness/report/facet.ts SummaryAggregate),
// with Price–Bonett's interval of that mean (reports/stats/price-bonett.ts): unlike a bootstrap over samples it does
// not shrink to a point when every task is all right, and it weights the tasks as the mean does.
import type { ScoredRow, SummaryAggregate } from '../../harness/report/facet.js';
import type { SummaryRow } from '../../harness/report/summary-row.js';
import { priceBonettMeanInterval } from '../../reports/stats/price-bonett.js';
import { NIAH_SPECS } from './spec.js';
import { MEMAGENT_OOD_TASKS, RULER_ALL_TASKS } from './suites.js';
import { syntheticSpec } from './synthetic-spec.js';

export interface SuiteAverage {
  name: string;
  tasks: readonly string[];
  /** Longest length (tokens) a task runs at within the suite; absent = every length. */
  maxLength: Readonly<Record<string, number>>;
}

const NIAH = NIAH_SPECS.map((s) => s.name);

// MemAgent's grid leaves qa_1 out above 256K (its flavour's limit); both averages do, whatever the flavour.
const QA_1_LIMIT = { qa_1: syntheticSpec('qa_1').maxTokens!.memagent!.tokens };

/** Suite `ruler`, MemAgent's RULER grid: its average is the paper's RULER number. */
export const RULER_SUITE: SuiteAverage = { name: 'ruler', tasks: MEMAGENT_OOD_TASKS, maxLength: QA_1_LIMIT };

/** Suite `ruler-all`: every RULER task, MemAgent's grid plus cwe and qa_2. */
export const RULER_ALL_SUITE: SuiteAverage = { name: 'ruler-all', tasks: RULER_ALL_TASKS, maxLength: QA_1_LIMIT };

export const SUITE_AVERAGES: readonly SuiteAverage[] = [RULER_SUITE, RULER_ALL_SUITE];

/** The suite's tasks at a token length. */
export function suiteTasksAt(suite: SuiteAverage, tokens: number): string[] {
  return suite.tasks.filter((t) => tokens <= (suite.maxLength[t] ?? Number.POSITIVE_INFINITY));
}

export const SUITE_RULE =
  "mean of the tasks' scores, each task weighted equally; 95% interval: Price–Bonett's adjusted Wald interval for a mean of proportions (2/K pseudo-right and 2/K pseudo-wrong samples per task, the task's score variance for partial credit)";

export const SUITE_NOTE =
  `${RULER_SUITE.name}: MemAgent's RULER average (the 8 NIAH tasks, vt, fwe, qa_1; qa_1 only up to 256k, so 10 tasks at 512k); ` +
  `${RULER_ALL_SUITE.name}: with cwe and qa_2; n = the tasks' samples together; ${SUITE_RULE}; "k of K" in the metric: tasks missing from the run`;

/** Whether a series (one method × model) gets the suite's average: it holds one of the suite's tasks beyond NIAH (the
 *  NIAH-only runs keep their own per-task rows), and for `ruler-all` one beyond MemAgent's grid. */
function seriesHasSuite(suite: SuiteAverage, tasks: ReadonlySet<string>): boolean {
  const beyond = suite === RULER_SUITE ? RULER_SUITE.tasks.filter((t) => !NIAH.includes(t)) : ['cwe', 'qa_2'];
  return beyond.some((t) => tasks.has(t));
}

function sum(rows: readonly SummaryRow[], pick: (r: SummaryRow) => number): number {
  return rows.reduce((s, r) => s + pick(r), 0);
}

function aggregateRow(suite: SuiteAverage, parts: readonly ScoredRow[], expectedTasks: readonly string[]): SummaryRow {
  const rows = parts.map((p) => p.row);
  const first = rows[0];
  const n = sum(rows, (r) => r.n);
  const score = sum(rows, (r) => r.score) / rows.length;
  const okOnly = rows.filter((r) => r.scoreOkOnly !== null);
  const missing = expectedTasks.filter((t) => !rows.some((r) => r.task === t));
  const ci = priceBonettMeanInterval(parts.map((p) => p.scores));
  return {
    task: suite.name,
    method: first.method,
    model: first.model,
    isReferenceReader: rows.some((r) => r.isReferenceReader),
    lengthLabel: first.lengthLabel,
    lengthKind: first.lengthKind,
    length: first.length,
    metric: missing.length ? `mean of tasks (${rows.length} of ${expectedTasks.length})` : 'mean of tasks',
    n,
    ok: sum(rows, (r) => r.ok),
    errors: sum(rows, (r) => r.errors),
    truncated: sum(rows, (r) => r.truncated),
    overTarget: sum(rows, (r) => r.overTarget),
    score,
    scoreOkOnly: okOnly.length ? sum(okOnly, (r) => r.scoreOkOnly!) / okOnly.length : null,
    metrics: {},
    empty: sum(rows, (r) => r.empty),
    middleTruncated: sum(rows, (r) => r.middleTruncated),
    promptTokens: sum(rows, (r) => r.promptTokens),
    completionTokens: sum(rows, (r) => r.completionTokens),
    calls: sum(rows, (r) => r.calls),
    cutCalls: sum(rows, (r) => r.cutCalls ?? 0),
    meanBuiltTokens: sum(rows, (r) => r.meanBuiltTokens * r.n) / n,
    ci95_low: ci.low,
    ci95_high: ci.high,
    ci_method: 'price-bonett',
    aggregate: {
      suite: suite.name,
      rule: SUITE_RULE,
      subsets: rows.map((r) => ({ task: r.task, score: r.score, n: r.n })),
      missing,
    },
  };
}

/**
 * The suites' average rows: per series holding the suite (seriesHasSuite) and token length where two or more of the
 * suite's tasks (at that length) have rows. Tasks in the suite's order.
 */
export function suiteAverageRows(scored: readonly ScoredRow[], suites = SUITE_AVERAGES): SummaryRow[] {
  const out: SummaryRow[] = [];
  const series = new Map<string, ScoredRow[]>();
  for (const s of scored) {
    if (s.row.lengthKind !== 'tokens' || s.row.aggregate) continue;
    const key = `${s.row.method}\u0000${s.row.model}`;
    series.set(key, [...(series.get(key) ?? []), s]);
  }
  for (const group of series.values()) {
    const tasks = new Set(group.map((s) => s.row.task));
    for (const suite of suites) {
      if (!seriesHasSuite(suite, tasks)) continue;
      for (const length of [...new Set(group.map((s) => s.row.length))].sort((a, b) => a - b)) {
        const expected = suiteTasksAt(suite, length);
        const parts = expected.flatMap((t) => group.filter((s) => s.row.task === t && s.row.length === length));
        if (parts.length >= 2) out.push(aggregateRow(suite, parts, expected));
      }
    }
  }
  return out;
}

export const rulerSuiteAggregate: SummaryAggregate = {
  rows: suiteAverageRows,
  note: SUITE_NOTE,
};
