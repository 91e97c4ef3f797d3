// The run directory a `bench run` without --out writes: runs/<tasks>__<methods>__<model>__seed<S>__<key>, where <key>
// is a short hash of everything else that makes two runs' samples or scores differ (the grid of lengths, --samples,
// --shard, task options such as --placement and --data, the data files' sha256, method settings, decoding,
// --trial). The same command always lands in the same directory (so it resumes); two commands that differ in any
// of those never share one by default.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { RunConfig } from '../config/run-config.js';
import { canonicalJson } from '../models/response-cache.js';
import type { RunIdentity } from '../run-dir/identity.js';

export interface RunKeyParts {
  identity: RunIdentity;
  /** Length labels per task, as the manifest records them. */
  lengths: Record<string, string[]>;
  /** The manifest's `data` (paths, formats and sha256 of the --data files), if any. */
  data?: unknown;
}

/** 8 hex digits of sha256 over the parts and the run's --samples and --shard. */
export function runKey(config: Pick<RunConfig, 'samples' | 'shard' | 'methods'>, parts: RunKeyParts): string {
  const text = canonicalJson({
    ...parts,
    methods: config.methods,
    samples: config.samples ?? null,
    shard: config.shard ?? null,
  });
  return createHash('sha256').update(text).digest('hex').slice(0, 8);
}

/** A task name as one readable folder-name part (longbench/hotpotqa → longbench-hotpotqa). */
const part = (s: string) => s.replace(/[^A-Za-z0-9._+-]+/g, '-');

export function defaultOutDir(
  config: Pick<RunConfig, 'tasks' | 'methods' | 'seed' | 'samples' | 'shard'>,
  modelSlug: string,
  parts: RunKeyParts,
): string {
  const name = [config.tasks.join('+'), config.methods.join('+'), modelSlug, `seed${config.seed}`].map(part).join('__');
  return join('runs', `${name}__${runKey(config, parts)}`);
}
