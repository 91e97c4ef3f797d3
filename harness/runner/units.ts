import { recordKey, sampleId } from '../run-dir/record-key.js';
import type { LengthTarget, PreparedTask, TaskDefinition } from '../types.js';
import { longestChainFirst } from './schedule-policy.js';

/** One unit of work: a sample of a task at a length, run by one method. */
export interface WorkUnit {
  task: TaskDefinition;
  prepared: PreparedTask;
  length: LengthTarget;
  index: number;
  method: string;
  /** The resume key: the record key (harness/run-dir/record-key.ts) of the sample this unit writes. */
  key: string;
  /** Estimated number of sequential model calls (the chain the scheduler orders by). */
  chain: number;
}

/** Approximate tokens of a length target; document counts use the measured ~141 tokens per HotpotQA document. */
export function approxTokens(length: LengthTarget): number {
  return length.kind === 'tokens' ? length.value : length.value * 141;
}

/** The record key of the unit's sample: the id the runner gives that sample (sampleId) and the method. */
export function unitKey(task: string, length: LengthTarget, index: number, method: string): string {
  return recordKey({ id: sampleId(task, length.label, index), method });
}

/**
 * Longest chain first across every task, length and method of the run, so the long sequential MemAgent samples
 * start early and short ones fill the gaps; ties keep the canonical order. Order never changes results.
 */
export function scheduleUnits(units: WorkUnit[]): WorkUnit[] {
  return longestChainFirst(units, (u) => u.chain);
}
