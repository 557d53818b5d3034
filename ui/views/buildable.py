"""When the chosen system cannot build the gold tree: why, which arcs cross, which system can.

A projective system (arc-standard, arc-eager, arc-hybrid) builds only trees whose arcs can be
drawn without crossing.  On a non-projective gold tree its oracle answers for the best tree the
system *can* build, so "Best UAS 75 %" is the most it can ever reach, not a mistake of the
learner.  :func:`unbuildable` says so in words, names the crossing pairs and suggests the system
that can build the tree (the swap system of the same family where there is one).

>>> import parsing_core as pc
>>> s = next(x for x in pc.teaching_sentences() if x.sent_id == "found-best-example-ever")
>>> note = unbuildable(pc.get_system("arc-eager"), s)
>>> note.crossing, note.suggestion, note.reachable, note.exact
(['found → example crosses best → ever'], 'arc-hybrid-swap', 3, True)
>>> unbuildable(pc.get_system("arc-hybrid-swap"), s) is None
True
"""

from __future__ import annotations

from dataclasses import dataclass

import parsing_core as pc
from ui.views.oracle_view import completion
from ui.views.tables import arc_text

SWAP_OF = {"arc-standard": "arc-standard-swap", "arc-hybrid": "arc-hybrid-swap"}


@dataclass(frozen=True)
class Unbuildable:
    system: str
    reason: str  # the system's own words
    crossing: list[str]  # "found → example crosses best → ever", one per crossing pair
    suggestion: str | None  # a system that builds the tree
    reachable: int  # the most gold arcs a tree this system builds can hold (a projective tree)
    exact: bool  # ``reachable`` comes from an exact oracle (else: what an approximate one reaches)
    n: int


def unbuildable(system: pc.TransitionSystem, gold: pc.Sentence) -> Unbuildable | None:
    """Why ``system`` cannot build ``gold``'s tree, or None if it can (or there is no gold tree)."""
    if not gold.has_gold:
        return None
    reason = system.why_unbuildable(gold)
    if reason is None:
        return None
    trace = pc.start(system, gold)
    crossing = [f"{arc_text(trace, a)} crosses {arc_text(trace, b)}"
                for a, b in gold.crossing_pairs(system.root_last)]
    reachable, exact = best_reachable(system, gold)
    return Unbuildable(system.name, reason, crossing, suggestion(system, gold), reachable, exact, gold.n)


def suggestion(system: pc.TransitionSystem, gold: pc.Sentence) -> str | None:
    """The swap system of ``system``'s family, else the first system that builds the tree."""
    candidates = [SWAP_OF.get(system.name, ""), *pc.list_systems()]
    return next((name for name in candidates
                 if name and pc.get_system(name).why_unbuildable(gold) is None), None)


def best_reachable(system: pc.TransitionSystem, gold: pc.Sentence) -> tuple[int, bool]:
    """The most gold arcs a tree the system builds can hold, from the start (the parse finished
    by the best oracle for the tree), and whether that oracle is exact for it."""
    done = completion(pc.start(system, gold), gold, "")
    return (done.correct, done.exact) if done is not None else (0, False)
