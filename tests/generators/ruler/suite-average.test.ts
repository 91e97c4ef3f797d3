// The RULER suite average (generators/ruler/suite-average.ts) as summary rows: MemAgent's mean over its 11 tasks
// per length (qa_1 only up to 256K), each task weighted equally, with n, Price–Bonett's interval, completeness, and its
// place in summary.json (aggregates, never gated) and the terminal table.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { markCompleteness } from '../../../reports/completeness.js';
import { formatSummaryTable, isGateRow, summarize, summaryCsv, summaryJson } from '../../../reports/summary.js';
import { SUITE_NOTE, suiteTasksAt, RULER_SUITE } from '../../../generators/ruler/suite-average.js';
import { FACETS, record } from '../../reports/fixtures.js';
import { MEMAGENT_TASKS, suiteRecords } from './suite-records.js';

// Task t's sample i scores 1 when i ≤ t mod 4: task means 1/4, 2/4, 3/4, 4/4, 1/4, ... (qa_1, t = 10: 3/4).
const byTask = (task: string, _length: string, i: number) => (i <= MEMAGENT_TASKS.indexOf(task) % 4 ? 1 : 0);

test("the average is the mean of the tasks' scores at each length; qa_1 leaves it above 256K", () => {
  const records = suiteRecords({ tasks: MEMAGENT_TASKS, lengths: ['8k', '256k', '512k'], samples: 4, score: byTask });
  const rows = summarize(records, FACETS);
  const avg = rows.filter((r) => r.task === 'ruler');
  assert.deepEqual(
    avg.map((r) => [r.lengthLabel, r.n, r.aggregate?.subsets.length]),
    [
      ['8k', 44, 11],
      ['256k', 44, 11],
      ['512k', 40, 10],
    ],
  );
  // (1 + 2 + 3 + 4 + 1 + 2 + 3 + 4 + 1 + 2 + 3) / 4 / 11 = 26/44; without qa_1 (3/4): 23/40.
  assert.ok(Math.abs(avg[0].score - 26 / 44) < 1e-12);
  assert.ok(Math.abs(avg[2].score - 23 / 40) < 1e-12);
  assert.equal(
    avg[2].aggregate?.subsets.some((s) => s.task === 'qa_1'),
    false,
  );
  assert.deepEqual(avg[2].aggregate?.missing, []);
  assert.equal(avg[0].metric, 'mean of tasks');
  assert.equal(avg[0].ci_method, 'price-bonett');
  assert.ok(avg[0].ci95_low < avg[0].score && avg[0].score < avg[0].ci95_high);
  assert.deepEqual(suiteTasksAt(RULER_SUITE, 524288).length, 10);
  // No ruler-all average without cwe or qa_2; no per-task row is touched.
  assert.equal(rows.filter((r) => r.task === 'ruler-all').length, 0);
  assert.equal(rows.filter((r) => !r.aggregate).length, 33);
});

test('each task counts once whatever its sample count: not the pooled mean', () => {
  const records = [
    ...Array.from({ length: 12 }, (_, i) =>
      record({ id: `vt/${i}`, task: 'vt', lengthLabel: '8k', length: 8192, index: i, score: 1 }),
    ),
    ...Array.from({ length: 4 }, (_, i) =>
      record({ id: `fwe/${i}`, task: 'fwe', lengthLabel: '8k', length: 8192, index: i, score: 0 }),
    ),
  ];
  const [avg] = summarize(records, FACETS).filter((r) => r.task === 'ruler');
  // (1 + 0) / 2, not 12/16.
  assert.equal(avg.score, 0.5);
  assert.equal(avg.n, 16);
  assert.equal(avg.metric, 'mean of tasks (2 of 11)');
  assert.equal(avg.aggregate?.missing.length, 9);
  // Both tasks are constant, yet the interval is not a point: p̃ = 13/14 and 1/6 (2/K = 1 pseudo-right and 1
  // pseudo-wrong sample each), centre 0.5476, SE = ½ √((13/14)(1/14)/14 + (1/6)(5/6)/6) = 0.0835, ± 0.1637.
  assert.ok(Math.abs(avg.ci95_low - (0.5476 - 0.1637)) < 1e-3 && Math.abs(avg.ci95_high - (0.5476 + 0.1637)) < 1e-3);
});

test('ruler-all appears with cwe or qa_2; NIAH-only series get no average', () => {
  const records = [
    ...suiteRecords({ tasks: [...MEMAGENT_TASKS, 'cwe'], lengths: ['8k'], samples: 2, score: () => 1 }),
    ...suiteRecords({
      tasks: MEMAGENT_TASKS.slice(0, 8),
      lengths: ['8k'],
      samples: 2,
      method: 'full-context',
      score: () => 1,
    }),
  ];
  const rows = summarize(records, FACETS).filter((r) => r.aggregate);
  assert.deepEqual(
    rows.map((r) => [r.task, r.method, r.metric, r.aggregate?.missing]),
    [
      ['ruler', 'memagent', 'mean of tasks', []],
      ['ruler-all', 'memagent', 'mean of tasks (12 of 13)', ['qa_2']],
    ],
  );
});

test('aggregate rows are listed apart in summary.json, never gated, shown with their note in the terminal table', () => {
  const records = suiteRecords({ tasks: MEMAGENT_TASKS, lengths: ['8k'], samples: 4, score: byTask });
  const rows = summarize(records, FACETS);
  const json = summaryJson(rows);
  assert.equal(json.rows.length, 11);
  assert.equal(
    json.rows.some((r) => r.task === 'ruler'),
    false,
  );
  assert.deepEqual(
    json.aggregates?.map((r) => [r.task, r.n, r.scoreX100]),
    [['ruler', 44, 59.09]],
  );
  assert.deepEqual(
    json.aggregates?.[0].aggregate?.subsets.map((s) => s.task),
    MEMAGENT_TASKS,
  );
  assert.equal(rows.filter(isGateRow).length, 11);
  assert.match(summaryCsv(rows), /\nruler,memagent,local:reference-reader,yes,8k,tokens,8192,mean of tasks,59\.09,/);
  const table = formatSummaryTable(rows, FACETS);
  assert.match(table, /ruler · memagent · /);
  assert.ok(table.includes(SUITE_NOTE));
  // Without the facets (as bench gate summarises) there is no aggregate at all.
  assert.equal(
    summarize(records, []).some((r) => r.aggregate),
    false,
  );
});

test("an average expects its tasks' planned samples and is incomplete when one of them is", () => {
  const records = suiteRecords({ tasks: MEMAGENT_TASKS, lengths: ['8k'], samples: 4, score: byTask }).filter(
    (r) => !(r.task === 'vt' && r.index === 3),
  );
  const expected = Object.fromEntries(MEMAGENT_TASKS.map((t) => [`${t}/8k`, 4]));
  const source = { expected, methods: ['memagent'], model: 'local:reference-reader', shard: 'all' };
  const rows = markCompleteness(summarize(records, FACETS), [source]);
  const avg = rows.find((r) => r.task === 'ruler')!;
  assert.deepEqual([avg.n, avg.expected, avg.complete], [43, 44, false]);
  const whole = markCompleteness(
    summarize(suiteRecords({ tasks: MEMAGENT_TASKS, lengths: ['8k'], samples: 4, score: byTask }), FACETS),
    [source],
  ).find((r) => r.task === 'ruler')!;
  assert.deepEqual([whole.n, whole.expected, whole.complete], [44, 44, true]);
});

test('the interval does not depend on the order of the records', () => {
  const records = suiteRecords({
    tasks: MEMAGENT_TASKS,
    lengths: ['8k'],
    samples: 6,
    score: (t, l, i) => ((i * 7 + t.length) % 3 === 0 ? 1 : 0.5),
  });
  const a = summarize(records, FACETS).find((r) => r.task === 'ruler')!;
  const b = summarize([...records].reverse(), FACETS).find((r) => r.task === 'ruler')!;
  assert.deepEqual([a.ci95_low, a.ci95_high], [b.ci95_low, b.ci95_high]);
  assert.ok(a.ci95_low < a.ci95_high);
});
