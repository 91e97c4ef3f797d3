// A generated sample with the identity the runner would give it, for tests that hand samples to methods or layouts.
import { withRunnerIdentity } from '../../harness/runner/sample-identity.js';
import type { GeneratedSample, LengthTarget, Sample } from '../../harness/types.js';

export function asRun(
  task: { name: string; version: string },
  sample: GeneratedSample,
  length: LengthTarget,
  index: number,
): Sample {
  return withRunnerIdentity(sample, { task: task.name, taskVersion: task.version, length, index });
}
