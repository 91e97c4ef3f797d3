// Small statistics for reports: intervals on scores, paired comparisons, multiple-comparison correction.
// No library: each formula is a few lines, documented with its source and tested against published values
// (tests/reports/stats/).
export { Z95, wilsonInterval, type Interval } from './wilson.js';
export {
  BOOTSTRAP_RESAMPLES,
  bootstrapMeanInterval,
  bootstrapMeans,
  pairedBootstrapInterval,
  quantileSorted,
  type BootstrapOptions,
  type SeedParts,
} from './bootstrap.js';
export { mcnemarExact } from './mcnemar.js';
export { priceBonettMeanInterval } from './price-bonett.js';
export { SIGN_FLIP_EXACT_MAX, SIGN_FLIP_ROUNDS, signFlipTest } from './signflip.js';
export { holmAdjust, holmReject } from './holm.js';
export { INTERVAL_NOTE, isBinary, scoreInterval, type CiMethod, type ScoreInterval } from './interval.js';
export { pairedDifference, type PairedDifference, type PairedTest } from './paired.js';
