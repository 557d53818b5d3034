"""The thesis's linear-time approximate dynamic oracle for arc-standard (§5.2, Code A.6).

Arc-standard is not arc-decomposable, so counting lost arcs is not exact (the exact oracle is
:mod:`.arc_standard_exact`).  The thesis approximates each move's cost with a few rules.  Its
§5.2 calls the stack top "s1" and the buffer front "b1"; here, as everywhere in this library,
**s0 is the top**, s1 the token below it and b the buffer front.

LEFT-ARC / RIGHT-ARC pop their dependent (s1 / s0): every gold arc between the dependent and a
token still in σ or β is lost, except the arc being built.  If the previous move was a SHIFT,
its cost is subtracted: a wrong SHIFT's damage only shows at the next arc, which should not be
blamed for it (the *previous-SHIFT discount*).

SHIFT (never discounted) looks at s0 and b:

====  ===============================================================  ===========================
case  when                                                             cost
====  ===============================================================  ===========================
1     s0 still has a gold dependent in the buffer                      0
2.1   s0 is a right dependent; going up from b, the first gold         0: the token below it is an
      ancestor outside the buffer has been reduced already             *orphan* s0 may adopt
2.2   … that ancestor is on the stack (and is not ROOT)                1: its arc down to b's side
2.3   … there is none: b's lineage reaches ROOT inside the buffer      min(gold arcs between s0 and
                                                                       σ, between b and σβ)
3     s0 is a left dependent                                           its gold dependents on σ
====  ===============================================================  ===========================

ROOT on top counts as a right dependent, as in the thesis's code (its gold head is −1); the
rules then give 0.  The thesis's parser starts at [ROOT, w1, w2] with no history (its
constructor shifts silently), so the SHIFTs that open a parse are never discounted.

The thesis's costs can be negative (after a discount) or all positive; :meth:`raw_costs` gives
them as the thesis computes them and :meth:`costs` shifts them so that the best move costs 0.
The previous move is read off the configuration: in arc-standard the top has no dependents
exactly when the last move was a SHIFT.  The gold tree's head list and dependents are cached
by :class:`Sentence`; each configuration costs O(|σ| + depth of b).

>>> import parsing_core as pc
>>> s = pc.Sentence.from_heads(["w1", "w2", "w3"], [2, 0, 2])      # thesis Fig. 5.2a
>>> system = pc.get_system("arc-standard")
>>> c = pc.replay(system, s, pc.parse_sequence("SH SH")).final
>>> oracle = ArcStandardApproxOracle(system)
>>> {str(t): (oracle.cases(c, s)[t], v) for t, v in oracle.costs(c, s).items()}
{'SH': ('1', 0), 'LA': ('arc', 0), 'RA': ('arc', 3)}
"""

from __future__ import annotations

from dataclasses import dataclass

from ..configuration import Configuration
from ..sentence import Sentence
from ..transition import LA, RA, SH, Transition
from ..trees import Arc
from .base import Costs, Explanation, Explanations, Oracle

NOTHING: frozenset[Arc] = frozenset()

CASES = {
    "1": "s0 still has a gold dependent in the buffer: shifting loses nothing",
    "2.1": "b's lineage holds an orphan that s0 may adopt: shifting loses nothing",
    "2.2": "an ancestor of b is on the stack: at least the arc down to b's side is lost",
    "2.3": "b is ROOT's side: lose the fewer of s0's arcs to σ and b's arcs to σβ",
    "3": "s0 is a left dependent: its gold dependents still on the stack are lost",
    "arc": "the dependent is popped: its gold arcs to σ and β are lost",
    "arc-discount": "the dependent is popped; the previous SHIFT's cost is subtracted",
}


@dataclass(frozen=True)
class RuleVerdict:
    """One rule's answer for one move: which case fired, the arcs it counts, the thesis's cost."""

    case: str
    arcs: frozenset[Arc]
    cost: int


def in_play(c: Configuration, token: int) -> bool:
    """Is ``token`` still in σ or β (not yet attached)?"""
    return token == 0 or c.heads[token - 1] is None


def links(c: Configuration, gold: Sentence, x: int, within: set[int] | None = None) -> set[Arc]:
    """Gold arcs between x and tokens still in play (or in ``within``): its head and dependents."""

    def keep(t: int) -> bool:
        return t in within if within is not None else in_play(c, t)

    out = {(x, d) for d in gold.gold_children[x] if keep(d)}
    if x != 0 and keep(gold.head(x)):
        out.add((gold.head(x), x))
    return out


def arc_verdict(c: Configuration, gold: Sentence, head: int, dep: int, discount: int) -> RuleVerdict:
    """The dependent leaves the stack: its remaining gold links go, bar the arc being built."""
    lost = frozenset(links(c, gold, dep) - {(head, dep)})
    return RuleVerdict("arc-discount" if discount else "arc", lost, len(lost) - discount)


def shift_verdict(c: Configuration, gold: Sentence) -> RuleVerdict:
    """Cases 1, 2.1–2.3 and 3 of thesis §5.2.2 (s0 = top, b = buffer front)."""
    s0, b = c.stack[-1], c.buffer[0]
    if any(d >= b for d in gold.gold_children[s0]):          # the buffer is tokens b..n
        return RuleVerdict("1", NOTHING, 0)
    stack = set(c.stack)
    if s0 != 0 and gold.head(s0) > s0:                        # s0 is a left dependent
        lost = frozenset((s0, d) for d in gold.gold_children[s0] if d in stack)
        return RuleVerdict("3", lost, len(lost))
    child, father = b, gold.head(b)
    while father != 0:                                        # walk up b's lineage
        if father in stack:
            return RuleVerdict("2.2", frozenset({(father, child)}), 1)
        if father < b:                                        # neither on the stack nor in the buffer
            return RuleVerdict("2.1", NOTHING, 0)
        child, father = father, gold.head(father)
    mine, theirs = links(c, gold, s0, within=stack), links(c, gold, b)
    lost = frozenset(mine if len(mine) <= len(theirs) else theirs)
    return RuleVerdict("2.3", lost, len(lost))


class ArcStandardApproxOracle(Oracle):
    name = "thesis-approx"
    title = "approximate (thesis §5.2)"
    systems = ("arc-standard",)
    exact_for = "none"
    exactness = "approximate (thesis §5.2 linear-time rules)"
    speed = "linear"

    def verdicts(self, c: Configuration, gold: Sentence) -> dict[Transition, RuleVerdict]:
        """The rule that fires for each legal move, with what it counts."""
        legal = self.system.legal(c)
        out: dict[Transition, RuleVerdict] = {}
        if SH in legal:
            out[SH] = shift_verdict(c, gold)
        if len(legal) > (SH in legal):
            discount = self.previous_shift_discount(c, gold)
            s1, s0 = c.stack[-2], c.stack[-1]
            if LA in legal:
                out[LA] = arc_verdict(c, gold, s0, s1, discount)
            if RA in legal:
                out[RA] = arc_verdict(c, gold, s1, s0, discount)
        return {t: out[t] for t in legal}

    def previous_shift_discount(self, c: Configuration, gold: Sentence) -> int:
        """The approximate cost of the SHIFT that led to ``c``; 0 after an arc or a start-up SHIFT."""
        if len(c.stack) < 2 or c.stack[-1] in c.heads:        # the top has a dependent: an arc came last
            return 0
        before = Configuration(c.stack[:-1], (c.stack[-1], *c.buffer), c.heads, c.labels)
        if len(before.stack) <= 2 and not any(h is not None for h in c.heads):
            return 0                                            # the thesis's constructor's shifts
        return shift_verdict(before, gold).cost

    def raw_costs(self, c: Configuration, gold: Sentence) -> Costs:
        """The thesis's numbers (Code A.6): possibly negative, minimum not necessarily 0."""
        return {t: v.cost for t, v in self.verdicts(c, gold).items()}

    def move_costs(self, c: Configuration, gold: Sentence) -> Costs:
        raw = self.raw_costs(c, gold)
        least = min(raw.values(), default=0)
        return {t: v - least for t, v in raw.items()}

    def cases(self, c: Configuration, gold: Sentence) -> dict[Transition, str]:
        """Which rule fired for each legal move: "1", "2.1", "2.2", "2.3", "3", "arc" or "arc-discount".

        See :data:`CASES` for a sentence on each.
        """
        return {t: v.case for t, v in self.verdicts(c, gold).items()}

    def explanations(self, c: Configuration, gold: Sentence, costs: Costs) -> Explanations:
        """The gold arcs each rule counts as lost (before the discount and the shift to 0)."""
        return {t: Explanation(v.arcs) for t, v in self.verdicts(c, gold).items()}

