"""sent_tokenize: a split after '.', '!' or '?' followed by white space (nltk's punkt is more careful)."""
import re

_END = re.compile(r"(?<=[.!?])\s+")


def sent_tokenize(text, language="english"):
    return [s for s in _END.split(text) if s]
