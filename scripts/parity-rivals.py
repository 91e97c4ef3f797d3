#!/usr/bin/env python3
"""Request parity of `--method infmem` and `--method rememr1` with the upstream drivers (scripts/parity-rivals.sh
drives it): both send their requests through a logging proxy to the same `bench serve`, on the same data files, and
the logged request bodies are compared sample by sample.

  proxy    a forwarding HTTP proxy that appends every request it passes on (method, path, body bytes) and the answer
           to a log;
           POST /__mark/<label> is logged as a marker and not passed on.
  drive    runs an upstream driver function on `bench generate --format memagent` files, one sample at a time, in
           file order, with the proxy as its server: InfMem's utils/infmem.py async_query_llm_multi_turn or
           ReMemR1's utils/rememr1.py async_query_llm, as their evaluation scripts call them.
  compare  our run's requests (the proxy log of `bench run --no-cache --concurrency 1`, in calls.jsonl order) against
           upstream's (the driver's log, split at its markers): counts of requests compared, byte-identical, equal as
           JSON, different, with the first difference of each kind; exit 1 on any difference.

The upstream files run as they are. Their imports that are absent here are stood in for by small modules put in
sys.modules before the driver loads (STAND-INS below); none of them writes a byte of a request except aiohttp's,
which serialises the body as aiohttp does (json.dumps, UTF-8, application/json). The Hugging Face tokenizer is
`HfTokenizer`: encode/decode through the harness's own Qwen2.5 tokenizer (scripts/qwen-tokenizer-stdio.mjs),
tokenize() as ids -> tokenizer.json's token strings, and apply_chat_template rendering the Qwen3 chat template with
jinja2 the way transformers does (sandboxed, trim_blocks, lstrip_blocks).
"""
import argparse
import asyncio
import contextlib
import glob
import http.server
import importlib.util
import io
import json
import os
import re
import subprocess
import sys
import threading
import types
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# What stands in for each import the drivers make that is not installed here, and why it leaves requests unchanged.
STAND_INS = {
    "aiohttp": "ClientSession.post over urllib: the body is json.dumps(json) as UTF-8 with Content-Type "
    "application/json, as aiohttp's default serialiser sends it; responses read as aiohttp's .status/.json()/.text()",
    "openai": "AsyncOpenAI/OpenAI/AzureOpenAI that only accept their arguments: infmem.py builds a client at import "
    "and never calls it; neither driver path uses the openai package",
    "nltk": "download() does nothing: infmem.py fetches punkt at import and never uses it",
    "json5": "an empty module: Qwen-Agent's utils.py imports it for functions the function-call prompt never calls",
    "sklearn": "TfidfVectorizer(tokenizer=...) fit_transform/transform and cosine_similarity in numpy, with "
    "scikit-learn's defaults (lower-case, vocabulary in sorted order, raw counts, smooth idf ln((1+n)/(1+df))+1, l2 "
    "rows): ReMemR1's recall picks a past memory by them, so a recalled memory is the one stand-in that could move "
    "a request (infmem.py imports cosine_similarity and never calls it)",
    "transformers.AutoTokenizer": "HfTokenizer (module docstring)",
    "utils.envs.BM25_IMPL": "InfMem@26f1766's infmem.py imports BM25_IMPL from its envs.py, which does not define it "
    "(the import fails as shipped); it is set from $BM25_IMPL, default 'enhanced' (the path §j.1 follows)",
}


# The file helpers of scripts/parity-ruler.py (its module code is definitions only).
_spec = importlib.util.spec_from_file_location("parity_ruler", os.path.join(ROOT, "scripts", "parity-ruler.py"))
_ruler = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_ruler)
read_jsonl, load_module, token_label = _ruler.read_jsonl, _ruler.load_module, _ruler.token_label


# ------------------------------------------------------------------------------------------------------------ proxy


def proxy(args):
    lock = threading.Lock()
    log = open(args.log, "a", encoding="utf-8")

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *a):
            pass

        def _write(self, entry):
            with lock:
                log.write(json.dumps(entry, ensure_ascii=False) + "\n")
                log.flush()

        def _forward(self, method):
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            if self.path.startswith("/__mark/"):
                self._write({"mark": self.path[len("/__mark/") :]})
                self.send_response(204)
                self.end_headers()
                return
            entry = {"method": method, "path": self.path, "body": body.decode("utf-8")}  # both sides send UTF-8 JSON
            headers = {"Content-Type": self.headers.get("Content-Type", "application/json")}
            req = urllib.request.Request(args.target + self.path, data=body if method == "POST" else None, headers=headers, method=method)
            try:
                with urllib.request.urlopen(req, timeout=600) as resp:
                    status, data, kind = resp.status, resp.read(), resp.headers.get("Content-Type", "application/json")
            except urllib.error.HTTPError as e:
                status, data, kind = e.code, e.read(), e.headers.get("Content-Type", "application/json")
            self._write({**entry, "status": status, "response": data.decode("utf-8", "replace")})
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self):
            self._forward("POST")

        def do_GET(self):
            self._forward("GET")

    server = http.server.ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    print(f"http://127.0.0.1:{server.server_address[1]}", flush=True)
    server.serve_forever()


# -------------------------------------------------------------------------------------------------------- stand-ins


class HfTokenizer:
    """The calls the drivers make on their AutoTokenizer, for a Qwen2.5/Qwen3 vocabulary (module docstring)."""

    def __init__(self, tokenizer_json, chat_template):
        self.proc = subprocess.Popen(
            ["node", os.path.join(ROOT, "scripts", "qwen-tokenizer-stdio.mjs")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )
        with open(tokenizer_json, encoding="utf-8") as f:
            vocab = json.load(f)["model"]["vocab"]
        self.tokens = {i: s for s, i in vocab.items()}
        self.template = None
        if chat_template:
            import jinja2.sandbox

            with open(chat_template, encoding="utf-8") as f:
                text = f.read()
            if chat_template.endswith(".json"):
                text = json.loads(text)["chat_template"]
            env = jinja2.sandbox.ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True, extensions=["jinja2.ext.loopcontrols"])
            env.filters["tojson"] = lambda x, indent=None, **k: json.dumps(x, ensure_ascii=False, indent=indent)
            self.template = env.from_string(text)

    def _ask(self, query):
        self.proc.stdin.write(json.dumps(query) + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def encode(self, text, add_special_tokens=True):
        return self._ask({"encode": text})

    def decode(self, ids, skip_special_tokens=False):
        return self._ask({"decode": list(ids)})

    def tokenize(self, text):
        return [self.tokens[i] for i in self.encode(text)]

    def apply_chat_template(self, messages, tokenize=False, add_generation_prompt=False, **kwargs):
        if self.template is None:
            sys.exit("this driver renders a chat template: give --chat-template")
        return self.template.render(messages=messages, add_generation_prompt=add_generation_prompt, **kwargs)


class AiohttpResponse:
    def __init__(self, status, body):
        self.status = status
        self._body = body

    async def json(self):
        return json.loads(self._body)

    async def text(self):
        return self._body.decode("utf-8")

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc):
        return False


class AiohttpSession:
    def __init__(self, *a, **k):
        pass

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc):
        return False

    async def close(self):
        return None

    def post(self, url, headers=None, json=None):
        data = __import__("json").dumps(json).encode("utf-8")
        req = urllib.request.Request(url, data=data, headers={**(headers or {}), "Content-Type": "application/json"}, method="POST")
        try:
            with urllib.request.urlopen(req, timeout=600) as resp:
                return AiohttpResponse(resp.status, resp.read())
        except urllib.error.HTTPError as e:
            return AiohttpResponse(e.code, e.read())


class TfidfVectorizer:
    def __init__(self, tokenizer=None, **kwargs):
        self.tokenizer = tokenizer

    def _counts(self, docs):
        import numpy as np

        rows = []
        for d in docs:
            c = {}
            for t in self.tokenizer(d.lower()):
                c[t] = c.get(t, 0) + 1
            rows.append(c)
        return rows, np

    def _matrix(self, rows, np):
        m = np.zeros((len(rows), len(self.vocabulary_)), dtype=np.float64)
        for r, c in enumerate(rows):
            for t, n in c.items():
                if t in self.vocabulary_:
                    m[r, self.vocabulary_[t]] = n
        m *= self.idf_
        norms = np.sqrt((m * m).sum(axis=1))
        norms[norms == 0] = 1
        return m / norms[:, None]

    def fit_transform(self, docs):
        rows, np = self._counts(docs)
        terms = sorted({t for c in rows for t in c})
        if not terms:
            raise ValueError("empty vocabulary; perhaps the documents only contain stop words")
        self.vocabulary_ = {t: i for i, t in enumerate(terms)}
        df = np.zeros(len(terms), dtype=np.float64)
        for c in rows:
            for t in c:
                df[self.vocabulary_[t]] += 1
        self.idf_ = np.log((1 + len(rows)) / (1 + df)) + 1
        return self._matrix(rows, np)

    def transform(self, docs):
        rows, np = self._counts(docs)
        return self._matrix(rows, np)


def cosine_similarity(a, b):
    import numpy as np

    def unit(m):
        n = np.sqrt((m * m).sum(axis=1))
        n[n == 0] = 1
        return m / n[:, None]

    return unit(a) @ unit(b).T


def install_stand_ins(qwen_agent_src, rank_bm25_src):
    aiohttp = types.ModuleType("aiohttp")
    aiohttp.ClientSession = AiohttpSession
    aiohttp.ClientTimeout = lambda **k: None
    aiohttp.TCPConnector = lambda **k: None
    openai = types.ModuleType("openai")
    for name in ("AsyncOpenAI", "OpenAI", "AzureOpenAI"):
        setattr(openai, name, type(name, (), {"__init__": lambda self, *a, **k: None}))
    nltk = types.ModuleType("nltk")
    nltk.download = lambda *a, **k: True
    sklearn = types.ModuleType("sklearn")
    fe = types.ModuleType("sklearn.feature_extraction")
    text = types.ModuleType("sklearn.feature_extraction.text")
    text.TfidfVectorizer = TfidfVectorizer
    metrics = types.ModuleType("sklearn.metrics")
    pairwise = types.ModuleType("sklearn.metrics.pairwise")
    pairwise.cosine_similarity = cosine_similarity
    for name, module in {
        "aiohttp": aiohttp,
        "openai": openai,
        "nltk": nltk,
        "json5": types.ModuleType("json5"),
        "sklearn": sklearn,
        "sklearn.feature_extraction": fe,
        "sklearn.feature_extraction.text": text,
        "sklearn.metrics": metrics,
        "sklearn.metrics.pairwise": pairwise,
    }.items():
        sys.modules.setdefault(name, module)
    # The real Qwen-Agent modules the function-call prompt needs, without the package __init__ files (they import
    # every agent, LLM client and tool).
    if qwen_agent_src:
        for pkg in ("qwen_agent", "qwen_agent.llm", "qwen_agent.llm.fncall_prompts", "qwen_agent.utils"):
            m = types.ModuleType(pkg)
            m.__path__ = [os.path.join(qwen_agent_src, *pkg.split("."))]
            sys.modules[pkg] = m
    if rank_bm25_src:
        load_module("rank_bm25", os.path.join(rank_bm25_src, "rank_bm25.py"))


def upstream_utils(src):
    """The driver repository's taskutils/memory_eval/utils package, loaded as `utils` (its own __init__ and envs)."""
    utils_dir = os.path.join(src, "taskutils", "memory_eval", "utils")
    for key in [k for k in sys.modules if k == "utils" or k.startswith("utils.")]:
        del sys.modules[key]
    load_module("utils", os.path.join(utils_dir, "__init__.py"), utils_dir)
    with contextlib.redirect_stdout(io.StringIO()):
        envs = load_module("utils.envs", os.path.join(utils_dir, "envs.py"))
    if not hasattr(envs, "BM25_IMPL"):
        envs.BM25_IMPL = os.getenv("BM25_IMPL", "enhanced")
    return utils_dir


# ------------------------------------------------------------------------------------------------------------ drive


def items_of(file):
    with open(file, encoding="utf-8") as f:
        text = f.read()
    # MemAgent's files are a JSON list; bench generate writes JSON Lines (load_dataset reads both).
    return json.loads(text) if text.lstrip().startswith("[") else [json.loads(l) for l in text.splitlines() if l.strip()]


def sample_files(dirs):
    out = []
    for d in dirs:
        for f in sorted(glob.glob(os.path.join(d, "eval_*_*.json"))):
            m = re.match(r"^eval_(.+)_(\d+)\.json$", os.path.basename(f))
            out.append((f, m.group(1), int(m.group(2))))
    return out


def drive(args):
    url = re.match(r"^http://([^:/]+):(\d+)", args.url)
    os.environ["SERVE_HOST"], os.environ["SERVE_PORT"] = url.group(1), url.group(2)
    os.environ["RECURRENT_CHUNK_SIZE"] = str(args.chunk_tokens)
    os.environ["RECURRENT_MAX_NEW"] = str(args.max_new)
    os.environ["RECURRENT_MAX_CONTEXT_LEN"] = str(args.max_context)
    install_stand_ins(args.qwen_agent, args.rank_bm25)
    utils_dir = upstream_utils(args.src)
    with contextlib.redirect_stdout(io.StringIO()):
        if args.upstream == "infmem":
            driver = load_module("utils.infmem", os.path.join(utils_dir, "infmem.py")).async_query_llm_multi_turn
        else:
            load_module("utils.tf_idf_retriever", os.path.join(utils_dir, "tf_idf_retriever.py"))
            driver = load_module("utils.rememr1", os.path.join(utils_dir, "rememr1.py")).async_query_llm
    tokenizer = HfTokenizer(args.tokenizer, args.chat_template)

    def mark(label):
        urllib.request.urlopen(urllib.request.Request(f"{args.url.split('/v1')[0]}/__mark/{label}", data=b"", method="POST")).read()

    for file, task, length in sample_files(args.data):
        for position, item in enumerate(items_of(file)):
            mark(f"{task}/{token_label(length)}/{position}")
            # ruler_hqa.py numbers the items from 0 (item["_id"] = idx); _id 0 only makes the drivers print more.
            item = dict(item, _id=position)
            with contextlib.redirect_stdout(io.StringIO()):
                asyncio.run(driver(item, args.model, tokenizer, temperature=args.temperature, top_p=args.top_p))
    mark("end")


# ---------------------------------------------------------------------------------------------------------- compare


def upstream_by_sample(log):
    out, current = {}, None
    for e in read_jsonl(log):
        if "mark" in e:
            current = e["mark"]
            if current != "end":
                out.setdefault(current, [])
        elif e["method"] == "POST" and current not in (None, "end"):
            out[current].append(e)
    return out


def ours_by_sample(log, run_dir):
    """Our run's POSTs in the proxy's order, given to calls.jsonl's records in start order (one sample at a time)."""
    posts = [e for e in read_jsonl(log) if "mark" not in e and e["method"] == "POST"]
    calls = sorted(read_jsonl(os.path.join(run_dir, "calls.jsonl")), key=lambda c: c["startedAt"])
    if len(calls) != len(posts):
        sys.exit(f"{run_dir}: {len(calls)} calls in calls.jsonl but {len(posts)} requests logged (was --no-cache given?)")
    out = {}
    for c, e in zip(calls, posts):
        out.setdefault(c["sampleId"], []).append(e)
    return out


def body_difference(a, b):
    """Which fields differ between two request bodies (parsed), with the first differing character of a text field."""
    x, y = json.loads(a["body"]), json.loads(b["body"])
    fields = sorted(set(x) | set(y))
    out = []
    for k in fields:
        if x.get(k) == y.get(k):
            continue
        d = {"field": k}
        u, v = x.get(k), y.get(k)
        if k == "messages" and isinstance(u, list) and isinstance(v, list):
            u = "".join(f"<{m.get('role')}>{m.get('content')}" for m in u)
            v = "".join(f"<{m.get('role')}>{m.get('content')}" for m in v)
        if isinstance(u, str) and isinstance(v, str):
            at = next((i for i, (p, q) in enumerate(zip(u, v)) if p != q), min(len(u), len(v)))
            d.update(char=at, upstream=u[max(0, at - 60) : at + 60], ours=v[max(0, at - 60) : at + 60])
        else:
            d.update(upstream=u, ours=v)
        out.append(d)
    return out


def coverage(requests):
    """How much of each method's control flow the compared requests went through (upstream's side)."""
    out = {"retrieved_block": 0, "recalled_memory": 0, "thinking_continued": 0}
    for e in requests:
        body = json.loads(e["body"])
        text = body.get("prompt") or "".join(m.get("content", "") for m in body.get("messages", []))
        out["retrieved_block"] += "<retrieved_chunk>\n[Retrieved #1]" in text
        m = re.search(r"<recalled_memory>\n(.*?)\n</recalled_memory>", text, re.S)
        out["recalled_memory"] += bool(m) and m.group(1) != "No memory was recalled."
        out["thinking_continued"] += "</think>" in text.rsplit("<|im_start|>assistant\n", 1)[-1] if "prompt" in body else 0
    return out


RECALLED = re.compile(r"<recalled_memory>\n(.*?)\n</recalled_memory>", re.S)


def reply_of(entry):
    body = json.loads(entry.get("response") or "{}")
    choice = (body.get("choices") or [{}])[0]
    return choice.get("text") if "text" in choice else (choice.get("message") or {}).get("content", "")


def recall_tie(before, x, y, tokenizer):
    """Whether two ReMemR1 requests differ only in the recalled memory, and the two memories score the same for the
    recall query over the memories kept so far (upstream's requests and replies up to here, equal to ours): a tie
    that upstream's set order breaks, which string-hash randomisation changes (D29)."""
    if tokenizer is None or not before:
        return False
    u, v = (json.loads(e["body"])["messages"][0]["content"] for e in (x, y))
    mu, mv = RECALLED.search(u), RECALLED.search(v)
    if not mu or not mv or RECALLED.sub("", u) != RECALLED.sub("", v):
        return False
    replies = [reply_of(e) for e in before]
    query = re.search(r"<recall>(.+)</recall>", replies[-1])
    kept = list(dict.fromkeys(re.sub(r"<recall>.*?</recall>", "", r, flags=re.S).strip() for r in replies))
    if not query or mu.group(1) not in kept or mv.group(1) not in kept:
        return False
    vectorizer = TfidfVectorizer(tokenizer=lambda t: [w.replace("\u0120", "") for w in tokenizer.tokenize(t.lower())])
    matrix = vectorizer.fit_transform(kept)
    sims = cosine_similarity(vectorizer.transform([query.group(1)]), matrix).flatten()
    return abs(sims[kept.index(mu.group(1))] - sims[kept.index(mv.group(1))]) < 1e-12


def passes(counts, why):
    """Every request compared is equal, or its sample's first difference is explained."""
    return counts["compared"] > 0 and "unexplained" not in why and (counts["different"] > 0 or counts["requests_upstream"] == counts["requests_ours"])


def compare(args):
    theirs = upstream_by_sample(args.upstream_log)
    ours = ours_by_sample(args.ours_log, args.run)
    tokenizer = HfTokenizer(args.tokenizer, None) if args.tokenizer else None
    explained = {}
    counts = {
        "samples": 0,
        "samples_identical": 0,
        "requests_upstream": 0,
        "requests_ours": 0,
        "compared": 0,
        "byte_identical": 0,
        "identical_reserialised": 0,
        "json_equal": 0,
        "different": 0,
    }
    kinds = {}
    for sample in sorted(theirs, key=lambda s: (s.rsplit("/", 2)[0], s)):
        a, b = theirs[sample], ours.get(sample, [])
        counts["samples"] += 1
        counts["requests_upstream"] += len(a)
        counts["requests_ours"] += len(b)
        same_sample = len(a) == len(b)
        diverged = first_why = None
        for i, (x, y) in enumerate(zip(a, b)):
            counts["compared"] += 1
            if x["path"] == y["path"] and x["body"] == y["body"]:
                counts["byte_identical"] += 1
                counts["identical_reserialised"] += 1
                counts["json_equal"] += 1
                continue
            diff = body_difference(x, y)
            if x["path"] == y["path"] and not diff:
                counts["json_equal"] += 1
                # Our body written the way upstream's json.dumps writes it (", " and ": ", \\u escapes): the same
                # bytes when only the serialisation differs, keys in the same order.
                counts["identical_reserialised"] += json.dumps(json.loads(y["body"])) == x["body"]
                kinds.setdefault(
                    "serialisation",
                    {
                        "sample": sample,
                        "call": i,
                        "keys": [list(json.loads(x["body"])), list(json.loads(y["body"]))],
                        "upstream": x["body"][:100],
                        "ours": y["body"][:100],
                    },
                )
                continue
            counts["different"] += 1
            same_sample = False
            # The first difference of a sample is explained where it can be; later requests of that sample follow
            # from a different reply.
            why = "after an earlier difference in the sample" if diverged else "unexplained"
            if not diverged and args.label == "rememr1" and recall_tie(a[:i], x, y, tokenizer):
                why = "recall tie broken by set order (D29)"
            diverged, first_why = True, first_why or why
            explained[why] = explained.get(why, 0) + 1
            key = "path" if x["path"] != y["path"] else ",".join(d["field"] for d in diff)
            kinds.setdefault(key, {"sample": sample, "call": i, "paths": [x["path"], y["path"]], "fields": diff})
        if len(a) != len(b):
            kinds.setdefault("request count", {"sample": sample, "upstream": len(a), "ours": len(b)})
            why = "request count after an earlier difference" if first_why not in (None, "unexplained") else "unexplained"
            explained[why] = explained.get(why, 0) + 1
        counts["samples_identical"] += same_sample
    seen = coverage([e for rs in theirs.values() for e in rs])
    print(json.dumps({"check": f"{args.label}-requests", **counts, "different_why": explained, "coverage": seen, "first_difference_by_kind": kinds}, ensure_ascii=False))
    sys.exit(0 if passes(counts, explained) else 1)


def summary(args):
    """One line per check; exit 1 on any difference."""
    bad = 0
    for line in read_jsonl(args.checks):
        name = line["check"]
        if line.get("skipped"):
            print(f"{name:<18} skipped (upstream not available)")
            continue
        ok = passes(line, line["different_why"])
        bad += not ok
        print(
            f"{name:<18} {line['samples']} samples, {line['requests_upstream']} upstream / {line['requests_ours']} ours requests: "
            f"{line['compared']} compared, {line['json_equal']} equal as JSON ({line['byte_identical']} byte-identical, "
            f"{line['identical_reserialised']} identical once ours is written as json.dumps does), {line['different']} different"
            f"{' (' + json.dumps(line['different_why']) + ')' if line['different_why'] else ''}; "
            f"coverage {json.dumps(line['coverage'])}{'' if ok else '  DIFFER: ' + json.dumps(line['first_difference_by_kind'], ensure_ascii=False)[:2000]}"
        )
    sys.exit(1 if bad else 0)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    a = sub.add_parser("proxy")
    a.add_argument("--port", type=int, default=0)
    a.add_argument("--target", required=True, help="the server's base, e.g. http://127.0.0.1:8000")
    a.add_argument("--log", required=True)
    b = sub.add_parser("drive")
    b.add_argument("--upstream", choices=["infmem", "rememr1"], required=True)
    b.add_argument("--src", required=True, help="a checkout of UCMP13753/InfMem or syr-cn/ReMemR1")
    b.add_argument("--qwen-agent", help="a checkout of QwenLM/Qwen-Agent (InfMem)")
    b.add_argument("--rank-bm25", help="a checkout of dorianbrown/rank_bm25 (InfMem)")
    b.add_argument("--data", required=True, nargs="+", help="bench generate --format memagent --out DIR")
    b.add_argument("--url", required=True, help="the proxy, http://127.0.0.1:PORT/v1")
    b.add_argument("--model", required=True, help="the model name both sides send")
    b.add_argument("--tokenizer", required=True, help="Qwen2.5 tokenizer.json (its vocabulary is Qwen3's too)")
    b.add_argument("--chat-template", help="Qwen3's chat template (.jinja, or a tokenizer_config.json) for InfMem")
    # As the evaluation scripts write them: ruler_hqa.py passes the ints 0 and 1, which json.dumps writes as 0 and 1.
    number = lambda v: int(v) if re.fullmatch(r"-?\d+", v) else float(v)
    b.add_argument("--temperature", type=number, required=True)
    b.add_argument("--top-p", type=number, required=True)
    b.add_argument("--chunk-tokens", type=int, default=5000)
    b.add_argument("--max-new", type=int, required=True, help="RECURRENT_MAX_NEW of the run config (InfMem 1024, ReMemR1 2048)")
    b.add_argument("--max-context", type=int, default=100000000000, help="RECURRENT_MAX_CONTEXT_LEN of the run configs")
    c = sub.add_parser("compare")
    c.add_argument("--label", required=True)
    c.add_argument("--upstream-log", required=True)
    c.add_argument("--ours-log", required=True)
    c.add_argument("--run", required=True, help="our run directory (calls.jsonl)")
    c.add_argument("--tokenizer", help="Qwen2.5 tokenizer.json: explains ReMemR1 recall ties")
    d = sub.add_parser("summary")
    d.add_argument("--checks", required=True)
    sub.add_parser("stand-ins")
    args = p.parse_args()
    if args.command == "stand-ins":
        for k, v in STAND_INS.items():
            print(f"{k}: {v}")
        return
    {"proxy": proxy, "drive": drive, "compare": compare, "summary": summary}[args.command](args)


if __name__ == "__main__":
    main()
