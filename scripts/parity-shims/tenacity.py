"""Stand-in for tenacity: RULER's tokenizer.py decorates the Gemini tokenizer with retry (unused here)."""


def retry(*args, **kwargs):
    return lambda f: f


def stop_after_attempt(n):
    return n


def wait_fixed(s):
    return 0


def wait_random(a, b):
    return 0
