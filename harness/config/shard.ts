// `--shard i/n` and `--shard auto[/n]`: which share of a run's samples this invocation covers. `auto` takes the index
// (and the count, where the job system has one) from the job system's environment:
//   Kubernetes Indexed Job: JOB_COMPLETION_INDEX (set by the Job controller). Kubernetes does not expose
//     spec.completions to the pod, so the count comes from `--shard auto/N` or BENCH_SHARD_COUNT (set it in the pod
//     template to the Job's completions).
//   Slurm job array, `--shard auto`: the array as submitted is the sweep: SLURM_ARRAY_TASK_ID counted from
//     SLURM_ARRAY_TASK_MIN in steps of SLURM_ARRAY_TASK_STEP (so --array=1-8 and --array=0-14:2 both give 0..n-1),
//     SLURM_ARRAY_TASK_COUNT shards. `--shard auto/N` (or BENCH_SHARD_COUNT=N): the task id is the shard index of N,
//     so a failed task can be resubmitted alone (`sbatch --array=3` reruns shard 3/N; without N it would be 0/1).
// Pure: the environment is an argument, so tests need not touch process.env.
import { UserError } from '../errors.js';

export interface ShardSpec {
  index: number;
  count: number;
}

/** The environment variables `--shard auto` reads. */
export type ShardEnv = Readonly<Record<string, string | undefined>>;

const USAGE = "expected i/n with 0 <= i < n (e.g. 0/4), or 'auto' / 'auto/N' to take the index from the job system";

function whole(env: ShardEnv, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  if (!/^\d+$/.test(raw.trim())) throw new UserError(`--shard auto: ${name} must be a whole number, got '${raw}'`);
  return Number(raw);
}

function checked(index: number, count: number, source: string): ShardSpec {
  if (count < 1) throw new UserError(`--shard auto: the shard count must be at least 1 (${source})`);
  if (index >= count) throw new UserError(`--shard auto: index ${index} is not below the count ${count} (${source})`);
  return { index, count };
}

/** `--shard auto[/N]` → the shard from a Kubernetes Indexed Job's or a Slurm array's environment. */
export function autoShard(explicitCount: number | undefined, env: ShardEnv): ShardSpec {
  const k8s = whole(env, 'JOB_COMPLETION_INDEX');
  const slurmId = whole(env, 'SLURM_ARRAY_TASK_ID');
  if (k8s !== undefined && slurmId !== undefined) {
    throw new UserError(
      '--shard auto: both JOB_COMPLETION_INDEX (Kubernetes) and SLURM_ARRAY_TASK_ID (Slurm) are set; pass --shard i/n explicitly',
    );
  }
  const benchCount = whole(env, 'BENCH_SHARD_COUNT');
  if (explicitCount !== undefined && benchCount !== undefined && explicitCount !== benchCount) {
    throw new UserError(`--shard auto/${explicitCount} disagrees with BENCH_SHARD_COUNT=${benchCount}`);
  }
  if (k8s !== undefined) {
    const count = explicitCount ?? benchCount;
    if (count === undefined) {
      throw new UserError(
        "--shard auto: JOB_COMPLETION_INDEX is set but Kubernetes does not expose the completion count: use --shard auto/N or set BENCH_SHARD_COUNT to the Job's completions",
      );
    }
    return checked(k8s, count, `JOB_COMPLETION_INDEX=${k8s}`);
  }
  if (slurmId !== undefined) {
    const explicit = explicitCount ?? benchCount;
    if (explicit !== undefined) {
      // The count is the sweep's: the task id is the shard index, so `sbatch --array=3` reruns shard 3 alone.
      return checked(
        slurmId,
        explicit,
        `SLURM_ARRAY_TASK_ID=${slurmId} is the shard index when the count is given; submit --array=0-${explicit - 1} or a subset of it`,
      );
    }
    // The array as submitted is the sweep: tasks counted from its first id in steps of its step.
    const min = whole(env, 'SLURM_ARRAY_TASK_MIN') ?? 0;
    const step = whole(env, 'SLURM_ARRAY_TASK_STEP') ?? 1;
    const count = whole(env, 'SLURM_ARRAY_TASK_COUNT');
    if (count === undefined)
      throw new UserError(
        '--shard auto: SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not: use --shard auto/N',
      );
    const offset = slurmId - min;
    const source = `SLURM_ARRAY_TASK_ID=${slurmId}, MIN=${min}, STEP=${step}, COUNT=${count}`;
    if (offset < 0 || step < 1 || offset % step !== 0 || offset / step >= count) {
      throw new UserError(
        `--shard auto: the Slurm array must be a range such as --array=0-7 or 1-15:2, not a list (${source})`,
      );
    }
    return checked(offset / step, count, source);
  }
  throw new UserError(
    '--shard auto: no job index in the environment: run it as a Kubernetes Indexed Job (JOB_COMPLETION_INDEX, with --shard auto/N or BENCH_SHARD_COUNT) or a Slurm array (SLURM_ARRAY_TASK_ID), or pass --shard i/n',
  );
}

/** `--shard` value → the shard; undefined when the flag is absent. Throws UserError with one line. */
export function resolveShard(raw: string | undefined, env: ShardEnv): ShardSpec | undefined {
  if (raw === undefined) return undefined;
  const text = raw.trim();
  const auto = /^auto(?:\/(\d+))?$/.exec(text);
  if (auto) {
    const n = auto[1] === undefined ? undefined : Number(auto[1]);
    if (n !== undefined && n < 1) throw new UserError(`bad --shard '${raw}': the count in auto/N must be at least 1`);
    return autoShard(n, env);
  }
  const m = /^(\d+)\/(\d+)$/.exec(text);
  if (!m) throw new UserError(`bad --shard '${raw}': ${USAGE}`);
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || index >= count) throw new UserError(`bad --shard '${raw}': ${USAGE}`);
  return { index, count };
}
