"""Static oracles: one gold transition per configuration on the way to the gold tree.

A static oracle is *incomplete*: it is right only on the gold path (from the initial
configuration, following its own advice).  Elsewhere it still answers, with the first rule
whose move is legal, but the answer may not be optimal; use a dynamic oracle there.
Its ``costs`` are 0 for its move and 1 for every other legal move: it does not measure how
much a move loses, only whether it is the one it would take.

Rules, tried in order (s0 = stack top, s1 below it, b = buffer front):

* arc-standard:  LA if s1's gold head is s0;  RA if s0's is s1 and s0 has all its
  dependents;  else SH.  Swap variant (Nivre 2009): SW if s0 precedes s1 in projective order,
  checked after LA and RA.
* arc-eager (Goldberg & Nivre eq. 1):  LA if s0's gold head is b;  RA if b's is s0;  RE if
  s0 has a head and some token left of s0 is linked to b;  else SH.  The corrected system
  reduces once the buffer is empty.
* arc-hybrid:  LA if s0's gold head is b and s0 is complete;  RA if it is s1 and s0 is
  complete;  else SH.  Swap variant: SW first, if b precedes s0 in projective order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ..configuration import Configuration
from ..errors import NotBuildable
from ..sentence import Sentence
from ..transition import LA, RA, RE, SH, SW, Transition
from .base import ALL, Costs, Explanations, Oracle

Rules = Callable[[Configuration, Sentence, bool], Iterator[Transition]]


def complete(c: Configuration, gold: Sentence, token: int) -> bool:
    """Has ``token`` received all of its gold dependents?"""
    return all(c.head_of(d) == token for d in gold.gold_children[token])


def standard_rules(c: Configuration, gold: Sentence, root_last: bool) -> Iterator[Transition]:
    s0, s1 = c.s0, c.s1
    if s0 is not None and s1 is not None:
        if s1 != 0 and gold.head(s1) == s0 and complete(c, gold, s1):
            yield LA
        if s0 != 0 and gold.head(s0) == s1 and complete(c, gold, s0):
            yield RA
    yield SH


def standard_swap_rules(c: Configuration, gold: Sentence, root_last: bool) -> Iterator[Transition]:
    *arcs, _ = standard_rules(c, gold, root_last)
    yield from arcs
    s0, s1 = c.s0, c.s1
    if s0 is not None and s1 is not None and s1 != 0:
        order = gold.projective_order(root_last)
        if order[s0] < order[s1]:
            yield SW
    yield SH


def eager_rules(c: Configuration, gold: Sentence, root_last: bool) -> Iterator[Transition]:
    i, j = c.s0, c.b0
    if j is None:
        yield RE  # only the corrected system gets here: reduce down to ROOT
        return
    if i is not None:
        if i != 0 and gold.head(i) == j:
            yield LA
        if gold.head(j) == i:
            yield RA
        if c.has_head(i) and any(gold.head(j) == v or (v and gold.head(v) == j) for v in range(i)):
            yield RE
    yield SH


def hybrid_rules(c: Configuration, gold: Sentence, root_last: bool) -> Iterator[Transition]:
    s0, s1, b = c.s0, c.s1, c.b0
    if s0 is not None and s0 != 0 and complete(c, gold, s0):
        if b is not None and gold.head(s0) == b:
            yield LA
        if s1 is not None and gold.head(s0) == s1:
            yield RA
    yield SH


def hybrid_swap_rules(c: Configuration, gold: Sentence, root_last: bool) -> Iterator[Transition]:
    s0, b = c.s0, c.b0
    if s0 is not None and b is not None and 0 not in (s0, b):
        order = gold.projective_order(root_last)
        if order[s0] > order[b]:
            yield SW
    yield from hybrid_rules(c, gold, root_last)


RULES: dict[str, Rules] = {
    "arc-standard": standard_rules,
    "arc-standard-swap": standard_swap_rules,
    "arc-eager": eager_rules,
    "arc-eager-corrected": eager_rules,
    "arc-hybrid": hybrid_rules,
    "arc-hybrid-swap": hybrid_swap_rules,
}


class StaticOracle(Oracle):
    name = "static"
    title = "static (one gold sequence)"
    systems = ALL
    exact_for = "none"
    exactness = "correct on the gold path only; needs a tree the system can build"
    speed = "linear"
    gives_costs = False

    def next(self, c: Configuration, gold: Sentence, costs: Costs | None = None) -> Transition:
        """The move the rules name (``costs`` are not needed)."""
        return self.labelled(c, gold, self.move(c, gold))

    def move(self, c: Configuration, gold: Sentence) -> Transition:
        """The first rule whose move is legal (unlabelled)."""
        reason = self.system.why_unbuildable(gold)
        if reason is not None:
            raise NotBuildable(f"no static oracle for this sentence: {reason}")
        legal = self.system.legal(c)
        rules = RULES[self.system.name](c, gold, self.system.root_last)
        move = next((t for t in rules if t in legal), None)
        if move is None:
            if not legal:
                raise NotBuildable("no legal move: the parse is finished or stuck")
            move = legal[0]
        return move

    def explanations(self, c: Configuration, gold: Sentence, costs: Costs) -> Explanations:
        """Nothing: a static oracle names a move; its 0/1 marks measure no loss to explain."""
        return {}

    def move_costs(self, c: Configuration, gold: Sentence) -> Costs:
        legal = self.system.legal(c)
        if not legal:
            return {}  # as every oracle answers at the end of a parse
        move = self.move(c, gold)
        return {t: 0 if t == move else 1 for t in legal}
