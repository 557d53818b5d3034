"""The search oracle's graph of keys, and every key's best future for one gold tree at once.

From a search key (:meth:`Configuration.search_key`: stack, buffer, which stack tokens have a
head) the legal moves, the arcs they build and the keys they lead to do not depend on the gold
tree.  So the search builds this graph once per sentence length, as it explores:

    moves[key] = (is final, ((arc or None, key reached), ...))

A key enters ``moves`` only after every key it leads to has (the search writes it on the way
back), so the order of ``moves`` lists every key after all keys it reaches, and the graph never
needs the configuration a key came from.

Once the graph holds everything reachable from the initial configuration, it is **compiled**
(:class:`Compiled`): keys become numbers, moves become arrays grouped by *height* (the longest
walk from the key to a final one), and the best future of every key for a gold tree is
computed height by height, each height in a few numpy operations:

    future[k] = 0                                      k final
              = max over moves (k, arc, k') of  [arc ∈ G] + future[k']
              = −∞                                     no legal move (a dead end)

>>> import parsing_core as pc
>>> system = pc.get_system("arc-standard")
>>> graph = KeyGraph(2)
>>> def explore(c):                       # what the search does, without the gold tree
...     for _, _, after in system.successors(c):
...         if after.search_key() not in graph.moves:
...             explore(after)
...     edges = tuple((arc, after.search_key()) for _, arc, after in system.successors(c))
...     graph.moves[c.search_key()] = (system.is_terminal(c), edges)
>>> explore(system.initial(2))
>>> compiled = graph.compile()
>>> futures = Futures(graph, frozenset({(0, 2), (2, 1)}))   # w2 is the root, w1 its dependent
>>> futures.get(system.initial(2).search_key())
2
"""

from __future__ import annotations

import math
from collections.abc import Hashable

import numpy as np

from ..trees import Arc

Edges = tuple[tuple[Arc | None, Hashable], ...]  # (arc built or None, key reached) per legal move
Moves = dict[Hashable, tuple[bool, Edges]]   # key → (is final, its moves)

DEAD = -(1 << 40)  # −∞ in the integer arrays: a few gold arcs added to it stay far below zero


class Compiled:
    """The graph as arrays: ``index`` numbers the keys; ``levels`` holds, for each height from 1
    up, the moves out of keys of that height sorted by key: (the keys, where each key's moves
    start, the moves' arc codes, the keys they reach)."""

    def __init__(self, moves: Moves, n: int) -> None:
        self.n = n
        keys = list(moves)
        self.index = {key: i for i, key in enumerate(keys)}
        self.final = np.array([moves[key][0] for key in keys], dtype=bool)
        height = [0] * len(keys)
        source: list[int] = []
        target: list[int] = []
        codes: list[int] = []
        for i, key in enumerate(keys):
            for arc, reached in moves[key][1]:
                j = self.index[reached]
                assert j < i, "a key is written after every key it reaches"
                height[i] = max(height[i], height[j] + 1)
                source.append(i)
                target.append(j)
                codes.append(self.code(arc))
        src, dst, code = (np.array(xs, dtype=np.int64) for xs in (source, target, codes))
        heights = np.array(height, dtype=np.int64)
        order = np.lexsort((src, heights[src]))          # by the height of the key, then the key
        src, dst, code, by_height = src[order], dst[order], code[order], heights[src[order]]
        self.levels = []
        for level_start, level_end in runs(by_height):
            keys_here, starts = np.unique(src[level_start:level_end], return_index=True)
            self.levels.append((keys_here, starts, code[level_start:level_end], dst[level_start:level_end]))

    def code(self, arc: Arc | None) -> int:
        """An arc (h, d) as h·(n+1) + d; no arc as (n+1)², whose gain is always 0."""
        return (self.n + 1) ** 2 if arc is None else arc[0] * (self.n + 1) + arc[1]

    def futures(self, gold_arcs: frozenset[tuple[int, int]]) -> np.ndarray:
        """The best future of every key for this gold tree (:data:`DEAD` for −∞)."""
        gain = np.zeros((self.n + 1) ** 2 + 1, dtype=np.int64)
        gain[[self.code(arc) for arc in gold_arcs]] = 1
        values = np.where(self.final, 0, DEAD).astype(np.int64)
        for keys_here, starts, codes, reached in self.levels:
            values[keys_here] = np.maximum.reduceat(gain[codes] + values[reached], starts)
        return values


def runs(sorted_values: np.ndarray) -> list[tuple[int, int]]:
    """(start, end) of each run of equal values in a sorted array."""
    bounds = np.flatnonzero(np.diff(sorted_values)) + 1
    edges = [0, *bounds.tolist(), len(sorted_values)]
    return [(a, b) for a, b in zip(edges, edges[1:]) if b > a]


class KeyGraph:
    """The graph of keys for sentences of ``n`` tokens, and its compiled form once complete."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.moves: Moves = {}
        self.compiled: Compiled | None = None
        self._keys: dict[Hashable, Hashable] = {}

    def one(self, key: Hashable) -> Hashable:
        """The graph's own object for ``key`` (equal keys made apart are kept once)."""
        return self._keys.setdefault(key, key)

    def compile(self) -> Compiled:
        """Compile what the graph holds now (a copy: other threads may be adding keys)."""
        self.compiled = Compiled(self.moves.copy(), self.n)
        return self.compiled


class Futures:
    """One gold tree's best futures: read from the compiled graph where it has the key, else
    from ``found``, the table the search fills as it explores (with the graph, if any)."""

    def __init__(self, graph: KeyGraph | None, gold_arcs: frozenset[tuple[int, int]]) -> None:
        self.graph = graph  # None: the search explores without keeping a graph
        compiled = None if graph is None else graph.compiled
        self.index = {} if compiled is None else compiled.index
        self.values = np.zeros(0, np.int64) if compiled is None else compiled.futures(gold_arcs)
        self.found: dict[Hashable, float] = {}

    def get(self, key: Hashable) -> float | None:
        value = self.found.get(key)
        if value is None:
            i = self.index.get(key)
            if i is not None:
                v = int(self.values[i])
                return -math.inf if v < DEAD // 2 else v
        return value
