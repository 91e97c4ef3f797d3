"""Stand-in for nltk (see README.md): the calls RULER's prepare.py, niah.py, variable_tracking.py and evaluate.py make."""
from types import SimpleNamespace

from . import tokenize  # noqa: F401  (RULER imports nltk.tokenize.sent_tokenize)


def _nothing(*args, **kwargs):
    return None


data = SimpleNamespace(find=_nothing)
download = _nothing
