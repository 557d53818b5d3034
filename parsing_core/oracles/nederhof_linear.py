"""Nederhof's linear-time scores for arc-eager with reduce_correct (Nederhof 2021, §5).

Exact when the gold tree is projective; applied to a non-projective tree it approximates
(it ignores how crossing arcs get in each other's way).  For the configuration after a
candidate move, with stack a_1 … a_k and remaining input b_1 … b_m, σ starts as the count of

* gold arcs a_{p−1} → a_p between neighbours on the stack (the reduces will build them),
* gold arcs from a stack token to an input token, and between input tokens,
* gold arcs from an input token to an L-labelled stack token (left_arc can still build them),

less a few arcs the candidate rules out (spec §4.7):

* **SH**: the shifted token a_k is blocked from becoming a right child, so a gold arc
  a_{k−1} → a_k is lost, and so is a_k → b_p when b_p's subtree reaches the end of the
  input (a_k would have to be a left child covering it); with m = 0, σ = −∞.
* **RE** under shift-before-reduce: b_1 may not become a left child unless it takes a stack
  token as left child first; when no such token is available its incoming gold arc is lost.
* **SH** under (non-strict) reduce-before-shift: a_{k−1} must justify not having been
  reduced before the shift, by becoming a left child or linking to the input; the cheapest
  of Nederhof's options (A), (B1/B2), (C1/C2) is subtracted, with the spec's correction to (A).

Everything per gold tree (heads, rightmost descendants, …) is computed once and cached, so a
move costs O(k + length of one path in the tree).

>>> import parsing_core as pc
>>> s = pc.Sentence.from_heads("found best example ever".split(), [0, 3, 1, 2])
>>> system = pc.get_system("arc-eager-corrected")
>>> c = pc.Configuration((0, 1), (2, 3, 4), (0, None, None, None), (None,) * 4)
>>> {str(t): v for t, v in NederhofLinearOracle(system).scores(c, s).items()}
{'SH': 3.0, 'RA': 3.0, 'RE': 2.0}
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Sequence

from ..configuration import Configuration
from ..sentence import Sentence
from ..systems import TransitionSystem
from ..transition import LA, RA, RE, SH, Transition
from .base import Costs, GoldCache, check_same_sentence, costs_after
from .policy import PolicyOracle, Scores

NONE = -1


class GoldFacts:
    """What §5 asks of the gold tree, computed once per tree (token 0 = ROOT, n = last)."""

    def __init__(self, gold_heads: tuple[int, ...]) -> None:
        self.n = n = len(gold_heads)
        self.head = (NONE, *gold_heads)
        kids: list[list[int]] = [[] for _ in range(n + 1)]
        for d, h in enumerate(gold_heads, 1):
            kids[h].append(d)
        self.children = tuple(tuple(k) for k in kids)
        self.last_child = tuple(k[-1] if k else NONE for k in kids)
        rightmost = list(range(n + 1))           # largest token among the descendants
        for t in reversed(top_down(kids)):
            for d in kids[t]:
                rightmost[t] = max(rightmost[t], rightmost[d])
        self.rightmost = tuple(rightmost)
        # the child of t whose subtree holds token n (the end of every remaining input)
        to_end = [NONE] * (n + 1)
        for a, below in zip(self.ancestors(n), (n, *self.ancestors(n)), strict=False):
            to_end[a] = below
        self.to_end = tuple(to_end)
        # inner[x]: gold arcs with head and dependent both in x..n
        inner = [0] * (n + 2)
        for x in range(n, 0, -1):
            inner[x] = inner[x + 1] + (self.head[x] > x) + sum(1 for d in kids[x] if d > x)
        self.inner = tuple(inner)

    def ancestors(self, t: int) -> list[int]:
        out = []
        while t != 0:
            t = self.head[t]
            out.append(t)
        return out


def top_down(kids: Sequence[Sequence[int]]) -> list[int]:
    """Tokens in breadth-first order from ROOT: every head before its dependents."""
    order = [0]
    for t in order:
        order.extend(kids[t])
    return order


def linear_sigma(f: GoldFacts, stack: Sequence[int], labels: Sequence[str], b1: int, move: Transition,
                 policy: str) -> float:
    """σ after ``move``: stack a_1..a_k with labels, remaining input b1..n (b1 = n + 1: empty)."""
    head, k = f.head, len(stack)
    if move == SH and b1 > f.n:
        return -math.inf                          # no parent left for the shifted token
    count = f.inner[b1]
    for p, a in enumerate(stack):
        kids = f.children[a]
        count += len(kids) - bisect_left(kids, b1)                 # a → input token
        count += p > 0 and head[a] == stack[p - 1]                 # a_{p-1} → a_p
        count += labels[p] == "L" and head[a] >= b1                # input token → L token
    if move == SH:
        top = stack[-1]
        count -= f.to_end[top] > top              # top → b_p whose subtree reaches b_m
        count -= head[top] == stack[-2]           # top → right child of a_{k−1}: RA was right
        if policy == "rbs" and k >= 3:
            count -= rbs_shift_extra(f, stack, labels, b1)
    elif move == RE and policy == "sbr" and b1 <= f.n:
        count -= sbr_reduce_discount(f, stack, labels, b1)
    return float(count)


def sbr_reduce_discount(f: GoldFacts, stack: Sequence[int], labels: Sequence[str], b1: int) -> int:
    """1 if b_1 must not become a left child (it should have been shifted) yet its gold head is
    in the input; b_1 may still justify the reduce by taking a stack token as left child."""
    head = f.head
    r = 0                                          # a_r: the highest token linked to b_2..b_m
    for idx in range(len(stack) - 1, 0, -1):
        a = stack[idx]
        if (labels[idx] == "L" and head[a] > b1) or f.last_child[a] > b1:
            r = idx
            break
    spare = any(labels[s] == "L" and head[stack[s]] != stack[s - 1] for s in range(r + 1, len(stack)))
    return int(not spare and head[b1] > b1)


def rbs_shift_extra(f: GoldFacts, stack: Sequence[int], labels: Sequence[str], b1: int) -> int:
    """Fewest gold arcs lost so that a_{k−1} (the old top) justifies not being reduced before SH."""
    head, n = f.head, f.n
    top, old, below = stack[-1], stack[-2], stack[-3]
    low = {a: label for a, label in zip(stack[:-2], labels[:-2], strict=True)}   # a_1..a_{k−2}

    def lost_left(u: int) -> int:                  # gold arcs u → L-labelled token of LOW
        return sum(1 for s in f.children[u] if low.get(s) == "L")

    if f.last_child[old] >= b1:                    # it already has a gold child in the input
        return 0
    options = []
    if labels[-2] == "L":                          # let a_{k−1} become a left child
        options.append(int(head[old] == below))
    parent = head[top]
    last = f.rightmost[top] if f.rightmost[top] > top else NONE   # rightmost descendant in input
    # (A): assume a_{k−1} → b_p → a_k; lose b_p's incoming and a_k's incoming arcs
    if last != NONE or parent > b1:
        bp = b1 if last == NONE else (last if last < n else (n - 1 if n - 1 >= b1 else NONE))
        if bp != NONE:
            options.append(int(head[bp] >= b1 or head[bp] in low or head[bp] == top) + (parent >= b1))
    # (B1)/(B2): assume a_{k−1} → b_q
    if parent >= b1:
        bq = parent
    else:
        bq = b1 if last == NONE else min(last + 1, n)
    options.append(int(head[bq] in low or head[bq] >= b1) + lost_left(bq))
    # (C1)/(C2): assume a_{k−1} → b_p, the first ancestor of b_q without a parent in the input
    path = [bq]
    while head[path[-1]] >= b1:
        path.append(head[path[-1]])
    options.append(int(head[path[-1]] in low) + sum(lost_left(u) for u in path))
    return min(options)


class NederhofLinearOracle(PolicyOracle):
    """Nederhof's §5 scores: linear time, exact for projective gold trees.

    ``policy``: "sbr" (shift-before-reduce, default), "rbs" (non-strict reduce-before-shift)
    or "none", as for :class:`~parsing_core.oracles.nederhof.NederhofOracle`: it shapes
    :meth:`scores` and :meth:`canonical`, not :meth:`costs`.  The true cost of t needs
    best(t(c)), which is max ρ over the moves of t(c) (max ρ = best on projective trees).
    """

    name = "nederhof-linear"
    title = "Nederhof (linear)"
    systems = ("arc-eager-corrected",)
    exact_for = "projective"
    exactness = "exact for projective gold trees, approximate otherwise (Nederhof 2021 §5)"
    speed = "linear"

    def __init__(self, system: TransitionSystem, policy: str = "sbr") -> None:
        super().__init__(system, policy)
        self._gold = GoldCache(GoldFacts)

    def move_costs(self, c: Configuration, gold: Sentence) -> Costs:
        return costs_after(self.system, c, lambda after: [self.best(a, gold) for a in after])

    def best(self, c: Configuration, gold: Sentence) -> float:
        """The most gold arcs reachable from ``c`` (exact for projective gold trees): the arcs of
        T plus §5's count for ``c`` itself, with none of a candidate's discounts (as the cubic
        oracle parses c's own, unmarked string)."""
        if self.system.is_terminal(c):
            return float(len(c.unlabelled_arcs & gold.gold_arcs))
        f = self._gold(gold.gold_heads)
        labels = stack_labels(c)
        b1 = c.buffer[0] if c.buffer else f.n + 1
        return built_arcs(c, gold) + linear_sigma(f, c.stack, labels, b1, RA, "none")  # RA: no discount

    def scores(self, c: Configuration, gold: Sentence) -> Scores:
        """ρ for each legal move, as :meth:`NederhofOracle.scores` (exact on projective trees)."""
        check_same_sentence(c, gold)
        built = built_arcs(c, gold)
        return {t: built + v for t, v in self._future_scores(c, gold).items()}

    def _future_scores(self, c: Configuration, gold: Sentence) -> Scores:
        """ρ − |T ∩ G|: the candidate's own arc plus σ after it."""
        f = self._gold(gold.gold_heads)
        stack, labels = c.stack, stack_labels(c)
        b1 = c.buffer[0] if c.buffer else f.n + 1
        out: Scores = {}
        for t in self.system.legal(c):
            if t == SH or t == RA:
                after, after_labels, b, gain = (*stack, b1), [*labels, "L" if t == SH else "R"], b1 + 1, 0
            else:
                below = b1 if t == LA else stack[-2]
                after, after_labels, b, gain = stack[:-1], labels[:-1], b1, f.head[stack[-1]] == below
            out[t] = gain + linear_sigma(f, after, after_labels, b, t, self.policy)
        return out



def stack_labels(c: Configuration) -> list[str]:
    """Table 6's label of each stack token: R if it has a head (or is ROOT), L if not."""
    return ["R" if t == 0 or c.heads[t - 1] is not None else "L" for t in c.stack]


def built_arcs(c: Configuration, gold: Sentence) -> int:
    """|T ∩ G|: gold arcs built, less the pending ones whose dependent is still on the stack."""
    gold_heads, on_stack = gold.gold_heads, set(c.stack)
    return sum(1 for d, h in enumerate(c.heads, 1) if h == gold_heads[d - 1] and d not in on_stack)
