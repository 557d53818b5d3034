"""Small pure functions on head lists.

A *head list* ``heads`` describes a tree over tokens 1..n: ``heads[d - 1]`` is the head of
token ``d`` and 0 stands for ROOT, the imaginary token in front of the sentence.  Arcs are
pairs ``(head, dependent)``.

>>> heads = (2, 0, 2, 5, 2, 2)            # ROOT He sent her a letter .
>>> sorted(children(heads, 2))
[1, 3, 5, 6]
>>> is_projective(heads)
True
>>> is_projective((0, 3, 1, 2))          # found best example ever
False
>>> projective_order((0, 3, 1, 2))       # rank of tokens 0..n in the in-order traversal
(0, 1, 2, 4, 3)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

Heads = Sequence[int]
Arc = tuple[int, int]
"""An arc ``(head, dependent)``: the one arc type of the library (``parsing_core.Arc``)."""


def children(heads: Heads, h: int) -> list[int]:
    """The dependents of ``h``, in sentence order."""
    return [d for d, hd in enumerate(heads, start=1) if hd == h]


def arcs(heads: Heads) -> set[tuple[int, int]]:
    """The tree as a set of (head, dependent) arcs."""
    return {(h, d) for d, h in enumerate(heads, start=1)}


def find_cycle(heads: Heads) -> list[int] | None:
    """A list of tokens forming a cycle, or None when every token reaches ROOT."""
    n = len(heads)
    state = [0] * (n + 1)  # 0 unseen, 1 on current path, 2 reaches ROOT
    state[0] = 2
    for start in range(1, n + 1):
        path: list[int] = []
        node = start
        while state[node] == 0:
            state[node] = 1
            path.append(node)
            node = heads[node - 1]
        if state[node] == 1:
            return path[path.index(node):]
        for p in path:
            state[p] = 2
    return None


def position(token: int, n: int, root_last: bool = False) -> int:
    """Where a token sits in the sentence line; ROOT is at 0, or at n + 1 when drawn last."""
    return n + 1 if (token == 0 and root_last) else token


def crossing_pairs(heads: Heads, root_last: bool = False) -> list[tuple[Arc, Arc]]:
    """The pairs of arcs (head, dependent) that cross when drawn above the sentence, each pair
    in dependent order.

    >>> crossing_pairs([0, 3, 1, 2])  # found best example ever: found → example, best → ever
    [((1, 3), (2, 4))]
    """
    n = len(heads)
    spans = [
        (min(position(h, n, root_last), d), max(position(h, n, root_last), d), (h, d))
        for d, h in enumerate(heads, start=1)
    ]
    pairs = []
    for i, (l1, r1, a1) in enumerate(spans):
        for l2, r2, a2 in spans[i + 1:]:
            if l1 < l2 < r1 < r2 or l2 < l1 < r2 < r1:
                pairs.append((a1, a2))
    return pairs


def crossing_arcs(heads: Heads, root_last: bool = False) -> set[tuple[int, int]]:
    """The arcs (head, dependent) that cross another arc when drawn above the sentence."""
    return {arc for pair in crossing_pairs(heads, root_last) for arc in pair}


def is_projective(heads: Heads, root_last: bool = False) -> bool:
    """True when no two arcs cross (arcs from ROOT included); remembered per tree."""
    return _is_projective(tuple(heads), root_last)


@lru_cache(maxsize=4096)
def _is_projective(heads: tuple[int, ...], root_last: bool) -> bool:
    return not crossing_arcs(heads, root_last)


def projective_order(heads: Heads, root_last: bool = False) -> tuple[int, ...]:
    """Rank of each token 0..n in an in-order traversal of the tree.

    For each head: its left dependents' subtrees, the head, its right dependents' subtrees,
    each side in sentence order.  Swap systems reorder the words into this order, which
    makes every tree projective.
    """
    n = len(heads)
    kids: list[list[int]] = [[] for _ in range(n + 1)]
    for d, h in enumerate(heads, start=1):
        kids[h].append(d)
    order: list[int] = []
    todo: list[tuple[int, bool]] = [(0, False)]
    while todo:  # iterative in-order walk: (token, expanded?)
        tok, expanded = todo.pop()
        if expanded:
            order.append(tok)
            continue
        pos = position(tok, n, root_last)
        left = [k for k in kids[tok] if k < pos]
        right = [k for k in kids[tok] if k > pos]
        todo.extend((k, False) for k in reversed(right))
        todo.append((tok, True))
        todo.extend((k, False) for k in reversed(left))
    rank = [0] * (n + 1)
    for r, tok in enumerate(order):
        rank[tok] = r
    return tuple(rank)
