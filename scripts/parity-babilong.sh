#!/usr/bin/env bash
# Offline score parity of `bench score` on BABILong's published predictions with BABILong's own
# babilong/collect_results.py (scripts/parity-babilong.py does the work): for each model folder below EVALS_DIR
# (babilong_evals/<org>/<model>/qa*_<length>_<cfg>.csv), `bench score --json` and collect_results.py, run as a whole
# (--model_name, --tasks qa1 … qa20, --save_path), are compared cell by cell (task × length × run configuration:
# same rows, same count correct, 100 × correct / rows equal), and its saved best-configuration table row by row. A
# folder collect_results.py cannot read (a CSV without its question column) must be refused by bench score too.
# Then the export: a small `bench run` on the embedded model, `bench export --format babilong`, collect_results.py
# and bench score on the exported folder (cells equal), and bench score of the run against its export (round trip).
# Not a test: it needs a BABILong checkout (cloned at the commit below unless given) and published predictions
# (the babilong_evals folder of booydar/babilong's history or of RMT-team/babilong_evals). Python 3.9+ with numpy;
# pandas if installed, else scripts/parity-shims/pandas.py; matplotlib, seaborn, tqdm and IPython are stood in for
# where missing (they only draw and print). Run `npm run build` first.
#
#   scripts/parity-babilong.sh EVALS_DIR [WORK_DIR]
#   env: MODELS="org/model …" (default: every model folder below EVALS_DIR)  PYTHON=python3
#        PANDAS=shim (use the stand-in even where pandas is installed)  BABILONG_SRC=DIR (a checkout; cloned otherwise)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
evals=${1:?usage: scripts/parity-babilong.sh EVALS_DIR [WORK_DIR]}
work=${2:-$(mktemp -d -t bench-parity-babilong-XXXXXX)}
python=${PYTHON:-python3}
commit=7a6efee29f5cac03c3c410e6799c80fd2ffe3610
bench() { node "$root/bin/bench.js" "$@"; }
py() { "$python" "$root/scripts/parity-babilong.py" "$@"; }
shim=()
[ "${PANDAS:-}" = shim ] && shim=(--shim-pandas)

src=${BABILONG_SRC:-$work/babilong}
if [ ! -f "$src/babilong/collect_results.py" ]; then
  rm -rf "$src"
  git init -q "$src" && git -C "$src" remote add origin https://github.com/booydar/babilong.git &&
    git -C "$src" sparse-checkout set babilong && git -C "$src" fetch -q --depth 1 origin "$commit" &&
    git -C "$src" -c advice.detachedHead=false checkout -q FETCH_HEAD ||
    { echo "no BABILong checkout: give one in BABILONG_SRC (booydar/babilong at $commit)" >&2; exit 2; }
fi

if [ -n "${MODELS:-}" ]; then
  read -r -a models <<<"$MODELS"
else
  mapfile -t models < <(cd "$evals" && find . -mindepth 1 -maxdepth 2 -type d | sed 's|^\./||' | sort |
    while read -r d; do compgen -G "$d/qa*_*_*.csv" >/dev/null && echo "$d"; done)
fi
rm -rf "$work/checks" && mkdir -p "$work/checks"
checks=$work/checks.jsonl
: >"$checks"
bad=0
k=0
for m in "${models[@]}"; do
  k=$((k + 1))
  ours=$work/checks/$k.ours.json up=$work/checks/$k.upstream.json
  bench score "$evals/$m" --json >"$ours" 2>"$ours.err" || true
  py collect "${shim[@]}" --src "$src" --evals "$evals" --model "$m" --save "$work/checks/$k.saved" --out "$up" \
    >"$work/checks/$k.collect.log" 2>&1
  py compare --label published --ours "$ours" --upstream "$up" >>"$checks" || bad=1
done

# bench export → collect_results.py and bench score on the export; bench score of the run = of its export.
run=$work/run export=$work/export
rm -rf "$run" "$export"
bench run qa1,qa2,qa7,qa8 --lengths 0k,1k,2k --samples 6 --no-progress --out "$run" >/dev/null
bench export "$run" --format babilong --out "$export" >/dev/null
name=$(cd "$export" && ls -d */ | head -1 | tr -d /)
bench score "$export/$name" --json >"$work/export.ours.json"
bench score "$run" --json >"$work/run.ours.json"
py collect "${shim[@]}" --src "$src" --evals "$export" --model "$name" --save "$work/export.saved" \
  --out "$work/export.upstream.json" >"$work/export.collect.log" 2>&1
py compare --label export --ours "$work/export.ours.json" --upstream "$work/export.upstream.json" >>"$checks" || bad=1
py roundtrip --run "$work/run.ours.json" --export "$work/export.ours.json" >>"$checks" || bad=1

echo "work: $work"
py summary --checks "$checks" || bad=1
exit $bad
