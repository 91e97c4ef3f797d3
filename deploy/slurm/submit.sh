#!/bin/bash
# The array of shards, then the merge once every task has succeeded. If a task fails, the merge waits forever
# (DependencyNeverSatisfied): resubmit that index (`sbatch --array=<i> shards.sbatch`, it resumes), then
# `scancel` the waiting merge and `sbatch merge.sbatch`.
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p logs
array=$(sbatch --parsable shards.sbatch)
sbatch --dependency="afterok:$array" merge.sbatch
echo "shards: job $array; merge runs after all of them succeed"
