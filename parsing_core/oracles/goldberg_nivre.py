"""Goldberg & Nivre's dynamic oracles for arc-eager (2012) and arc-hybrid (2013).

Both systems are *arc-decomposable*: for a projective gold tree, a move's cost is simply the
number of gold arcs that were still reachable and that the move makes unreachable.  These
oracles list those arcs (``explain``) and count them (``costs``), in time linear in the
sentence.  For non-projective gold trees the count is only an approximation (arcs that cross
are counted as if they could all be built together): use the search oracle, or Nederhof's
exact oracle on the corrected arc-eager system.

Notation: stack σ|s (s = top, σ below it), buffer b|β (b = front, β after it), G = gold arcs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ..configuration import Configuration
from ..sentence import Sentence
from ..transition import Transition
from ..trees import Arc
from .base import Costs, Explanation, Explanations, Oracle

Lost = frozenset[Arc]


def gold_links(gold: Sentence, x: int, heads_from: Iterable[int], deps_from: Iterable[int]) -> Lost:
    """Gold arcs h → x with h in ``heads_from`` and x → d with d in ``deps_from``."""
    hs, ds = set(heads_from), set(deps_from)
    lost = {(gold.head(x), x)} if x != 0 and gold.head(x) in hs else set()
    lost.update((x, d) for d in gold.gold_children[x] if d in ds)
    return frozenset(lost)


def headless(c: Configuration, tokens: Iterable[int]) -> list[int]:
    return [t for t in tokens if t != 0 and not c.has_head(t)]


# -- arc-eager (spec §4.2; terminal = empty buffer) -----------------------------------------
def eager_left_arc(c: Configuration, gold: Sentence) -> Lost:
    """s leaves the stack: it loses its gold head in β and its gold dependents in b|β."""
    s, rest = c.stack[-1], c.buffer[1:]
    return gold_links(gold, s, heads_from=rest, deps_from=c.buffer)


def eager_right_arc(c: Configuration, gold: Sentence) -> Lost:
    """b gets s as head: b loses a gold head in σ or β, and gold dependents left headless on the stack."""
    b = c.buffer[0]
    return gold_links(gold, b, heads_from=(*c.stack[:-1], *c.buffer[1:]), deps_from=headless(c, c.stack))


def eager_reduce(c: Configuration, gold: Sentence) -> Lost:
    """s leaves the stack: its gold dependents still in the buffer can no longer be attached."""
    s = c.stack[-1]
    return gold_links(gold, s, heads_from=(), deps_from=c.buffer)


def eager_shift(c: Configuration, gold: Sentence) -> Lost:
    """b goes above the whole stack: its gold links with stack tokens are lost (heads, or headless deps)."""
    b = c.buffer[0]
    return gold_links(gold, b, heads_from=c.stack, deps_from=headless(c, c.stack))


# -- arc-hybrid (spec §4.3; ROOT first or last) ---------------------------------------------
def hybrid_left_arc(c: Configuration, gold: Sentence) -> Lost:
    """s0 is attached to b and popped: no head from s1 or β, no dependent from b or β."""
    s0 = c.stack[-1]
    return gold_links(gold, s0, heads_from=(*c.stack[-2:-1], *c.buffer[1:]), deps_from=c.buffer)


def hybrid_right_arc(c: Configuration, gold: Sentence) -> Lost:
    """s0 is attached to s1 and popped: no head and no dependent from the buffer."""
    s0 = c.stack[-1]
    return gold_links(gold, s0, heads_from=c.buffer, deps_from=c.buffer)


def hybrid_shift(c: Configuration, gold: Sentence) -> Lost:
    """b goes on the stack: no head from below s0, no dependent from the stack."""
    b = c.buffer[0]
    return gold_links(gold, b, heads_from=c.stack[:-1], deps_from=c.stack)


LossRule = Callable[[Configuration, Sentence], Lost]


class _ArcDecomposableOracle(Oracle):
    exact_for = "projective"
    exactness = "exact for projective gold trees, approximate otherwise"
    speed = "linear"
    rules: dict[str, LossRule] = {}

    def lost_arcs(self, c: Configuration, gold: Sentence) -> dict[Transition, Lost]:
        """For each legal move, the gold arcs it makes unreachable (its own rule, above)."""
        return {t: self.rules[t.kind](c, gold) for t in self.system.legal(c)}

    def explanations(self, c: Configuration, gold: Sentence, costs: Costs) -> Explanations:
        """The lost arcs themselves: the whole reason for the cost (projective gold trees)."""
        return {t: Explanation(lost) for t, lost in self.lost_arcs(c, gold).items()}

    def move_costs(self, c: Configuration, gold: Sentence) -> Costs:
        return {t: len(lost) for t, lost in self.lost_arcs(c, gold).items()}


class ArcEagerDynamicOracle(_ArcDecomposableOracle):
    name = "goldberg-nivre"
    title = "dynamic (Goldberg & Nivre 2012)"
    systems = ("arc-eager",)
    rules = {"LA": eager_left_arc, "RA": eager_right_arc, "RE": eager_reduce, "SH": eager_shift}
    cost_rules = {  # seed 000's rules, in the notation of the system's table (G = the gold arcs)
        "LA": "gold arcs (h, s0) with h ∈ β after b, and (s0, d) with d ∈ b|β: s0 leaves the stack",
        "RA": "gold arcs (h, b) with h ∈ σ below s0 or h ∈ β, and (b, d) with d a headless token on "
              "the stack",
        "RE": "gold arcs (s0, d) with d ∈ b|β: s0 leaves the stack for good",
        "SH": "gold arcs (h, b) with h on the stack, and (b, d) with d a headless token on the stack",
    }


class ArcHybridDynamicOracle(_ArcDecomposableOracle):
    name = "goldberg-nivre"
    title = "dynamic (Goldberg & Nivre 2013)"
    systems = ("arc-hybrid",)
    rules = {"LA": hybrid_left_arc, "RA": hybrid_right_arc, "SH": hybrid_shift}
    cost_rules = {  # seed 002's C(LEFT), C(RIGHT), C(SHIFT) (G = the gold arcs)
        "LA": "C(LEFT) = gold arcs (h, s0) with h ∈ {s1} ∪ β, and (s0, d) with d ∈ {b} ∪ β",
        "RA": "C(RIGHT) = gold arcs (h, s0) and (s0, d) with h, d ∈ {b} ∪ β",
        "SH": "C(SHIFT) = gold arcs (h, b) with h ∈ {s1} ∪ σ, and (b, d) with d ∈ {s0, s1} ∪ σ",
    }
