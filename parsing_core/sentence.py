"""A sentence: its words and, optionally, its gold tree.

Tokens are numbered 1..n in sentence order; token 0 is ROOT.  The gold tree is a head list
(``heads[d - 1]`` = head of token d, 0 = ROOT) with optional dependency labels.  A sentence
typed by a learner has no gold tree (``heads is None``); parsing still works, oracles do not.

>>> s = Sentence.from_heads("He sent her a letter .".split(), [2, 0, 2, 5, 2, 2])
>>> s.n, s.head(1), s.word(0), s.is_projective
(6, 2, 'ROOT', True)
>>> Sentence.from_heads(["a", "b"], [2, 1])
Traceback (most recent call last):
...
parsing_core.errors.TreeError: cycle 1 → 2 → 1: every token must reach ROOT
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any

from .errors import TreeError
from .trees import arcs, crossing_arcs, crossing_pairs, find_cycle, is_projective, projective_order

_projective_order = lru_cache(maxsize=256)(projective_order)

ROOT = 0
ROOT_WORD = "ROOT"


@dataclass(frozen=True)
class Sentence:
    """Words (tokens 1..n) plus an optional gold tree; immutable and hashable."""

    words: tuple[str, ...]
    heads: tuple[int, ...] | None = None
    labels: tuple[str, ...] | None = None
    upos: tuple[str, ...] | None = None
    sent_id: str | None = None
    # The CoNLL-U token list this sentence was read from (multiword ranges, empty nodes,
    # comments): kept for lossless writing, ignored by equality and hashing.
    source: Any = field(default=None, compare=False, hash=False, repr=False)

    @classmethod
    def from_heads(
        cls,
        words: Sequence[str],
        heads: Sequence[int] | None,
        labels: Sequence[str] | None = None,
        **extra: Any,
    ) -> Sentence:
        """Build a sentence, checking that ``heads`` is a tree over ``words``."""
        words_t = tuple(str(w) for w in words)
        heads_t = None if heads is None else check_heads(heads, len(words_t))
        # A parse of an unlabelled system has a None label on every arc: no labels, not "None"s
        labels_t = (None if labels is None or all(x is None for x in labels)
                    else tuple("_" if x is None else str(x) for x in labels))
        if labels_t is not None and len(labels_t) != len(words_t):
            raise TreeError(f"{len(labels_t)} labels for {len(words_t)} words")
        return cls(words_t, heads_t, labels_t, **extra)

    @property
    def n(self) -> int:
        """Number of tokens, ROOT not counted."""
        return len(self.words)

    @property
    def has_gold(self) -> bool:
        return self.heads is not None

    def word(self, token: int) -> str:
        """The word of a token (1..n), or ROOT's (0)."""
        return ROOT_WORD if token == ROOT else self.words[self._index(token)]

    def head(self, token: int) -> int:
        """Gold head of a token (1..n)."""
        return self.gold_heads[self._index(token)]

    def label(self, token: int) -> str | None:
        """Gold label of the arc entering a token (1..n), if labels are known."""
        return None if self.labels is None else self.labels[self._index(token)]

    def _index(self, token: int) -> int:
        """The position of token 1..n in the per-token tuples (ROOT, 0, has no head nor label)."""
        if not 1 <= token <= self.n:  # numpy's integers too: the tensor paths ask with them
            raise TreeError(f"no token {token!r} here: the tokens are 1..{self.n} (0 is ROOT, which has "
                            "no head nor label)")
        return int(token) - 1

    @property
    def gold_heads(self) -> tuple[int, ...]:
        if self.heads is None:
            raise TreeError("this sentence has no gold tree")
        return self.heads

    @cached_property
    def gold_arcs(self) -> frozenset[tuple[int, int]]:
        return frozenset(arcs(self.gold_heads))

    @cached_property
    def gold_children(self) -> tuple[tuple[int, ...], ...]:
        """``gold_children[h]``: the gold dependents of token h (0..n), in sentence order."""
        kids: list[list[int]] = [[] for _ in range(self.n + 1)]
        for d, h in enumerate(self.gold_heads, start=1):
            kids[h].append(d)
        return tuple(tuple(k) for k in kids)

    def projective_order(self, root_last: bool = False) -> tuple[int, ...]:
        """Rank of each token 0..n in the tree's in-order traversal (see :mod:`.trees`)."""
        return _projective_order(self.gold_heads, root_last)

    @cached_property
    def is_projective(self) -> bool:
        return is_projective(self.gold_heads)

    def crossing_arcs(self, root_last: bool = False) -> set[tuple[int, int]]:
        return crossing_arcs(self.gold_heads, root_last)

    def crossing_pairs(self, root_last: bool = False) -> list[tuple[tuple[int, int], tuple[int, int]]]:
        """The pairs of gold arcs that cross (see :func:`parsing_core.trees.crossing_pairs`)."""
        return crossing_pairs(self.gold_heads, root_last)

    @property
    def root_count(self) -> int:
        return sum(1 for h in self.gold_heads if h == ROOT)

    def with_tree(self, heads: Sequence[int], labels: Sequence[str] | None = None) -> Sentence:
        """The same words with another tree (e.g. a parser's prediction)."""
        return Sentence.from_heads(
            self.words, heads, labels, upos=self.upos, sent_id=self.sent_id, source=self.source
        )


def check_heads(heads: Sequence[Any], n: int) -> tuple[int, ...]:
    """Return ``heads`` as a tuple of ints after checking it describes a tree over n tokens."""
    if len(heads) != n:
        raise TreeError(f"{len(heads)} heads for {n} words")
    out: list[int] = []
    for d, h in enumerate(heads, start=1):
        if isinstance(h, bool) or not isinstance(h, int):
            try:
                h = int(str(h).strip())
            except ValueError:
                raise TreeError(f"token {d}: head {h!r} is not an integer") from None
        if not 0 <= h <= n:
            raise TreeError(f"token {d}: head {h} is out of range 0..{n}")
        if h == d:
            raise TreeError(f"token {d} is its own head")
        out.append(h)
    cycle = find_cycle(out)
    if cycle:
        shown = " → ".join(str(t) for t in [*cycle, cycle[0]])
        raise TreeError(f"cycle {shown}: every token must reach ROOT")
    return tuple(out)
