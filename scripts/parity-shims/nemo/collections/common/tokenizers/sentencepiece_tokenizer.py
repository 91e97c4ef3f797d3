"""Stand-in for NeMo's SentencePieceTokenizer: tokens are runs of word characters and single other marks."""
import re

_TOKEN = re.compile(r"\w+|[^\w\s]")


class SentencePieceTokenizer:
    def __init__(self, model_path=None, **kwargs):
        self.model_path = model_path

    def text_to_tokens(self, text):
        return _TOKEN.findall(text)

    def tokens_to_text(self, tokens):
        return " ".join(tokens)
