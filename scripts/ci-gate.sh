#!/usr/bin/env bash
# The project's own regression gate: short deterministic runs of the embedded model, gated --exact against
# baselines/regression/. A change to data generation, prompts, the reader or scoring fails here until the
# baseline is regenerated on purpose with scripts/update-ci-baseline.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-runs/ci}"
rm -rf "$out"
npx bench run ruler-hqa,niah_single_2 --lengths 8k,32k --samples 16 --method memagent,full-context --max-context 16000 --no-progress --out "$out/synthetic"
npx bench run longbench-qa,longbench-sum --samples 20 --method memagent,full-context --max-context 4000 --no-progress --out "$out/longbench"
if [ "${UPDATE_BASELINE:-0}" = 1 ]; then
  npx bench baseline "$out/synthetic" --out baselines/regression/ci-synthetic.json
  npx bench baseline "$out/longbench" --out baselines/regression/ci-longbench.json
  exit 0
fi
npx bench gate "$out/synthetic" --baseline baselines/regression/ci-synthetic.json --exact --junit "$out/gate-synthetic.xml"
npx bench gate "$out/longbench" --baseline baselines/regression/ci-longbench.json --exact --junit "$out/gate-longbench.xml"
