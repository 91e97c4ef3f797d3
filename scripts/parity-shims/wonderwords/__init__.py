"""Stand-in for wonderwords (see README.md)."""
from . import random_word  # noqa: F401
