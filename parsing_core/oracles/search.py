"""The exhaustive-search oracle: the judge of every clever oracle.

    best(c) = |A ∩ G|                       if c is final
            = max over legal t of best(t(c))  otherwise    (−∞ if no move is legal)
    cost(t; c) = best(c) − best(t(c))

Arcs are never removed, so best(c) = |A ∩ G| + future(c), where the future gain depends only
on the stack, the buffer and which stack tokens already have a head
(:meth:`Configuration.search_key`).  The search memoises on that key, and keeps the tables
of the last few gold trees, so stepping through one sentence reuses earlier work.

What the moves do does not depend on the gold tree either, so from the second tree of a length
on, the search also keeps the **graph of keys** it explores (:mod:`.search_graph`), for the
last few lengths.  Once the graph holds the whole search space, a new tree of that length
computes every key's future from it at once, height by height with numpy, instead of exploring
configurations again: the audit of an oracle against this one asks about thousands of trees of
the same few lengths.  (The first tree is searched plainly: keeping a graph costs a first
search about a fifth more, and a single sentence gains nothing by it.)

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
from ..trees import arcs
from .base import ALL, Costs, GoldCache, Oracle
from .search_graph import Edges, Futures, KeyGraph

MAX_LENGTH: dict[str, int] = {
    "arc-standard": 14,
    "arc-eager": 10,
    "arc-eager-corrected": 9,
    "arc-hybrid": 14,
    "arc-hybrid-swap": 6,
    "arc-standard-swap": 6,
}


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

    def __init__(self, system: TransitionSystem, max_length: int | None = None,
                 lengths_kept: int = 8) -> None:
        """``lengths_kept``: for how many sentence lengths the graph of keys is kept."""
        super().__init__(system)
        self.max_length = MAX_LENGTH[system.name] if max_length is None else max_length
        self._graphs: GoldCache[KeyGraph] = GoldCache(lambda length: KeyGraph(length[0]), size=lengths_kept)
        self._tables: GoldCache[Futures] = GoldCache(self._futures)
        self._lengths_asked: dict[int, int] = {}  # how many trees of each length were asked about

    def move_costs(self, c: Configuration, gold: Sentence) -> Costs:
        memo = self._memo(gold)
        gold_arcs = gold.gold_arcs
        self._future(c.search_key(), c, gold_arcs, memo)  # c's key in the graph too, after its moves
        values = {t: (arc in gold_arcs) + self._future(after.search_key(), after, gold_arcs, memo)
                  for t, arc, after in self.system.successors(c)}
        top = max(values.values(), default=-math.inf)
        return {t: math.inf if v == -math.inf else top - v for t, v in values.items()}

    def best(self, c: Configuration, gold: Sentence) -> float:
        """The most gold arcs a final configuration reachable from ``c`` can hold."""
        built = sum(1 for arc in c.unlabelled_arcs if arc in gold.gold_arcs)
        return built + self._future(c.search_key(), c, gold.gold_arcs, self._memo(gold))

    # -- internals ---------------------------------------------------------------------------
    def _future(self, key: Hashable, c: Configuration | None, gold_arcs: frozenset[tuple[int, int]],
                memo: Futures) -> float:
        """The most gold arcs the moves from ``key`` on can still add (−∞ if no final
        configuration).  ``c`` is a configuration with that key, needed only while the key is
        not yet in the graph."""
        value = memo.get(key)
        return self._explore(key, c, gold_arcs, memo) if value is None else value

    def _explore(self, key: Hashable, c: Configuration | None, gold_arcs: frozenset[tuple[int, int]],
                 memo: Futures) -> float:
        """:meth:`_future` of a key the tree's table does not hold yet: from the graph's moves, or
        from ``c``'s successors, which then enter the graph (after the keys they reach)."""
        if memo.graph is None:
            return self._explore_plainly(key, c, gold_arcs, memo.found)
        moves = memo.graph.moves
        known = moves.get(key)
        if known is not None:
            final, edges = known
            value = 0 if final else self._best_move(edges, gold_arcs, memo)
        elif c is not None and self.system.is_terminal(c):
            value, moves[key] = 0, (True, ())
        else:
            assert c is not None, "a key outside the graph comes with its configuration"
            successors = self.system.successors(c)
            one = memo.graph.one  # one key object per key: a graph holds each key once
            edges = tuple([(arc, one(after.search_key())) for _, arc, after in successors])
            value = self._best_move(edges, gold_arcs, memo, [after for _, _, after in successors])
            moves[key] = (False, edges)  # after the keys it reaches
        memo.found[key] = value
        return value

    def _explore_plainly(self, key: Hashable, c: Configuration | None,
                         gold_arcs: frozenset[tuple[int, int]], found: dict[Hashable, float]) -> float:
        """:meth:`_explore` for the first tree of a length: the search without a graph (keeping
        one costs a first search about a fifth more, and a single sentence gains nothing by it)."""
        assert c is not None, "without a graph every key comes with its configuration"
        if self.system.is_terminal(c):
            value: float = 0
        else:
            value = -math.inf
            for _, arc, after in self.system.successors(c):
                reached = after.search_key()
                future = found.get(reached)
                if future is None:
                    future = self._explore_plainly(reached, after, gold_arcs, found)
                if future + (arc in gold_arcs) > value:
                    value = future + (arc in gold_arcs)
        found[key] = value
        return value

    def _best_move(self, edges: Edges, gold_arcs: frozenset[tuple[int, int]], memo: Futures,
                   reached_from: list[Configuration] | None = None) -> float:
        """max over moves of (gold arc built) + future of the key reached; −∞ with no move.
        ``reached_from``: the configurations the moves lead to, for moves found just now."""
        best = -math.inf
        for i, (arc, reached) in enumerate(edges):
            value = memo.get(reached)
            if value is None:
                value = self._explore(reached, reached_from[i] if reached_from else None, gold_arcs, memo)
            value += arc in gold_arcs
            if value > best:
                best = value
        return best

    def _futures(self, gold_heads: tuple[int, ...]) -> Futures:
        """A new tree's table.  The first tree of a length is searched without a graph; later
        ones (also after the graph of their length was dropped) are paired with the graph of
        their length: every key the table gets is then in that graph, which a graph made again
        after an eviction could not promise.  When the graph already holds the whole search
        space, the table is computed from it at once."""
        n = len(gold_heads)
        self._lengths_asked[n] = self._lengths_asked.get(n, 0) + 1  # one entry per length: a few
        if self._lengths_asked[n] == 1:
            return Futures(None, frozenset())
        graph = self._graphs((n,))
        if graph.compiled is None and self.system.initial(n).search_key() in graph.moves:
            graph.compile()
        return Futures(graph, frozenset(arcs(gold_heads)))

    def _memo(self, gold: Sentence) -> Futures:
        if gold.n > self.max_length:
            raise TooLongForSearch(
                f"exact search answers {self.system.name} sentences of up to {self.max_length} "
                f"tokens quickly; this one has {gold.n}. Choose a shorter sentence or another oracle."
            )
        return self._tables(gold.gold_heads)
