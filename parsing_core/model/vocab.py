"""The vocabularies: the words, UPOS tags, characters and labels the network has an index for.

Built from the training sentences only.  Words seen fewer than ``min_count`` times are left
out and read as ``<unk>``; during training, *word dropout* (Kiperwasser & Goldberg 2016)
also hides a known word w with probability α / (α + count(w)), so the ``<unk>`` vector
learns what a rare word looks like.  The word, UPOS and character tables start with
``<pad>`` (0), ``<unk>`` (1) and ``<root>`` (2), the input of token 0, ROOT.

>>> from parsing_core import Sentence
>>> s = Sentence.from_heads("the cat saw the dog".split(), [2, 3, 0, 5, 3],
...                         ["det", "nsubj", "root", "det", "obj"])
>>> v = Vocab.build([s], min_count=2)
>>> v.words, v.labels
(('<pad>', '<unk>', '<root>', 'the'), ('det', 'nsubj', 'obj', 'root'))
>>> v.word_ids(s)       # ROOT first, then the tokens; only "the" is frequent enough
[2, 3, 1, 1, 3, 1]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import repeat
from typing import Any, cast

import numpy as np

from ..errors import ParsingCoreError
from ..sentence import Sentence

PAD, UNK, ROOT = 0, 1, 2
SPELLINGS_KEPT = 100_000  # spellings whose character ids a vocabulary remembers (some 15 MB at most)
SPECIALS = ("<pad>", "<unk>", "<root>")


@dataclass(frozen=True)
class Vocab:
    """Index tables for words, UPOS, characters and labels (plus each word's training count)."""

    words: tuple[str, ...]
    upos: tuple[str, ...] = SPECIALS
    chars: tuple[str, ...] = SPECIALS
    labels: tuple[str, ...] = ()
    counts: tuple[int, ...] = ()  # training count of each word (0 for the specials)
    lowercase: bool = True
    _index: dict[str, dict[str, int]] = field(init=False, repr=False, compare=False)
    #: each spelling's character ids, looked up once (every batch of every epoch asks again)
    _spelled: dict[str, tuple[int, ...]] = field(init=False, repr=False, compare=False)
    _counts: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        tables = {"words": self.words, "upos": self.upos, "chars": self.chars, "labels": self.labels}
        object.__setattr__(self, "_index", {k: {x: i for i, x in enumerate(v)} for k, v in tables.items()})
        object.__setattr__(self, "_spelled", {})
        object.__setattr__(self, "_counts", np.asarray(self.counts, dtype=np.float32))

    @classmethod
    def build(cls, sentences: Iterable[Sentence], min_count: int = 2, lowercase: bool = True) -> Vocab:
        sentences = list(sentences)
        norm = str.lower if lowercase else str
        counts = Counter(norm(w) for s in sentences for w in s.words)
        kept = sorted(w for w, n in counts.items() if n >= min_count)
        upos = sorted({u for s in sentences for u in (s.upos or ()) if u != "_"})
        chars = sorted({ch for s in sentences for w in s.words for ch in w})
        labels = sorted({lab for s in sentences for lab in (s.labels or ()) if lab != "_"})
        return cls(
            words=(*SPECIALS, *kept), upos=(*SPECIALS, *upos), chars=(*SPECIALS, *chars),
            labels=tuple(labels), counts=(0, 0, 0, *(counts[w] for w in kept)), lowercase=lowercase,
        )

    # -- looking up ---------------------------------------------------------------------------
    def word_ids(self, s: Sentence) -> list[int]:
        """ROOT, then the id of each token's word (``UNK`` when unknown)."""
        words = map(str.lower, s.words) if self.lowercase else s.words
        return [ROOT, *map(self._index["words"].get, words, repeat(UNK))]

    def unknown_words(self, s: Sentence) -> list[str]:
        """The words of ``s`` the model never saw in training (each read as ``UNK``), in order."""
        return [w for w, i in zip(s.words, self.word_ids(s)[1:], strict=True) if i == UNK]

    def upos_ids(self, s: Sentence) -> list[int]:
        table = self._index["upos"]
        tags: Sequence[str] = s.upos or ("_",) * s.n
        return [ROOT, *(table.get(u, UNK) for u in tags)]

    def char_ids(self, word: str) -> tuple[int, ...]:
        """The ids of the word's characters (``(UNK,)`` for an empty word).

        >>> Vocab(("<pad>", "<unk>", "<root>"), chars=(*SPECIALS, "a", "b")).char_ids("abc")
        (3, 4, 1)
        """
        return self.spellings([word])[0]

    def spellings(self, words: Sequence[str]) -> list[tuple[int, ...]]:
        """:meth:`char_ids` of each word, remembered for the first ``SPELLINGS_KEPT`` spellings
        asked: every batch of every epoch asks again (a long-running server meets words without end)."""
        found = [*map(self._spelled.get, words)]
        if None in found:
            table = self._index["chars"]
            missing = {w for w, f in zip(words, found) if f is None}
            new = {w: tuple(map(table.get, w, repeat(UNK))) or (UNK,) for w in missing}
            if len(self._spelled) < SPELLINGS_KEPT:
                self._spelled.update(new)
            found = [new[w] if f is None else f for w, f in zip(words, found)]
        return cast(list[tuple[int, ...]], found)

    @property
    def count_array(self) -> np.ndarray:
        """(V,) each word's training count as float32, for word dropout (made once)."""
        return self._counts

    def label_id(self, label: str | None) -> int | None:
        """Index of a label, or None for an unknown one (it is then not trained on)."""
        return None if label is None else self._index["labels"].get(label)

    def label(self, index: int) -> str:
        return self.labels[index]

    # -- checkpoints ------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {"words": list(self.words), "upos": list(self.upos), "chars": list(self.chars),
                "labels": list(self.labels), "counts": list(self.counts), "lowercase": self.lowercase}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Vocab:
        try:
            return cls(tuple(data["words"]), tuple(data["upos"]), tuple(data["chars"]),
                       tuple(data["labels"]), tuple(data["counts"]), bool(data["lowercase"]))
        except (KeyError, TypeError) as err:
            raise ParsingCoreError(f"the saved vocabulary is incomplete: {err}") from None
