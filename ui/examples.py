"""The sentence every page opens with: the running example of the dynamic-oracle literature."""

from __future__ import annotations

from parsing_core import Sentence

DEFAULT_WORDS: tuple[str, ...] = ("He", "sent", "her", "a", "letter", ".")
DEFAULT_HEADS: tuple[int, ...] = (2, 0, 2, 5, 2, 2)  # He ← sent, ROOT → sent, sent → her, ...


def default_sentence() -> Sentence:
    """The words "He sent her a letter ." with their gold tree (projective, one root)."""
    return Sentence.from_heads(DEFAULT_WORDS, DEFAULT_HEADS)
