// The runner owns a sample's identity. A generator builds a sample without one (GeneratedSample); the runner gives it
// the unit's task, version, length, index and id, so the record it writes carries the key the runner planned
// (units.ts unitKey) and a rerun finds every finished sample.
import { sampleId } from '../run-dir/record-key.js';
import type { GeneratedSample, LengthTarget, Sample } from '../types.js';

/** Who a sample is, as the runner names it: the unit's task, task version, length and index. */
export interface SampleIdentity {
  task: string;
  taskVersion: string;
  length: LengthTarget;
  index: number;
}

/** The sample with the runner's identity: id `${task}/${length label}/${index}` and the unit's fields. */
export function withRunnerIdentity(sample: GeneratedSample, who: SampleIdentity): Sample {
  return {
    ...sample,
    id: sampleId(who.task, who.length.label, who.index),
    task: who.task,
    taskVersion: who.taskVersion,
    length: who.length,
    index: who.index,
  };
}
