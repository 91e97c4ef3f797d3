// The scoring library: the metric contract and lookup (metric.ts), the QA metrics families share (qa-metrics.ts),
// scoring a finished sample (score-sample.ts), per-group means (aggregate.ts) and the readers of result files
// (sources/). A family's own metrics live in its folder and reach scoring code through Catalog.metrics.
export {
  getMetric,
  scoreAll,
  type Metric,
  type MetricOptions,
  type MetricRegistry,
  type ScoreResult,
} from './metric.js';
export { QA_METRICS } from './qa-metrics.js';
export { normalizeAnswer, normalizesToEmpty } from './qa.js';
