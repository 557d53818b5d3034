"""What every oracle answers: the cost of each legal move in a configuration, given the gold tree.

cost(t; c) = best(c) − best(t(c)), where best(c) is the most gold arcs any final configuration
reachable from c can hold.  A move is *optimal* when its cost is the minimum (zero whenever
the gold tree, or the best tree still reachable, can be built).  ``math.inf`` marks a move
after which no final configuration can be reached at all.

Costs are unlabelled attachment losses.  In a labelled system a move that builds a gold
(head, dependent) arc with the wrong label costs one more (:meth:`Oracle.cost`).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

from ..configuration import Configuration
from ..driver import Choose
from ..sentence import Sentence
from ..systems import TransitionSystem
from ..transition import Transition
from ..trees import is_projective

Costs = dict[Transition, float]
ALL: tuple[str, ...] = ("*",)


class Oracle:
    """Base class: subclasses implement :meth:`costs`; ``next`` and ``optimal`` follow."""

    name: str = ""
    title: str = ""
    #: The systems this oracle serves (names as in ``list_systems()``); ``ALL`` for every system.
    systems: tuple[str, ...] = ()
    #: For which gold trees its costs are exact: "any", "projective" or "none" (approximate).
    exact_for: str = "none"
    #: One sentence for the UI, e.g. "exact for projective gold trees, approximate otherwise".
    exactness: str = ""

    def __init__(self, system: TransitionSystem) -> None:
        self.system = system

    def costs(self, c: Configuration, gold: Sentence) -> Costs:
        """{legal move: cost}; the moves are unlabelled."""
        raise NotImplementedError

    def explain(self, c: Configuration, gold: Sentence) -> dict[Transition, frozenset[tuple[int, int]]]:
        """For each legal move, the gold arcs (head, dependent) it makes unreachable.

        Empty when the oracle cannot tell (its costs are not a count of lost arcs).
        """
        return {}

    def is_exact_for(self, gold: Sentence) -> bool:
        """Are this oracle's costs exact for this gold tree?"""
        projective = is_projective(gold.gold_heads, self.system.root_last)
        return self.exact_for == "any" or (self.exact_for == "projective" and projective)

    def optimal(self, c: Configuration, gold: Sentence) -> tuple[Transition, ...]:
        """The minimum-cost moves (several when there are ties), in display order."""
        return min_cost_moves(self.costs(c, gold))

    def next(self, c: Configuration, gold: Sentence) -> Transition:
        """One optimal move (the first in display order), labelled when the system is."""
        return self.labelled(c, gold, self.optimal(c, gold)[0])

    def cost(self, c: Configuration, gold: Sentence, t: Transition) -> float:
        """Cost of one (possibly labelled) move: its unlabelled cost plus a wrong-label penalty."""
        return self.costs(c, gold)[t.bare] + label_penalty(self.system, c, gold, t)

    def labelled(self, c: Configuration, gold: Sentence, t: Transition) -> Transition:
        """``t`` with the label a gold-following parser would give it (none if unlabelled)."""
        if not self.system.labelled or gold.labels is None:
            return t
        arc = self.system.arc_of(c, t)
        return t if arc is None else t.with_label(gold.label(arc[1]))

    def chooser(self, gold: Sentence) -> Choose:
        """A ``choose`` function for :func:`parsing_core.run` that follows this oracle."""
        return lambda c, legal: self.next(c, gold)

    def __repr__(self) -> str:
        return f"get_oracle({self.system.name!r}, {self.name!r})"


def min_cost_moves(costs: Costs) -> tuple[Transition, ...]:
    if not costs:
        return ()
    best = min(costs.values())
    return tuple(t for t, v in costs.items() if v == best)


def label_penalty(system: TransitionSystem, c: Configuration, gold: Sentence, t: Transition) -> int:
    """1 when ``t`` builds a gold (head, dependent) arc under a label other than the gold one."""
    if not system.labelled or gold.labels is None:
        return 0
    arc = system.arc_of(c, t)
    if arc is None or arc not in gold.gold_arcs:
        return 0
    return int(t.label != gold.label(arc[1]))


T = TypeVar("T")


class GoldCache(Generic[T]):
    """What an oracle computes once per gold tree, for the last few trees it was asked about."""

    def __init__(self, build: Callable[[tuple[int, ...]], T], size: int = 8) -> None:
        self.build, self.size = build, size
        self._items: OrderedDict[tuple[int, ...], T] = OrderedDict()

    def __call__(self, gold_heads: tuple[int, ...]) -> T:
        if gold_heads not in self._items:
            self._items[gold_heads] = self.build(gold_heads)
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        self._items.move_to_end(gold_heads)
        return self._items[gold_heads]
