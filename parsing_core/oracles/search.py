"""The exhaustive-search oracle: the judge of every clever oracle.

    best(c) = |A ∩ G|                       if c is final
            = max over legal t of best(t(c))  otherwise    (−∞ if no move is legal)
    cost(t; c) = best(c) − best(t(c))

Arcs are never removed, so best(c) = |A ∩ G| + future(c), where the future gain depends only
on the stack, the buffer and which stack tokens already have a head
(:meth:`Configuration.search_key`).  The search memoises on that key, and keeps the tables
of the last few gold trees, so stepping through one sentence reuses earlier work.

The number of keys grows exponentially with the sentence, so the oracle refuses sentences
longer than :data:`MAX_LENGTH` (for each system, the length it answers at the initial
configuration in about a second on a 2-core machine; see ``benchmarks/search.py``).
"""

from __future__ import annotations

import math
from collections.abc import Hashable

from ..configuration import Configuration
from ..errors import TooLongForSearch
from ..sentence import Sentence
from ..systems import TransitionSystem
from .base import ALL, Costs, GoldCache, Oracle

MAX_LENGTH: dict[str, int] = {
    "arc-standard": 14,
    "arc-eager": 10,
    "arc-eager-corrected": 9,
    "arc-hybrid": 14,
    "arc-hybrid-swap": 6,
    "arc-standard-swap": 6,
}

Memo = dict[Hashable, float]


class SearchOracle(Oracle):
    name = "search"
    title = "exact (search)"
    systems = ALL
    exact_for = "any"
    exactness = "exact for any gold tree; short sentences only"
    speed = "exponential"

    @classmethod
    def answers(cls, system: TransitionSystem, gold: Sentence) -> bool:
        """Only sentences of up to :data:`MAX_LENGTH` tokens (for the default ``max_length``)."""
        return gold.n <= MAX_LENGTH[system.name]

    def __init__(self, system: TransitionSystem, max_length: int | None = None) -> None:
        super().__init__(system)
        self.max_length = MAX_LENGTH[system.name] if max_length is None else max_length
        self._tables: GoldCache[Memo] = GoldCache(lambda heads: {})

    def move_costs(self, c: Configuration, gold: Sentence) -> Costs:
        memo = self._memo(gold)
        gold_arcs = gold.gold_arcs
        values = {t: (arc in gold_arcs) + self._future(after, gold_arcs, memo)
                  for t, arc, after in self.system.successors(c)}
        top = max(values.values(), default=-math.inf)
        return {t: math.inf if v == -math.inf else top - v for t, v in values.items()}

    def best(self, c: Configuration, gold: Sentence) -> float:
        """The most gold arcs a final configuration reachable from ``c`` can hold."""
        built = sum(1 for arc in c.unlabelled_arcs if arc in gold.gold_arcs)
        return built + self._future(c, gold.gold_arcs, self._memo(gold))

    # -- internals ---------------------------------------------------------------------------
    def _future(self, c: Configuration, gold_arcs: frozenset[tuple[int, int]], memo: Memo) -> float:
        """The most gold arcs the moves from ``c`` on can still add (−∞ if no final configuration)."""
        key = c.search_key()
        value = memo.get(key)
        if value is None:
            if self.system.is_terminal(c):
                value = 0
            else:
                value = max(
                    ((arc in gold_arcs) + self._future(after, gold_arcs, memo)
                     for _, arc, after in self.system.successors(c)),
                    default=-math.inf,
                )
            memo[key] = value
        return value

    def _memo(self, gold: Sentence) -> Memo:
        if gold.n > self.max_length:
            raise TooLongForSearch(
                f"exact search answers {self.system.name} sentences of up to {self.max_length} "
                f"tokens quickly; this one has {gold.n}. Choose a shorter sentence or another oracle."
            )
        return self._tables(gold.gold_heads)
