#!/usr/bin/env bash
# Regenerates the CI gate's baselines from the current code. Commit the result with a note saying why scores moved.
set -euo pipefail
cd "$(dirname "$0")/.."
UPDATE_BASELINE=1 bash scripts/ci-gate.sh "${1:-runs/ci}"
