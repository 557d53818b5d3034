"""How the board names a token in words: by its word, with its number where the word alone is ambiguous.

A sentence may use a word twice ("Hop onto a Hop On / Hop Off bus"): "loses Hop → Hop" would not
say which Hop.  :func:`indexed` adds the token's number as a subscript, only to a word whose
form occurs more than once, so an arc reads ``Hop₁ → Hop₄`` and a plain one stays ``a ← bus``.
A precondition names a head by number (``token 4``, from the library, which knows no words);
:func:`named_reason` writes it as the word and its number, ``Hop 4``, or ``ROOT``.

>>> import parsing_core as pc
>>> s = pc.Sentence.from_heads("Hop onto a Hop On / Hop Off bus .".split(), [0, 1, 4, 2, 4, 4, 4, 7, 4, 1])
>>> [indexed(s, t) for t in (0, 1, 4, 9)]
['ROOT', 'Hop₁', 'Hop₄', 'bus']
>>> named_reason("the top already has a head (token 4)", s)
'the top already has a head (Hop 4)'
>>> named_reason("the top already has a head (ROOT)", s)
'the top already has a head (ROOT)'
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

import parsing_core as pc

SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
TOKEN = re.compile(r"\btoken (\d+)\b")


@lru_cache(maxsize=64)
def repeated(sentence: pc.Sentence) -> frozenset[str]:
    """The word forms that occur more than once in the sentence."""
    return frozenset(word for word, count in Counter(sentence.words).items() if count > 1)


def repeats(sentence: pc.Sentence, token: int) -> bool:
    """Does the word of ``token`` occur more than once in the sentence (ROOT never does)?"""
    return token != pc.ROOT and sentence.word(token) in repeated(sentence)


def indexed(sentence: pc.Sentence, token: int) -> str:
    """The token's word, with its number as a subscript when the word repeats: ``Hop₄``."""
    word = sentence.word(token)
    return word + str(token).translate(SUBSCRIPTS) if repeats(sentence, token) else word


def numbered(sentence: pc.Sentence, token: int) -> str:
    """The token's word and number, ``Hop 4``; ROOT is ``ROOT``."""
    return sentence.word(token) if token == pc.ROOT else f"{sentence.word(token)} {token}"


def named_reason(reason: str, sentence: pc.Sentence) -> str:
    """A precondition's reason with each ``token N`` written as the word and its number."""
    def name(found: re.Match[str]) -> str:
        token = int(found[1])
        return numbered(sentence, token) if 0 <= token <= sentence.n else found[0]

    return TOKEN.sub(name, reason)
