// Re-scores a `bench run` directory: samples.jsonl lines (SampleRecord), grouped by task × method × model × length.
import type { SampleRecord, SampleStatus } from '../../types.js';
import { Group, type ScoreRow } from '../aggregate.js';
import { getMetric, type MetricRegistry } from '../metric.js';
import { scoreSample, scoringOptionsOf } from '../score-sample.js';
import { isStringArray, jsonlRows, lineError, tornLineMessage } from '../../run-dir/jsonl.js';
import { modelRecordKey } from '../../run-dir/record-key.js';
import { stripSpecialTokens } from '../../protocol/special-tokens.js';
import { cleanPrediction, type TokenTally } from './source.js';
import { plural } from '../../util/plural.js';
import { percentRuleOf } from '../../protocol/round.js';

const STATUSES: ReadonlySet<string> = new Set(['ok', 'error', 'truncated', 'over-target']);

export interface Located {
  record: SampleRecord;
  line: number;
}

function validate(path: string, line: number, v: Record<string, unknown>): SampleRecord {
  const need = (ok: boolean, what: string): void => {
    if (!ok) throw lineError(path, line, `not a sample record: ${what}`);
  };
  for (const k of ['id', 'task', 'method', 'model', 'lengthLabel', 'metric', 'rawOutput'])
    need(typeof v[k] === 'string', `'${k}' must be a string`);
  need(typeof v.status === 'string' && STATUSES.has(v.status), `'status' must be ok, error, truncated or over-target`);
  need(isStringArray(v.answers), `'answers' must be an array of strings`);
  need(v.prediction === null || typeof v.prediction === 'string', `'prediction' must be a string or null`);
  return v as unknown as SampleRecord;
}

function lengthOrder(r: SampleRecord): number {
  return (r.lengthKind === 'docs' ? 1e15 : 0) + (typeof r.length === 'number' ? r.length : 0);
}

/**
 * The records of a samples.jsonl, checked, in file order, keeping only the last version of a sample written again
 * after a resume (one per model: a hand-joined file may hold several). A torn last line is skipped with a warning.
 */
export function latestRunRecords(samplesFile: string, warnings: string[]): Located[] {
  const latest = new Map<string, Located>();
  const rows = jsonlRows(samplesFile, {
    mode: 'lenient',
    onTornLastLine: (line) => warnings.push(tornLineMessage(samplesFile, line)),
  });
  for (const { line, value } of rows) {
    const record = validate(samplesFile, line, value);
    const key = modelRecordKey(record);
    latest.delete(key);
    latest.set(key, { record, line });
  }
  return [...latest.values()];
}

/** Re-scores a samples.jsonl; `metricOverride` (bench score --metric) replaces every record's own metric. */
export function scoreRun(
  samplesFile: string,
  warnings: string[],
  metrics: MetricRegistry,
  metricOverride?: string,
  tokens?: TokenTally,
): ScoreRow[] {
  const groups = new Map<string, { group: Group; order: number }>();
  let overTarget = 0;
  for (const { record, line } of latestRunRecords(samplesFile, warnings)) {
    let metric;
    try {
      metric = getMetric(metrics, metricOverride ?? record.metric);
    } catch (err) {
      throw lineError(samplesFile, line, (err as Error).message);
    }
    const key = [record.task, record.method, record.model, record.lengthLabel, metric.name].join('\u0000');
    let entry = groups.get(key);
    if (!entry) {
      entry = {
        group: new Group({
          task: record.task,
          method: record.method,
          model: record.model,
          lengthLabel: record.lengthLabel,
          metric: metric.name,
        }),
        order: lengthOrder(record),
      };
      groups.set(key, entry);
    }
    // An over-target sample ran and is scored like an ok one; it is counted in a warning below.
    if (record.status === 'over-target') overTarget++;
    const status: Exclude<SampleStatus, 'over-target'> = record.status === 'over-target' ? 'ok' : record.status;
    // Counted for the note only: scoreSample cleans the prediction (and a raw output) itself, as the runner does.
    if (record.status !== 'error') cleanPrediction(record.prediction, tokens, `${samplesFile}:${line}`);
    // The runner's rule: a sample that did not finish ok (error, truncated) scores 0 whatever it holds.
    const result = scoreSample(
      { ...record, status, metric: metric.name, scoring: scoringOptionsOf(record, metric) },
      metrics,
    );
    const extras = { ...result.scores };
    delete extras[metric.name];
    entry.group.add(result.score, extras, status, status === 'error' ? null : stripSpecialTokens(record.prediction));
    // The recorded score is of the record's own metric: compared only when that is the metric scored here.
    if (typeof record.score === 'number' && metric.name === record.metric) entry.group.addReference(record.score);
  }
  if (overTarget > 0)
    warnings.push(
      `${samplesFile}: ${plural(overTarget, 'sample has', 'samples have')} status over-target: their context is longer than the length target (the task cannot build it smaller, e.g. a question's own documents alone exceed it); scored as usual`,
    );
  const sorted = [...groups.values()].sort((x, y) => {
    const a = x.group.key;
    const b = y.group.key;
    return (
      a.task.localeCompare(b.task) ||
      a.method.localeCompare(b.method) ||
      a.model.localeCompare(b.model) ||
      x.order - y.order ||
      a.lengthLabel.localeCompare(b.lengthLabel)
    );
  });
  // A group is shown by its task's rule, as the run's summary shows it (LongBench's tasks: round(100·total/n, 2)).
  return sorted.map(({ group }) =>
    group.row({ rule: percentRuleOf(group.key.task), referenceLabel: 'recorded in samples.jsonl' }),
  );
}
