#!/usr/bin/env python3
"""Offline parity with the peers' own Python, on files bench wrote (scripts/parity-ruler.sh drives it).

  ruler-score     RULER's scripts/eval/evaluate.py (postprocess_pred, get_pred_and_ref, run_evaluation_per_task, with
                  scripts/eval/synthetic/constants.py and scripts/synthetic.yaml) on `bench export --format ruler`
                  pred files.
  memagent-score  MemAgent's taskutils/memory_eval/ruler_general.py get_pred (with utils/__init__.py) on
                  `bench export --format memagent` result files: the model call is replaced by the exported response.
  memagent-prompts MemAgent's utils/recurrent.py async_query_llm on `bench generate --format memagent` files: the HTTP
                  session is replaced by one that records each request and answers with the replies our run got, and
                  the requests are compared with the prompts our run stored (bench run --store-prompts).
  ruler-data      writes the data RULER's generators download (json/PaulGrahamEssays.json, squad.json,
                  hotpotqa.json, english_words.json) into a copy of RULER's scripts/ from this repository's datasets/.
  ruler-prompts   RULER's rows (its prepare.py run as a whole script, scripts/parity-shims on PYTHONPATH) against the
                  prompts our run of them stored (bench run --data ROWS --protocol ruler --chat-template T
                  --store-prompts): the prompt sent must be the row's input + answer_prefix, byte for byte.
  ruler-evaluate  RULER's scripts/eval/evaluate.py run as a whole script on each pred folder of
                  `bench export --format ruler`; its summary CSV against our run's scores.
  summary         one line per check, beside `bench score --json` of the same exports; exit 1 on any difference.

The upstream functions are taken from the upstream files as they are (parsed with ast and executed; nothing is
copied); only their I/O (HTTP, datasets, nemo's manifest reader, tqdm, uvloop) is stubbed. Each check prints one JSON
line per file. Needs Python 3.9+, PyYAML (ruler-score) and, for memagent-prompts, a Qwen2.5 tokenizer.json (the served
model's tokenizer; MemAgent loads it with transformers' AutoTokenizer), read with the `tokenizers` package where it is
installed, else with our own Qwen2.5 BPE through scripts/parity-shims/tokenizers (node; `npm run build` first).
"""
import argparse
import ast
import asyncio
import contextlib
import glob
import importlib.util
import io
import json
import os
import re
import sys
import tempfile
import types


def functions_from(path, names, namespace):
    """Executes the named top-level functions of an upstream file in `namespace` (imports and script code skipped)."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), filename=path)
    nodes = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name in names]
    missing = set(names) - {n.name for n in nodes}
    if missing:
        sys.exit(f"{path}: no function {', '.join(sorted(missing))} (another upstream version?)")
    exec(compile(ast.Module(body=nodes, type_ignores=[]), path, "exec"), namespace)
    return namespace


SHIMS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "parity-shims")


def read_jsonl(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def load_module(name, path, package_dir=None):
    spec = importlib.util.spec_from_file_location(
        name, path, submodule_search_locations=[package_dir] if package_dir else None
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def ours_by_cell(run_dir):
    """Our run's summary.json rows by (task, method, model, length label)."""
    if not run_dir:
        return {}
    with open(os.path.join(run_dir, "summary.json"), encoding="utf-8") as f:
        rows = json.load(f)["rows"]
    return {(r["task"], r["method"], r["model"], r["lengthLabel"]): r for r in rows}


def token_label(n):
    return f"{n // 1024}k" if n % 1024 == 0 else str(n)


# ---------------------------------------------------------------------------------------------------------- RULER


def ruler_score(args):
    yaml = __import__("yaml")
    ev = os.path.join(args.ruler, "scripts", "eval")
    constants = load_module("ruler_eval_constants", os.path.join(ev, "synthetic", "constants.py"))
    with open(os.path.join(args.ruler, "scripts", "synthetic.yaml"), encoding="utf-8") as f:
        tasks = yaml.safe_load(f)
    # evaluate.py main(): each synthetic.yaml task takes its metric from constants.TASKS[config['task']].
    for config in tasks.values():
        config.update(constants.TASKS[config["task"]])
    ns = {"re": re, "tqdm": lambda x: x, "read_manifest": read_jsonl}
    functions_from(os.path.join(ev, "evaluate.py"), ["postprocess_pred", "get_pred_and_ref", "run_evaluation_per_task"], ns)
    ours = ours_by_cell(args.run)
    for pred_dir in sorted(glob.glob(os.path.join(args.export, "*", "synthetic", "*", "pred"))):
        name = pred_dir.split(os.sep)[-4]
        length = int(pred_dir.split(os.sep)[-2])
        for file in sorted(glob.glob(os.path.join(pred_dir, "*.jsonl"))):
            task = os.path.basename(file)[: -len(".jsonl")]
            if task not in tasks:
                print(json.dumps({"check": "ruler-score", "file": file, "skipped": "not a task of RULER's synthetic.yaml"}))
                continue
            score, nulls, _, _ = ns["run_evaluation_per_task"](tasks[task], file)
            metric = tasks[task]["metric_fn"].__name__
            model, method = name.rsplit("__", 1)
            row = next((r for k, r in ours.items() if k[0] == task and k[1] == method and k[3] == token_label(length)), None)
            print(
                json.dumps(
                    {
                        "check": "ruler-score",
                        "data": args.tag,
                        "task": task,
                        "length": length,
                        "export": name,
                        "n": len(read_jsonl(file)),
                        "metric": metric,
                        "upstream": score,
                        "nulls": nulls,
                        "ours_run": row["scoreX100"] if row and row["metric"] == metric else None,
                        "ours_run_metric": row["metric"] if row else None,
                    }
                )
            )


# ------------------------------------------------------------------------------------------------------- MemAgent


def memagent_utils(src, aio):
    """MemAgent's taskutils/memory_eval/utils package (its own __init__.py and envs.py) with `aio` in place of its
    aiohttp client."""
    utils_dir = os.path.join(src, "taskutils", "memory_eval", "utils")
    for key in [k for k in sys.modules if k == "utils" or k.startswith("utils.")]:
        del sys.modules[key]
    utils = load_module("utils", os.path.join(utils_dir, "__init__.py"), utils_dir)
    sys.modules["utils.aio"] = aio
    with contextlib.redirect_stdout(io.StringIO()):
        load_module("utils.envs", os.path.join(utils_dir, "envs.py"))
    return utils, utils_dir


async def gather_all(coros, n_proc=1):
    return await asyncio.gather(*coros)


async def no_close():
    return None


def memagent_score(args):
    responses = {}
    aio = types.ModuleType("utils.aio")
    aio.async_main = gather_all
    aio.close_async_client = no_close
    utils, _ = memagent_utils(args.memagent, aio)
    recurrent = types.ModuleType("utils.recurrent")

    async def replay(item, model, tokenizer, temperature=0.7, top_p=0.95, stop=None):
        return responses[item["_id"]]

    recurrent.async_query_llm = replay
    sys.modules["utils.recurrent"] = recurrent
    sys.modules["uvloop"] = types.SimpleNamespace(run=asyncio.run)

    class AutoTokenizer:
        @staticmethod
        def from_pretrained(*a, **k):
            return None

    ns = {
        "json": json,
        "os": os,
        "AutoTokenizer": AutoTokenizer,
        "tiktoken": None,
        "extract_solution": utils.extract_solution,
        "update_answer": utils.update_answer,
    }
    functions_from(
        os.path.join(args.memagent, "taskutils", "memory_eval", "ruler_general.py"),
        ["string_match_all", "calc_metrics", "calc_qa_metrics", "get_pred"],
        ns,
    )
    ours = ours_by_cell(args.run)
    for file in sorted(glob.glob(os.path.join(args.export, "results", "ruler_*_*", "*.jsonl"))):
        folder = os.path.basename(os.path.dirname(file))
        m = re.match(r"^ruler_(.+)_(\d+)$", folder)
        if not m or m.group(1) == "hqa":
            continue
        task, length = m.group(1), int(m.group(2))
        lines = read_jsonl(file)
        responses.clear()
        data = []
        for line in lines:
            responses[line["_id"]] = line["response"]
            item = {k: v for k, v in line.items() if k not in ("response", "answer", "pred") and not k.startswith("judge_")}
            item["outputs"] = line["answer"]
            item["context"] = ""
            data.append(item)
        name = os.path.basename(file)[: -len(".jsonl")]
        ga = types.SimpleNamespace(model="local", tokenizer="", api="recurrent", n_proc=1, force=True, split=task, length=length)
        with tempfile.TemporaryDirectory() as tmp:
            printed = io.StringIO()
            with contextlib.redirect_stdout(printed):
                ns["get_pred"](data, ga, os.path.join(tmp, "out.jsonl"))
            judged = read_jsonl(os.path.join(tmp, "out.jsonl"))
        scores = dict(re.findall(r"^(sub_em|em|f1): ([-\d.]+)$", printed.getvalue(), flags=re.M))
        # Every judge_* field the export wrote (judge_sub_em; judge_em and judge_f1 for qa) against upstream's.
        exported = {l["_id"]: l for l in lines}
        differ = [
            j["_id"]
            for j in judged
            if any(j[k] != exported[j["_id"]][k] for k in j if k.startswith("judge_") and k in exported[j["_id"]])
        ]
        model, method = name.rsplit("__", 1)
        row = next((r for k, r in ours.items() if k[0] == task and k[1] == method and k[3] == token_label(length)), None)
        print(
            json.dumps(
                {
                    "check": "memagent-score",
                    "data": args.tag,
                    "task": task,
                    "length": length,
                    "export": name,
                    "n": len(lines),
                    "scored": len(judged),
                    "upstream": {k: float(v) for k, v in scores.items()},
                    "items_differing_from_export": differ[:10],
                    "ours_run": row["scoreX100"] if row else None,
                    "ours_run_metric": row["metric"] if row else None,
                }
            )
        )


class HfLikeTokenizer:
    """What MemAgent's driver calls on its AutoTokenizer (encode, decode), over a `tokenizers` tokenizer.json: the
    package where it is installed, else its stand-in in scripts/parity-shims (our Qwen2.5 BPE); `used` says which."""

    def __init__(self, path):
        try:
            import tokenizers
        except ImportError:
            sys.path.append(SHIMS)
            import tokenizers

        self.used = getattr(tokenizers, "STAND_IN", f"tokenizers {getattr(tokenizers, '__version__', '?')}")
        try:
            self.t = tokenizers.Tokenizer.from_file(path)
        except ValueError as err:
            sys.exit(str(err))

    def encode(self, text):
        return self.t.encode(text).ids

    def decode(self, ids):
        return self.t.decode(ids, skip_special_tokens=False)


def our_calls(run_dir):
    """Per sample id, our run's model calls in order: (messages, params) from prompts/ by calls.jsonl's promptHash."""
    calls = {}
    for c in read_jsonl(os.path.join(run_dir, "calls.jsonl")):
        if c.get("status") != "ok":
            continue
        h = c["promptHash"]
        with open(os.path.join(run_dir, "prompts", h[:2], f"{h}.json"), encoding="utf-8") as f:
            stored = json.load(f)
        calls.setdefault(c["sampleId"], []).append((c["step"], stored["messages"], stored["params"]))
    return {k: [(m, p) for _, m, p in sorted(v, key=lambda x: x[0])] for k, v in calls.items()}


MEMORY = re.compile(r"\n<memory>\n(.*)\n</memory>\n", re.S)


def memagent_prompts(args):
    os.environ["RECURRENT_CHUNK_SIZE"] = str(args.chunk_tokens)
    os.environ["RECURRENT_MAX_NEW"] = str(args.max_new)
    os.environ["RECURRENT_MAX_CONTEXT_LEN"] = str(args.max_context)
    session = {"requests": [], "replies": []}

    class Response:
        def __init__(self, content):
            self.status = 200
            self.content = content

        async def json(self):
            return {"choices": [{"message": {"content": self.content}}]}

        async def __aenter__(self):
            return self

        async def __aexit__(self, *exc):
            return False

    class Session:
        async def __aenter__(self):
            return self

        async def __aexit__(self, *exc):
            return False

        def post(self, url, headers, json):
            session["requests"].append(json)
            replies = session["replies"]
            return Response(replies.pop(0) if replies else "")

    async def get_async_client():
        return Session()

    aio = types.ModuleType("utils.aio")
    aio.get_async_client = get_async_client
    memagent_utils(args.memagent, aio)
    with contextlib.redirect_stdout(io.StringIO()):
        recurrent = load_module("utils.recurrent", os.path.join(args.memagent, "taskutils", "memory_eval", "utils", "recurrent.py"))
    tokenizer = HfLikeTokenizer(args.tokenizer)
    ours = our_calls(args.run)
    records = {r["id"]: r for r in read_jsonl(os.path.join(args.run, "samples.jsonl"))}
    for file in sorted(f for d in args.data for f in glob.glob(os.path.join(d, "eval_*_*.json"))):
        m = re.match(r"^eval_(.+)_(\d+)\.json$", os.path.basename(file))
        task, length = m.group(1), int(m.group(2))
        with open(file, encoding="utf-8") as f:
            text = f.read()
        # MemAgent's files are a JSON list; bench generate writes JSON Lines (load_dataset reads both).
        items = json.loads(text) if text.lstrip().startswith("[") else [json.loads(l) for l in text.splitlines() if l.strip()]
        same = 0
        first_difference = None
        requests = 0
        for position, item in enumerate(items):
            sample_id = f"{task}/{token_label(length)}/{position}"
            mine = ours.get(sample_id)
            if mine is None or sample_id not in records:
                first_difference = first_difference or {"sample": sample_id, "what": "not in our run"}
                continue
            # Our replies, in order: each update call's memory (the next prompt's <memory>), then the final answer.
            replies = [MEMORY.search(msgs[0]["content"]).group(1) for msgs, _ in mine[1:]]
            replies.append(records[sample_id]["rawOutput"])
            session["requests"].clear()
            session["replies"] = replies
            item = dict(item, _id=position + 1)  # not 0: the driver prints the whole exchange for _id 0
            with contextlib.redirect_stdout(io.StringIO()):
                asyncio.run(recurrent.async_query_llm(item, "local", tokenizer, temperature=0.7, top_p=0.95))
            theirs = [
                ([{"role": m["role"], "content": m["content"]} for m in r["messages"]], {"maxTokens": r["max_tokens"], "temperature": r["temperature"], "topP": r["top_p"]})
                for r in session["requests"]
            ]
            requests += len(theirs)
            mine_cmp = [([{"role": m["role"], "content": m["content"]} for m in msgs], {k: p.get(k) for k in ("maxTokens", "temperature", "topP")}) for msgs, p in mine]
            if theirs == mine_cmp:
                same += 1
            elif first_difference is None:
                k = next((i for i, (a, b) in enumerate(zip(theirs, mine_cmp)) if a != b), min(len(theirs), len(mine_cmp)))
                a = theirs[k][0][0]["content"] if k < len(theirs) else None
                b = mine_cmp[k][0][0]["content"] if k < len(mine_cmp) else None
                at = next((i for i, (x, y) in enumerate(zip(a or "", b or "")) if x != y), None)
                first_difference = {
                    "sample": sample_id,
                    "call": k,
                    "calls": [len(theirs), len(mine_cmp)],
                    "params": [theirs[k][1] if k < len(theirs) else None, mine_cmp[k][1] if k < len(mine_cmp) else None],
                    "char": at,
                    "upstream": a[max(0, (at or 0) - 60) : (at or 0) + 60] if a else None,
                    "ours": b[max(0, (at or 0) - 60) : (at or 0) + 60] if b else None,
                }
        print(
            json.dumps(
                {
                    "check": "memagent-prompts",
                    "data": args.tag,
                    "task": task,
                    "length": length,
                    "file": file,
                    "samples": len(items),
                    "identical": same,
                    "requests": requests,
                    "first_difference": first_difference,
                    "tokenizer": tokenizer.used,
                }
            )
        )


def ruler_data(args):
    """RULER's downloaded inputs from datasets/ (download_paulgraham_essay.py concatenates the essays' text;
    download_qa_dataset.sh fetches SQuAD v2 dev and HotpotQA dev distractor; english_words.json maps ids to words)."""
    import gzip

    out = os.path.join(args.ruler, "scripts", "data", "synthetic", "json")
    ds = args.datasets
    text = ""
    for f in sorted(glob.glob(os.path.join(ds, "essays", "paul_graham", "*.txt"))):
        with open(f, encoding="utf-8") as fh:
            text += fh.read()
    files = {
        "PaulGrahamEssays.json": {"text": text},
        "squad.json": json.load(open(os.path.join(ds, "squad", "squad_v2_dev_small.json"), encoding="utf-8")),
        "hotpotqa.json": json.load(gzip.open(os.path.join(ds, "hotpotqa", "hotpot_dev_distractor_subset.json.gz"), "rt", encoding="utf-8")),
        "english_words.json": {str(i): w for i, w in enumerate(json.load(open(os.path.join(ds, "words", "nouns.json"), encoding="utf-8")))},
    }
    for name, value in files.items():
        path = os.path.join(out, name)
        if os.path.islink(path):
            os.remove(path)
        with open(path, "w", encoding="utf-8") as f:
            json.dump(value, f)


def ruler_prompts(args):
    rows = read_jsonl(args.rows)
    prefix = f"{args.task}/{token_label(args.length)}/"
    calls = [c for c in read_jsonl(os.path.join(args.run, "calls.jsonl")) if c.get("status") == "ok" and c["sampleId"].startswith(prefix)]
    same, first = 0, None
    for c in calls:
        h = c["promptHash"]
        with open(os.path.join(args.run, "prompts", h[:2], f"{h}.json"), encoding="utf-8") as f:
            stored = json.load(f)
        row = rows[int(c["sampleId"].rsplit("/", 1)[1])]
        expected = row["input"] + row.get("answer_prefix", "")
        sent = stored.get("prompt")
        if sent is None:  # a chat request: the user message, then an assistant prefill if any
            sent = "".join(m["content"] for m in stored["messages"])
        if sent == expected:
            same += 1
        elif first is None:
            at = next((i for i, (a, b) in enumerate(zip(sent, expected)) if a != b), min(len(sent), len(expected)))
            first = {"sample": c["sampleId"], "char": at, "ours": sent[max(0, at - 60) : at + 60], "upstream": expected[max(0, at - 60) : at + 60]}
    print(
        json.dumps(
            {
                "check": "ruler-prompts",
                "data": args.tag,
                "task": args.task,
                "template": args.template,
                "length": args.length,
                "rows": len(rows),
                "requests": len(calls),
                "identical": same,
                "first_difference": first,
            }
        )
    )


def ruler_evaluate(args):
    """evaluate.py as RULER runs it (python scripts/eval/evaluate.py --data_dir PRED --benchmark synthetic)."""
    import csv
    import subprocess

    ours = ours_by_cell(args.run)
    script = os.path.join(args.ruler, "scripts", "eval", "evaluate.py")
    for pred_dir in sorted(glob.glob(os.path.join(args.export, "*", "synthetic", "*", "pred"))):
        name = pred_dir.split(os.sep)[-4]
        length = int(pred_dir.split(os.sep)[-2])
        tasks = sorted(os.path.basename(f)[: -len(".jsonl")] for f in glob.glob(os.path.join(pred_dir, "*.jsonl")))
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([args.shims] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
        done = subprocess.run([sys.executable, script, "--data_dir", pred_dir, "--benchmark", "synthetic"], env=env, capture_output=True, text=True)
        table = os.path.join(pred_dir, "summary.csv" if len(tasks) > 1 else f"summary-{tasks[0]}.csv")
        if done.returncode != 0 or not os.path.exists(table):
            sys.exit(f"evaluate.py failed on {pred_dir}: {done.stderr.strip()[-500:]}")
        with open(table, encoding="utf-8", newline="") as f:
            lines = list(csv.reader(f))[1:]
        table_rows = {r[0]: r[1:] for r in lines}
        model, method = name.rsplit("__", 1)
        for task, score, nulls in zip(table_rows["Tasks"], table_rows["Score"], table_rows["Nulls"]):
            row = next((r for k, r in ours.items() if k[0] == task and k[1] == method and k[3] == token_label(length)), None)
            print(
                json.dumps(
                    {
                        "check": "ruler-evaluate",
                        "data": args.tag,
                        "task": task,
                        "length": length,
                        "export": name,
                        "n": len(read_jsonl(os.path.join(pred_dir, f"{task}.jsonl"))),
                        "metric": row["metric"] if row else None,
                        "upstream": float(score),
                        "nulls": nulls,
                        "ours_run": row["scoreX100"] if row else None,
                        "ours_run_metric": row["metric"] if row else None,
                    }
                )
            )


def summary(args):
    """One line per check from the checks' JSON lines and `bench score --json` outputs; exit 1 on any difference."""
    ours = {}
    for file in args.bench_score:
        with open(file, encoding="utf-8") as f:
            for row in json.load(f)["rows"]:
                ours[(row["task"], row["model"], row["lengthLabel"], row["metric"])] = row["percent"]
    bad = 0
    for line in read_jsonl(args.checks):
        if "skipped" in line:
            continue
        label = token_label(line["length"])
        tag = f"[{line['data']}] " if line.get("data") else ""
        if line["check"] == "ruler-prompts":
            ok = line["identical"] == line["requests"] == line["rows"]
            print(
                f"prompts  {tag}{line['task']:<16} {label:>5}  {line['template']}: {line['identical']} of {line['rows']} prompts sent are RULER's prepare.py input + answer_prefix, byte for byte"
                + ("" if ok else f"  DIFFER: first {json.dumps(line['first_difference'])}")
            )
        elif line["check"] == "memagent-prompts":
            ok = line["identical"] == line["samples"]
            print(
                f"prompts  {tag}{line['task']:<16} {label:>5}  MemAgent's utils/recurrent.py sends the same {line['requests']} requests as ours (ids: {line.get('tokenizer', 'tokenizers')})"
                if ok
                else f"prompts  {tag}{line['task']:<16} {label:>5}  DIFFER: {line['identical']} of {line['samples']} samples identical; first {json.dumps(line['first_difference'])}"
            )
        else:
            rulers = ("ruler-score", "ruler-evaluate")
            metric = line["metric"] if line["check"] in rulers else line["ours_run_metric"]
            upstream = line["upstream"] if line["check"] in rulers else line["upstream"].get("sub_em")
            scored = ours.get((line["task"], line["export"], label, metric))
            peer = {
                "ruler-score": "RULER's evaluate.py functions",
                "ruler-evaluate": "RULER's evaluate.py (whole script)",
            }.get(line["check"], "MemAgent's ruler_general.py")
            values = [v for v in (line["ours_run"], scored) if v is not None]
            ok = upstream is not None and values and all(abs(v - upstream) < 1e-9 for v in values)
            if line["check"] == "memagent-score" and line["items_differing_from_export"]:
                ok = False
            parts = []
            if line["ours_run"] is not None:
                parts.append(f"ours (bench run) {line['ours_run']:.2f}")
            if scored is not None:
                parts.append(f"ours (bench score) {scored:.2f}")
            print(
                f"{'scores':<8} {tag}{line['task']:<16} {label:>5}  {metric} on {line['n']} exports ({line['export']}): "
                f"{', '.join(parts)}, {peer} {upstream:.2f}{'' if ok else '  DIFFER'}"
            )
        bad += 0 if ok else 1
    sys.exit(1 if bad else 0)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="check", required=True)
    a = sub.add_parser("ruler-score")
    a.add_argument("--ruler", required=True, help="a checkout of NVIDIA/RULER")
    a.add_argument("--export", required=True, help="bench export --format ruler --out DIR")
    a.add_argument("--run", help="the run directory (its summary.json gives our scores)")
    b = sub.add_parser("memagent-score")
    b.add_argument("--memagent", required=True, help="a checkout of BytedTsinghua-SIA/MemAgent")
    b.add_argument("--export", required=True, help="bench export --format memagent --out DIR")
    b.add_argument("--run")
    c = sub.add_parser("memagent-prompts")
    c.add_argument("--memagent", required=True)
    c.add_argument("--data", required=True, nargs="+", help="bench generate --format memagent --out DIR (eval_{task}_{len}.json)")
    c.add_argument("--run", required=True, help="bench run --data DIR --method memagent --store-prompts")
    c.add_argument("--tokenizer", required=True, help="Qwen2.5 tokenizer.json")
    c.add_argument("--chunk-tokens", type=int, default=5000)
    c.add_argument("--max-new", type=int, default=1024)
    c.add_argument("--max-context", type=int, default=100000000000, help="run.py's RECURRENT_MAX_CONTEXT_LEN")
    e = sub.add_parser("ruler-data")
    e.add_argument("--ruler", required=True, help="a copy of NVIDIA/RULER (its scripts/ is written to)")
    e.add_argument("--datasets", required=True, help="this repository's datasets/")
    f = sub.add_parser("ruler-prompts")
    f.add_argument("--rows", required=True, help="RULER's {save_dir}/{task}/validation.jsonl")
    f.add_argument("--run", required=True, help="bench run TASK --data ROWS --protocol ruler --store-prompts")
    f.add_argument("--task", required=True)
    f.add_argument("--template", required=True, help="prepare.py's --model_template_type (our --chat-template)")
    f.add_argument("--length", type=int, required=True, help="prepare.py's --max_seq_length")
    g = sub.add_parser("ruler-evaluate")
    g.add_argument("--ruler", required=True)
    g.add_argument("--shims", required=True, help="scripts/parity-shims")
    g.add_argument("--export", required=True, help="bench export --format ruler --out DIR")
    g.add_argument("--run")
    d = sub.add_parser("summary")
    d.add_argument("--checks", required=True, help="the checks' JSON lines")
    d.add_argument("--bench-score", nargs="*", default=[], help="bench score --json outputs of the same exports")
    for parser in (a, b, c, f, g):
        parser.add_argument("--tag", default="", help="what the data was, for the summary (e.g. 'MemAgent files')")
    args = p.parse_args()
    checks = {
        "ruler-score": ruler_score,
        "memagent-score": memagent_score,
        "memagent-prompts": memagent_prompts,
        "ruler-data": ruler_data,
        "ruler-prompts": ruler_prompts,
        "ruler-evaluate": ruler_evaluate,
    }
    checks.get(args.check, summary)(args)


if __name__ == "__main__":
    main()
