// The built-in catalog's metrics, looked up by name (the test edge: library code is handed a registry).
import { builtinCatalog } from '../../../generators/index.js';
import type { MetricOptions } from '../../../harness/types.js';
import { getMetric as lookup, scoreAll as scoreWith, type ScoreResult } from '../../../harness/scorers/metric.js';

export const metrics = builtinCatalog().metrics;

export const getMetric = (name: string) => lookup(metrics, name);

export const scoreAll = (
  name: string,
  prediction: string | null,
  answers: string[],
  opts?: MetricOptions,
): ScoreResult => scoreWith(getMetric(name), prediction, answers, opts);

export const metricNames = (): string[] => metrics.names();
