"""_get_words_from_text_file over this repository's datasets/words lists (wonderwords ships its own)."""
import json
import os

_WORDS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "datasets", "words")
_FILES = {"nounlist.txt": "nouns.json", "adjectivelist.txt": "adjectives.json"}
_LIMIT = 400  # RULER builds every adjective-noun pair; 400 x 400 keeps that small


def _get_words_from_text_file(name):
    if name not in _FILES:
        return []
    with open(os.path.join(_WORDS, _FILES[name]), encoding="utf-8") as f:
        return json.load(f)[:_LIMIT]
