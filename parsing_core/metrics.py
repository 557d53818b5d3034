"""Attachment scores: the share of tokens whose head (UAS) or head and label (LAS) is right.

Both accept one sentence or parallel lists of sentences (scored over all their tokens);
``ignore_punct=True`` leaves out tokens whose gold UPOS is PUNCT.

>>> from parsing_core import Sentence
>>> gold = Sentence.from_heads("a b c".split(), [2, 0, 2], ["det", "root", "obj"])
>>> pred = Sentence.from_heads("a b c".split(), [2, 0, 1], ["det", "root", "obj"])
>>> round(uas(pred, gold), 3), round(las(pred, gold), 3)
(0.667, 0.667)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from .errors import ParsingCoreError
from .sentence import Sentence

Sentences = Sentence | Sequence[Sentence]


def _pairs(pred: Sentences, gold: Sentences) -> Iterator[tuple[Sentence, Sentence]]:
    preds = [pred] if isinstance(pred, Sentence) else list(pred)
    golds = [gold] if isinstance(gold, Sentence) else list(gold)
    if len(preds) != len(golds):
        raise ParsingCoreError(f"{len(preds)} predicted sentences for {len(golds)} gold ones")
    for index, (p, g) in enumerate(zip(preds, golds), start=1):
        if p.n != g.n:
            raise ParsingCoreError(
                f"sentence {_name(g, index)}: {_count(p.n, 'predicted token')} for {_count(g.n, 'gold one')}"
            )
        yield p, g


def _name(sentence: Sentence, index: int, words: int = 3) -> str:
    """The sentence's id, or else its 1-based position and its first few words."""
    if sentence.sent_id:
        return sentence.sent_id
    start = " ".join(sentence.words[:words]) + (" …" if sentence.n > words else "")
    return f'{index} ("{start}")'


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _score(pred: Sentences, gold: Sentences, labelled: bool, ignore_punct: bool) -> float:
    right = total = 0
    for p, g in _pairs(pred, gold):
        for d in range(1, g.n + 1):
            if ignore_punct and g.upos is not None and g.upos[d - 1] == "PUNCT":
                continue
            total += 1
            ok = p.heads is not None and p.head(d) == g.head(d)
            right += ok and (not labelled or p.label(d) == g.label(d))
    return right / total if total else 0.0


def uas(pred: Sentences, gold: Sentences, ignore_punct: bool = False) -> float:
    """Unlabelled attachment score, in [0, 1]."""
    return _score(pred, gold, False, ignore_punct)


def las(pred: Sentences, gold: Sentences, ignore_punct: bool = False) -> float:
    """Labelled attachment score, in [0, 1]."""
    return _score(pred, gold, True, ignore_punct)
