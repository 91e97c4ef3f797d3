import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { MethodCheckpoint } from '../types.js';
import { writeFileAtomic } from './atomic-write.js';
import { guardIO } from './io-errors.js';

/**
 * A stored checkpoint as the method saved it. Checkpoints written before `state` existed held the method's fields
 * (MemAgent's memory) beside step and usage: those fields become the state, so a run killed by an older bench
 * resumes where it stopped.
 */
export function readCheckpoint(stored: unknown): MethodCheckpoint | undefined {
  if (!stored || typeof stored !== 'object') return undefined;
  const { step, usage, state, cutCalls, thinkingTokens, unclosedThinkCalls, memoryHolds, ...beside } = stored as Record<
    string,
    unknown
  >;
  const count = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0;
  if (typeof step !== 'number' || !usage || typeof usage !== 'object') return undefined;
  return {
    step,
    usage: usage as MethodCheckpoint['usage'],
    state: 'state' in stored ? state : beside,
    ...(count(cutCalls) ? { cutCalls } : {}),
    ...(count(thinkingTokens) ? { thinkingTokens } : {}),
    ...(count(unclosedThinkCalls) ? { unclosedThinkCalls } : {}),
    ...(typeof memoryHolds === 'string' && /^[01]*$/.test(memoryHolds) ? { memoryHolds } : {}),
  };
}

/** One small file per unfinished (sample, method), replaced atomically after each call; removed when it ends. */
export class CheckpointStore {
  private dir: string;
  constructor(runDir: string) {
    this.dir = join(runDir, 'checkpoints');
    guardIO('creating', this.dir, () => mkdirSync(this.dir, { recursive: true }));
  }
  private file(key: string): string {
    return join(this.dir, createHash('sha256').update(key).digest('hex').slice(0, 24) + '.json');
  }
  load(key: string): MethodCheckpoint | undefined {
    try {
      const parsed = JSON.parse(readFileSync(this.file(key), 'utf8')) as { key: string; checkpoint: unknown };
      return parsed.key === key ? readCheckpoint(parsed.checkpoint) : undefined;
    } catch {
      return undefined;
    }
  }
  save(key: string, checkpoint: MethodCheckpoint): void {
    const file = this.file(key);
    guardIO('writing', file, () => writeFileAtomic(file, JSON.stringify({ key, checkpoint })));
  }
  clear(key: string): void {
    rmSync(this.file(key), { force: true });
  }
}
