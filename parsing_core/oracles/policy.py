"""What both of Nederhof's oracles share (:mod:`.nederhof`, cubic, and :mod:`.nederhof_linear`).

A *policy* breaks the ties between the computations that build the same tree: ``sbr``
(shift-before-reduce), ``rbs`` (reduce-before-shift) or ``none``.  Under a policy each legal
move gets a score ρ, the most gold arcs a canonical computation through it can still build, and
the moves of largest ρ are the policy's canonical moves -- always among the truly optimal ones.
Both oracles compute ρ (one by parsing strings of a grammar, one in linear time); this module
turns ρ into moves and teaching costs, so neither oracle module imports the other's.

>>> from parsing_core.transition import RA, RE, SH
>>> canonical_moves({SH: 3.0, RA: 3.0, RE: 2.0})
(Transition('SH'), Transition('RA'))
>>> canonical_moves({SH: -math.inf})
()
"""

from __future__ import annotations

import math

from ..configuration import Configuration
from ..errors import ParsingCoreError
from ..sentence import Sentence
from ..systems import TransitionSystem
from ..transition import Transition
from .base import Costs, Oracle

POLICIES = ("sbr", "rbs", "none")
STRICT = "rbs-strict"   # strict reduce-before-shift: for study only; max ρ may fall below best(c)

Scores = dict[Transition, float]


def check_policy(policy: str, allow_strict: bool = False) -> None:
    allowed = (*POLICIES, STRICT) if allow_strict else POLICIES
    if policy not in allowed:
        raise ParsingCoreError(f"unknown policy {policy!r}; choose one of {', '.join(allowed)}")


class PolicyOracle(Oracle):
    """What both of Nederhof's oracles share: a tie-breaking ``policy``, the ρ vector it gives
    (:meth:`scores`), and the canonical moves read off it (:meth:`canonical`, :meth:`next`)."""

    def __init__(self, system: TransitionSystem, policy: str = "sbr") -> None:
        super().__init__(system)
        check_policy(policy)
        self.policy = policy

    def scores(self, c: Configuration, gold: Sentence) -> Scores:
        raise NotImplementedError

    def canonical(self, c: Configuration, gold: Sentence) -> tuple[Transition, ...]:
        """The policy's optimal moves: those of largest ρ (always among the truly optimal ones)."""
        return canonical_moves(self.scores(c, gold))

    def next(self, c: Configuration, gold: Sentence, costs: Costs | None = None) -> Transition:
        """The first canonical move (labelled when the system is): cheaper than the costs, so
        ``costs`` are not needed."""
        return self.labelled(c, gold, self.canonical(c, gold)[0])

    def teaching_costs(self, c: Configuration, gold: Sentence) -> Costs:
        """max ρ − ρ: 0 for the canonical moves (optimal ones), ∞ for ρ = −∞.  Not true costs,
        but they teach the policy's choice in one parse per configuration, as Nederhof trains."""
        scores = self.scores(c, gold)
        top = max(scores.values(), default=-math.inf)
        return {t: math.inf if v == -math.inf else top - v for t, v in scores.items()}

    def __repr__(self) -> str:
        return f"get_oracle({self.system.name!r}, {self.name!r}, policy={self.policy!r})"


def canonical_moves(scores: Scores) -> tuple[Transition, ...]:
    """The moves of largest ρ, in display order (none when every ρ is −∞)."""
    top = max(scores.values(), default=-math.inf)
    return () if top == -math.inf else tuple(t for t, v in scores.items() if v == top)
