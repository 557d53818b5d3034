"""What the oracles say about the current configuration, gathered for the page (no Streamlit here).

An oracle may be unable to answer: the search oracle refuses long sentences, a static oracle
refuses trees the system cannot build, no oracle works without a gold tree.  :func:`ask`
always returns a :class:`Verdict`: the costs (perhaps from a fallback oracle, with a note
saying so), or an ``error`` message and no costs.  The page can then always let the user click.

:func:`completion` finishes the parse by following an oracle's optimal moves; the gold arcs
that tree still gets are the ones still reachable, and its score is the best attachment
score still reachable when the oracle is exact.  Which oracle to fall back on, or to finish
with, is the library's ranking (:func:`parsing_core.oracles.ranked`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import lru_cache

import parsing_core as pc
from parsing_core.oracles import label_penalty, optimal_moves, ranked, reachable_gold_arcs
from parsing_core.oracles.nederhof import NederhofOracle, PolicyOracle

Arc = pc.Arc
STATIC = "static"  # the library's default oracle: names one gold move, has no real costs
STATIC_NOTE = ("A static oracle only names the move it would take (cost 0) and marks every other "
               "legal move 1; it does not measure what a move loses.")


@lru_cache(maxsize=64)
def oracle_for(system: pc.TransitionSystem, name: str) -> pc.Oracle:
    """One oracle object per system object, so that the search oracle keeps its tables."""
    return pc.get_oracle(system, name)


@dataclass(frozen=True)
class Verdict:
    """One oracle's answer in one configuration."""

    oracle: str  # the oracle that answered (a fallback when the chosen one could not)
    costs: dict[pc.Transition, float] = field(default_factory=dict)  # bare legal move → cost
    why: dict[pc.Transition, pc.Explanation] = field(default_factory=dict)  # {} = cannot tell
    gold_moves: dict[pc.Transition, pc.Transition] = field(default_factory=dict)  # bare → gold label
    notes: tuple[str, ...] = ()  # how to read these costs
    warnings: tuple[str, ...] = ()  # why they may not be what was asked for (fallback, approximate)
    error: str | None = None

    @property
    def optimal(self) -> tuple[pc.Transition, ...]:
        return optimal_moves(self.costs)


def ask(system: pc.TransitionSystem, name: str, c: pc.Configuration, gold: pc.Sentence) -> Verdict:
    """Ask oracle ``name``; if the sentence is too long for it, fall back and say so."""
    if not gold.has_gold:
        return Verdict(name, error="This sentence has no gold tree, so there are no costs; "
                                   "the moves still work.")
    try:
        return _answer(system, name, c, gold)
    except pc.TooLongForSearch as err:
        for other in fallbacks(system, gold, name):
            try:
                return _answer(system, other, c, gold, f"{err} Showing {other} instead.")
            except pc.ParsingCoreError:
                continue
        return Verdict(name, error=str(err))
    except pc.ParsingCoreError as err:
        return Verdict(name, error=str(err))


def _answer(system: pc.TransitionSystem, name: str, c: pc.Configuration, gold: pc.Sentence,
            fallback: str = "") -> Verdict:
    oracle = oracle_for(system, name)
    answer = oracle.answer(c, gold)
    notes, warnings = exactness_notes(oracle, gold)
    return Verdict(name, answer.costs, answer.explanations, answer.labelled, notes,
                   (fallback, *warnings) if fallback else warnings)


@dataclass(frozen=True)
class PolicyScores:
    """Nederhof's ρ for each legal move under a policy, and the canonical (largest-ρ) moves."""

    oracle: str
    policy: str
    scores: dict[pc.Transition, float]
    canonical: tuple[pc.Transition, ...]
    strings: dict[pc.Transition, str]


def policy_scores(system: pc.TransitionSystem, name: str, c: pc.Configuration, gold: pc.Sentence
                  ) -> PolicyScores | None:
    """Nederhof's own scores, for an oracle that has them (None otherwise, or without gold)."""
    oracle = oracle_for(system, name)
    if not isinstance(oracle, PolicyOracle) or not gold.has_gold or not system.legal(c):
        return None
    strings = oracle.strings(c, gold) if isinstance(oracle, NederhofOracle) else {}
    return PolicyScores(name, oracle.policy, oracle.scores(c, gold), oracle.canonical(c, gold), strings)


def exactness_notes(oracle: pc.Oracle, gold: pc.Sentence) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """How far to trust this oracle's costs for this gold tree: (notes, warnings)."""
    if oracle.name == STATIC:
        return (STATIC_NOTE,), ()
    if oracle.exact_for == "projective" and not oracle.is_exact_for(gold):
        return (), (f"{oracle.name} is approximate for this sentence: its gold tree is non-projective "
                    f"({oracle.exactness}).",)
    if oracle.exact_for == "none":
        return (f"{oracle.name}: {oracle.exactness}.",), ()
    return (), ()


def fallbacks(system: pc.TransitionSystem, gold: pc.Sentence, failed: str) -> list[str]:
    """Other oracles to try, best first (the library's ranking): exact for this tree, then the
    others, the static one last."""
    return [n for n in ranked(system, gold, need_costs=False) if n != failed]


def move_cost(system: pc.TransitionSystem, verdict: Verdict, c: pc.Configuration, gold: pc.Sentence,
              move: pc.Transition) -> float | None:
    """Cost of a (possibly labelled) move: its unlabelled cost, plus 1 for a wrong label."""
    if move.bare not in verdict.costs:
        return None
    return verdict.costs[move.bare] + label_penalty(system, c, gold, move)


# -- the best parse still reachable ---------------------------------------------------------------
@dataclass(frozen=True)
class Completion:
    """The parse finished by following ``oracle``'s optimal moves from the current configuration."""

    oracle: str
    exact: bool  # is the oracle exact for this gold tree (then ``correct`` is the best reachable)
    reachable: frozenset[Arc]  # the gold arcs of the finished parse (parsing_core's reachable_gold_arcs)

    @property
    def correct(self) -> int:
        """Gold arcs in the finished parse."""
        return len(self.reachable)


def completion(trace: pc.Trace, gold: pc.Sentence, preferred: str) -> Completion | None:
    """Finish ``trace`` with the first oracle that can: ``preferred`` if it is exact for this
    tree, else any exact one (search last: it is slow), else ``preferred``, else any."""
    if not gold.has_gold:
        return None
    system = trace.system
    for name, exact in reference_order(system, gold, preferred):
        try:
            reachable = reachable_gold_arcs(system, oracle_for(system, name), trace.final, gold)
        except pc.ParsingCoreError:
            continue
        return Completion(name, exact, reachable)
    return None


def reference_order(system: pc.TransitionSystem, gold: pc.Sentence, preferred: str) -> list[tuple[str, bool]]:
    """The oracles to finish the parse with, each with whether it is exact for ``gold``: the
    library's ranking, ``preferred`` moved to the front of its group (exact or not)."""
    names = ranked(system, gold, need_costs=False)
    exact = [n for n in names if oracle_for(system, n).is_exact_for(gold)]
    rest = [n for n in names if n not in exact]
    exact.sort(key=lambda n: n != preferred)  # stable: the ranking otherwise
    rest.sort(key=lambda n: n != preferred)
    return [(n, True) for n in exact] + [(n, False) for n in rest]


def arc_kinds(c: pc.Configuration, gold: pc.Sentence, done: Completion | None) -> dict[Arc, str]:
    """Each arc to draw and its kind: built ``correct`` / ``wrong``, gold ``reachable`` / ``lost``.

    A gold arc is lost when its dependent already has another head, when one of its tokens
    has left both the stack and the buffer, or when the completion of an exact oracle does not
    build it (it is not among the library's ``reachable_gold_arcs``).
    Without a gold tree every built arc is just ``built``.
    """
    built = c.unlabelled_arcs
    if not gold.has_gold:
        return {a: "built" for a in built}
    kinds = {a: "correct" if a in gold.gold_arcs else "wrong" for a in built}
    alive = {0, *c.stack, *c.buffer}
    for h, d in gold.gold_arcs - built:
        gone = c.has_head(d) or h not in alive or d not in alive
        missed = done is not None and done.exact and (h, d) not in done.reachable
        kinds[(h, d)] = "lost" if gone or missed else "reachable"
    return kinds


# -- choosing a move for autoplay -----------------------------------------------------------------
TIE_BREAKS: dict[str, str] = {
    "first": "the first optimal move in button order (SH before arcs)",
    "arcs": "arcs and reduce before shift (build as early as possible)",
    "random": "a random optimal move (the same at the same step)",
}


def pick(optimal: tuple[pc.Transition, ...], rule: str, step: int) -> pc.Transition | None:
    """One move among equally good ones, by a tie-break rule (a key of TIE_BREAKS)."""
    if not optimal:
        return None
    if rule == "arcs":
        return sorted(optimal, key=lambda t: t.kind == "SH")[0]
    if rule == "random":
        return random.Random(step).choice(optimal)
    return optimal[0]
