"""The static-dynamic oracle for arc-hybrid with SWAP (de Lhoneux, Stymne & Nivre 2017).

A dynamic oracle for a reordering system is an open problem: positions change as words are
swapped.  The static-dynamic oracle mixes the two kinds:

* **swaps are static**: when s0 comes after b in the gold tree's projective order, SWAP costs
  0 and every other move costs 1 (the swap is forced); otherwise SWAP costs 1;
* **everything else is dynamic**, with Goldberg & Nivre's arc-hybrid counts over the gold
  arcs still *reachable*: ``rdeps[x]``, the gold dependents x can still take;
* SHIFT is free when some later buffer token precedes b in projective order (b will have
  to be swapped back anyway).

``rdeps`` is read off the configuration: a gold arc h → d is still reachable when neither
token has been attached and popped, d has no head, and, if both are on the stack, h lies
directly below d (a stack token can only take the token right above it as a dependent).

Exact costs in a swap system are a poor training signal (free useless swaps, spec P17);
this oracle is approximate by design, and following its zero-cost moves always builds the
gold tree.
"""

from __future__ import annotations

from ..configuration import Configuration
from ..sentence import Sentence
from ..transition import LA, SH, SW, Transition
from .base import Costs, Oracle

Order = tuple[int, ...]  # rank of each token in the gold tree's projective order


def will_swap_back(c: Configuration, order: Order, token: int) -> bool:
    """Is a later word still in the buffer that comes before ``token`` in projective order?"""
    return any(x > token and order[x] < order[token] for x in c.buffer if x != 0)


def reachable(c: Configuration, order: Order, h: int, d: int) -> bool:
    """Can the gold arc h → d still be built (in the oracle's approximate sense)?

    Two stack tokens can only be linked as lower head → upper dependent, when adjacent; a
    pair that is not is lost, unless the upper one must still be swapped back anyway.
    """
    if c.has_head(d) or c.has_head(h):
        return False
    where = {t: i for i, t in enumerate(c.stack)}
    if h in where and d in where:
        upper = h if where[h] > where[d] else d
        return where[d] == where[h] + 1 or will_swap_back(c, order, upper)
    return True


def rdeps(c: Configuration, gold: Sentence, order: Order, x: int) -> list[int]:
    """The gold dependents of x whose arcs are still reachable."""
    return [d for d in gold.gold_children[x] if reachable(c, order, x, d)]


def head_still_pending(c: Configuration, gold: Sentence, order: Order, x: int, unless: int | None) -> int:
    """1 if x's gold head (other than ``unless``) could still take x as a dependent."""
    h = gold.head(x)
    return int(h != unless and reachable(c, order, h, x))


def shift_cost(c: Configuration, gold: Sentence, order: Order) -> int:
    b = c.buffer[0]
    if will_swap_back(c, order, b):
        return 0  # b will be swapped back behind a later word anyway
    on_stack = set(c.stack)
    lost_deps = sum(1 for d in rdeps(c, gold, order, b) if d in on_stack)
    h = gold.head(b)
    lost_head = bool(c.stack) and h in c.stack[:-1] and reachable(c, order, h, b)
    return lost_deps + int(lost_head)


class SwapStaticDynamicOracle(Oracle):
    name = "static-dynamic"
    title = "static-dynamic (de Lhoneux et al. 2017)"
    systems = ("arc-hybrid-swap",)
    exact_for = "none"
    exactness = "approximate by design: swaps follow the static oracle, other moves are costed dynamically"
    speed = "linear"

    def move_costs(self, c: Configuration, gold: Sentence) -> Costs:
        legal = self.system.legal(c)
        order = gold.projective_order(self.system.root_last)
        s0, b = c.s0, c.b0
        if SW in legal and s0 is not None and b is not None and order[s0] > order[b]:
            return {t: 0 if t == SW else 1 for t in legal}
        costs: dict[Transition, float] = {}
        for t in legal:
            if t == SW:
                costs[t] = 1
            elif t == SH:
                costs[t] = shift_cost(c, gold, order)
            else:
                assert s0 is not None
                keeps = b if t == LA else c.s1
                costs[t] = len(rdeps(c, gold, order, s0)) + head_still_pending(c, gold, order, s0, keeps)
        return costs
